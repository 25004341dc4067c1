// `keel mcp add` and `keel mcp remove`: one server entry set or deleted in a config file through the yaml
// library's document model, so the file's comments and the order of its other keys survive the edit.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type Document, isCollection, isMap, parseDocument } from 'yaml';
import { mcpServerSchema } from '../config/mcp-schema.js';
import { ConfigError } from '../core/errors.js';

const serversPath = ['mcp', 'servers'];

async function readDocument(file: string): Promise<Document> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw new ConfigError(`cannot read config file ${file}: ${error.code ?? error.message}`, {
      cause: error,
    });
  });
  const document = parseDocument(text);
  if (document.errors.length > 0) {
    throw new ConfigError(`YAML syntax error in ${file}: ${document.errors[0]!.message}`, {
      hint: 'fix the file first (keel config show names the line)',
    });
  }
  if (document.contents !== null && !isMap(document.contents)) {
    throw new ConfigError(`${file}: a config file must be a mapping of keys, like \`agent:\``);
  }
  return document;
}

/** Temp file + rename: a reader never sees half a file; the file keeps its mode (0600 when new). */
async function writeDocument(file: string, document: Document): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const mode = (await stat(file).catch(() => undefined))?.mode ?? 0o600;
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, document.toString(), { mode: mode & 0o777 });
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}

/** Adds `mcp.servers.<name>`; an existing entry of that name is an error (remove it first). */
export async function addServer(file: string, name: string, server: Record<string, unknown>): Promise<void> {
  const checked = mcpServerSchema.safeParse(server);
  if (!checked.success) {
    throw new ConfigError(`MCP server ${name}: ${checked.error.issues[0]?.message ?? 'invalid'}`);
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
