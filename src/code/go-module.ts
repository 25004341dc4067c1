// The Go module path of a repository (go.mod's `module` line), which its own imports start with.
import { promises as fs } from 'node:fs';
import path from 'node:path';

export async function goModule(root: string): Promise<string | undefined> {
  const text = await fs.readFile(path.join(root, 'go.mod'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : /^module\s+(\S+)/m.exec(text)?.[1];
}
