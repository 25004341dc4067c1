// Renders the merged config as YAML-like text, each value followed by where it came from; secrets are masked.
// A project value ignored for want of trust is named next to the value used instead.
import { stringify } from 'yaml';
import { configOutline, isSecretKey } from './keys.js';
import type { LoadedConfig } from './load.js';
import { maskSecrets } from './secrets.js';

const mask = '********';

export function valueAt(root: unknown, path: readonly string[]): unknown {
  let current = root;
  for (const segment of path) current = (current as Record<string, unknown> | undefined)?.[segment];
  return current;
}

function renderValue(value: unknown, secret: boolean): string {
  if (value === undefined) return '(not set)';
  if (secret) return mask;
  return stringify(maskSecrets(value, mask)).trimEnd();
}

function sourceComment(loaded: LoadedConfig, key: string): string | undefined {
  const source = loaded.sources[key];
  const ignored = loaded.ignored.find((entry) => entry.key === key);
  return ignored ? `${source}; ignored: ${ignored.source} is not trusted (keel trust)` : source;
}

/** The whole config, or only the keys of group `under` (`checkpoints`, `provider.ollama`), from its own depth. */
export function formatConfig(loaded: LoadedConfig, under?: string): string {
  const rows: Array<{ text: string; comment?: string }> = [];
  const files = loaded.files.length > 0 ? loaded.files.join(', ') : 'none';
  rows.push({ text: `# config files read: ${files}` });
  const depth = under === undefined ? 0 : under.split('.').length;
  for (const item of configOutline()) {
    const key = item.kind === 'group' ? item.key : item.leaf.key;
    if (under !== undefined && !key.startsWith(`${under}.`)) continue;
    const indent = '  '.repeat(item.depth - depth);
    if (item.kind === 'group') {
      rows.push({ text: `${indent}${item.name}:` });
      continue;
    }
    const value = renderValue(valueAt(loaded.config, item.leaf.path), item.leaf.secret);
    const comment = sourceComment(loaded, item.leaf.key);
    if (!value.includes('\n')) {
      rows.push({ text: `${indent}${item.name}: ${value}`, comment });
      continue;
    }
    // A mapping or list (the MCP servers, an allow list) as a YAML block under its key, the source on the key's line:
    // inline, its lines lost their indent and the longest set the padding of every comment.
    rows.push({ text: `${indent}${item.name}:`, comment });
    for (const line of value.split('\n')) rows.push({ text: `${indent}  ${line}` });
  }
  const width = Math.max(...rows.filter((row) => row.comment).map((row) => row.text.length));
  const lines = rows.map((row) => (row.comment ? `${row.text.padEnd(width)}  # ${row.comment}` : row.text));
  return `${lines.join('\n')}\n`;
}

/** One leaf's value as `keel config get` prints it: the bare text of a string, YAML otherwise; secrets masked. */
export function formatValue(loaded: LoadedConfig, key: string, secret: boolean): string {
  const value = valueAt(loaded.config, key.split('.'));
  if (value === undefined) return '';
  return `${typeof value === 'string' && !secret ? value : renderValue(value, secret)}\n`;
}

/**
 * A value inside a named entry (`mcp.servers.fs`, its `command`, its `env.HOME`) as `keel config get` prints it: the
 * bare text of a string, YAML otherwise; secrets masked as `keel config show` masks them.
 */
export function formatEntryValue(loaded: LoadedConfig, key: string): string {
  const value = valueAt(loaded.config, key.split('.'));
  if (value === undefined) return '';
  const masked = isSecretKey(key) ? mask : maskSecrets(value, mask, key.split('.').at(-1));
  return `${typeof masked === 'string' ? masked : stringify(masked).trimEnd()}\n`;
}

/**
 * The merged config as data (`keel config show --output json`): the files read, and each key's value (secrets
 * masked, null when not set) with where it came from.
 */
export function configJson(loaded: LoadedConfig): {
  files: string[];
  values: Record<string, { value: unknown; source: string | undefined }>;
} {
  const values: Record<string, { value: unknown; source: string | undefined }> = {};
  for (const item of configOutline()) {
    if (item.kind === 'group') continue;
    const value = valueAt(loaded.config, item.leaf.path);
    values[item.leaf.key] = {
      value: value === undefined ? null : item.leaf.secret ? mask : maskSecrets(value, mask),
      source: sourceComment(loaded, item.leaf.key),
    };
  }
  return { files: loaded.files, values };
}
