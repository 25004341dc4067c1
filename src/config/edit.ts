// Edits a config file through the yaml library's document model, so its comments and the order of its other keys
// survive: `keel config set`, the first run's provider choice, and `keel mcp add/remove`.
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type Document, isMap, parseDocument } from 'yaml';
import * as z from 'zod';
import { ConfigError } from '../core/errors.js';
import { replaceFile } from '../core/replace-file.js';
import { describeExpected, describeValue, isSecretKey, keyAt, unknownKey } from './keys.js';
import { valueAt } from './show.js';

/** The file's document; a missing file is an empty one. */
export async function readConfigDocument(file: string): Promise<Document> {
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
export async function writeConfigDocument(file: string, document: Document): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const mode = (await stat(file).catch(() => undefined))?.mode ?? 0o600;
  await replaceFile(file, document.toString(), { mode: mode & 0o777 });
}

/**
 * Sets dotted keys (`provider.type`, `mcp.servers.fs.env.HOME`, a whole `mcp.servers.fs`), each value checked
 * against its key's schema before anything is written. A key inside a named entry (`mcp.servers.fs.enabled`) is set
 * only in an entry the file has: a lone key would make an entry of its own that is no server.
 */
export async function setConfigValues(file: string, values: Record<string, unknown>): Promise<void> {
  const document = await readConfigDocument(file);
  for (const [key, value] of Object.entries(values)) {
    const at = keyAt(key);
    if (!at) throw unknownKey(key);
    const entryPath = at.entries[0];
    if (entryPath && entryPath.length < at.path.length && !isMap(document.getIn(entryPath))) {
      const entry = entryPath.join('.');
      throw new ConfigError(`${file} has no \`${entry}\` to set \`${key.slice(entry.length + 1)}\` in`, {
        hint:
          entryPath[0] === 'mcp'
            ? `add the server first (keel mcp add ${entryPath.at(-1)} …), or write the entry in the file`
            : 'write the entry in the file first',
      });
    }
    const checked = at.schema.safeParse(value);
    if (checked.success) continue;
    const secret = isSecretKey(key);
    if (!(at.schema instanceof z.ZodObject || at.schema instanceof z.ZodRecord)) {
      throw new ConfigError(
        `\`${key}\` must be ${describeExpected(at.schema)}, got ${describeValue(value, secret)}`,
      );
    }
    // A mapping (a whole server): its first problem, as the key inside it would say it, or its own rule.
    const issue = checked.error.issues[0]!;
    const innerKey = [key, ...issue.path.map(String)].join('.');
    const inner = issue.path.length > 0 ? keyAt(innerKey) : undefined;
    if (inner && !(inner.schema instanceof z.ZodObject || inner.schema instanceof z.ZodRecord)) {
      const got = describeValue(valueAt(value, issue.path.map(String)), isSecretKey(innerKey));
      throw new ConfigError(`\`${innerKey}\` must be ${describeExpected(inner.schema)}, got ${got}`);
    }
    const inside = issue.path.length > 0 ? `\`${innerKey}\`: ` : '';
    throw new ConfigError(`cannot set \`${key}\`: ${inside}${issue.message}`);
  }
  for (const [key, value] of Object.entries(values)) document.setIn(key.split('.'), value);
  await writeConfigDocument(file, document);
}
