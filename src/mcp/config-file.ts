// `keel mcp add` and `keel mcp remove`: one server entry set or deleted in a config file, its comments and the
// order of its other keys kept (config/edit.ts).
import { isCollection } from 'yaml';
import { readConfigDocument as readDocument, writeConfigDocument as writeDocument } from '../config/edit.js';
import { mcpServerSchema } from '../config/mcp-schema.js';
import { ConfigError } from '../core/errors.js';

const serversPath = ['mcp', 'servers'];

/** Adds `mcp.servers.<name>`; an existing entry of that name is an error (remove it first). */
export async function addServer(file: string, name: string, server: Record<string, unknown>): Promise<void> {
  const checked = mcpServerSchema.safeParse(server);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    if (issue?.path[0] === 'url') {
      throw new ConfigError(
        `MCP server ${name}: --url must be an http(s) URL, got ${JSON.stringify(server.url)}`,
        {
          hint: `the server's streamable HTTP endpoint, e.g. keel mcp add ${name} --url https://host/mcp`,
        },
      );
    }
    throw new ConfigError(`MCP server ${name}: ${issue?.message ?? 'invalid'}`);
  }
  const document = await readDocument(file);
  if (document.hasIn([...serversPath, name])) {
    throw new ConfigError(`MCP server ${name} is already in ${file}`, {
      hint: `remove it first with \`keel mcp remove ${name}\`, or edit the file`,
    });
  }
  const servers = document.getIn(serversPath, true);
  // An empty `servers: {}` (the starter file's) is replaced, so the entry is written as a block, not inline.
  if (isCollection(servers) && servers.items.length > 0) {
    document.setIn([...serversPath, name], document.createNode(server));
  } else {
    document.setIn(serversPath, document.createNode({ [name]: server }));
  }
  await writeDocument(file, document);
}

/** Removes `mcp.servers.<name>`, and the emptied `mcp` block with it; false when the file has no such server. */
export async function removeServer(file: string, name: string): Promise<boolean> {
  const document = await readDocument(file);
  if (!document.hasIn([...serversPath, name])) return false;
  document.deleteIn([...serversPath, name]);
  const servers = document.getIn(serversPath, true);
  if (isCollection(servers) && servers.items.length === 0) {
    document.deleteIn(serversPath);
    const mcp = document.getIn(['mcp'], true);
    if (isCollection(mcp) && mcp.items.length === 0) document.deleteIn(['mcp']);
  }
  await writeDocument(file, document);
  return true;
}

/** Whether the file names this server (a missing or unreadable file does not). */
export async function hasServer(file: string, name: string): Promise<boolean> {
  return readDocument(file)
    .then((document) => document.hasIn([...serversPath, name]))
    .catch(() => false);
}
