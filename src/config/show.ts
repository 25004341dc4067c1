// Renders the merged config as YAML-like text, each value followed by where it came from; secrets are masked.
import { stringify } from 'yaml';
import { configLeaves } from './keys.js';
import type { LoadedConfig } from './load.js';

const mask = '********';

function valueAt(root: unknown, path: readonly string[]): unknown {
  let current = root;
  for (const segment of path) current = (current as Record<string, unknown> | undefined)?.[segment];
  return current;
}

function renderValue(value: unknown, secret: boolean): string {
  if (value === undefined) return '(not set)';
  if (secret) return mask;
  return stringify(value).trimEnd();
}

export function formatConfig(loaded: LoadedConfig): string {
  const rows: Array<{ text: string; comment?: string }> = [];
  const files = loaded.files.length > 0 ? loaded.files.join(', ') : 'none';
  rows.push({ text: `# config files read: ${files}` });
  let open: string[] = [];
  for (const leaf of configLeaves()) {
    const parents = leaf.path.slice(0, -1);
    // Open the mappings this leaf sits in that the previous leaf did not.
    let shared = 0;
    while (shared < open.length && open[shared] === parents[shared]) shared++;
    for (let depth = shared; depth < parents.length; depth++) {
      rows.push({ text: `${'  '.repeat(depth)}${parents[depth]}:` });
    }
    open = parents;
    const value = renderValue(valueAt(loaded.config, leaf.path), leaf.secret);
    const name = leaf.path.at(-1)!;
    rows.push({ text: `${'  '.repeat(parents.length)}${name}: ${value}`, comment: loaded.sources[leaf.key] });
  }
  const width = Math.max(...rows.filter((row) => row.comment).map((row) => row.text.length));
  const lines = rows.map((row) => (row.comment ? `${row.text.padEnd(width)}  # ${row.comment}` : row.text));
  return `${lines.join('\n')}\n`;
}
