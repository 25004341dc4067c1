// A byte-for-byte picture of a directory tree, to compare a workspace before and after (undo, dry run).
import { promises as fs } from 'node:fs';
import { join } from 'node:path';

export interface TreeOptions {
  /** Top-level names left out (`.git` when only the work tree matters). */
  skip?: string[];
  /** Record modification times too (a dry run must not even touch a file). */
  mtimes?: boolean;
}

/** path → `file 644 <content>`, `dir`, `link -> target`; sorted, so toEqual shows exactly what differs. */
export async function treeSnapshot(root: string, options: TreeOptions = {}): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    );
    for (const entry of entries) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (!prefix && options.skip?.includes(entry.name)) continue;
      const full = join(dir, entry.name);
      const stat = await fs.lstat(full);
      const time = options.mtimes ? ` @${stat.mtimeMs}` : '';
      if (entry.isSymbolicLink()) result[rel] = `link -> ${await fs.readlink(full)}`;
      else if (entry.isDirectory()) {
        result[rel] = `dir${time}`;
        await walk(full, rel);
      } else {
        const mode = (stat.mode & 0o777).toString(8);
        const bytes = await fs.readFile(full);
        const text = bytes.toString('utf8');
        // Text stays readable in a failure's diff; anything else is compared as base64.
        const shown = Buffer.from(text, 'utf8').equals(bytes) ? text : `base64:${bytes.toString('base64')}`;
        result[rel] = `file ${mode}${time} ${shown}`;
      }
    }
  };
  await walk(root, '');
  return result;
}
