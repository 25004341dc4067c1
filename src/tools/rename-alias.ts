// keep_alias for a Python rename (pyright's or by name): the renamed files, and the modules whose `__all__` still
// lists the old name, given what keeps the old name importable (code/python-alias.ts), with a note saying where.
import { promises as fs } from 'node:fs';
import { keepPythonAlias } from '../code/python-alias.js';
import { wordSearch } from './service-check.js';
import type { ToolContext } from './tool.js';

interface Renamed {
  path: string;
  before: string;
  after: string;
  count: number;
}

const PYTHON = /\.pyi?$/;

/**
 * `files` with the old name kept beside the new one (`definedIn`: the module defining it), and any other module
 * listing the old name in `__all__` (a rename by name leaves strings alone) listing the new one too; with a note.
 */
export async function withPythonAlias(
  ctx: ToolContext,
  files: readonly Renamed[],
  oldName: string,
  newName: string,
  definedIn: string,
): Promise<{ files: Renamed[]; note: string }> {
  const result = files.map((f) => ({ ...f }));
  const renamed = new Set(files.map((f) => f.path));
  const others = (await wordSearch(ctx, [oldName], ctx.signal).catch(() => [] as string[])).filter(
    (p) => PYTHON.test(p) && !renamed.has(p),
  );
  const changed: string[] = [];
  for (const file of result) {
    if (!PYTHON.test(file.path)) continue;
    const after = keepPythonAlias(file.after, file.path, oldName, newName, file.path === definedIn);
    if (after === undefined) continue;
    file.after = after;
    changed.push(file.path);
  }
  for (const path of others) {
    const before = await fs.readFile(await ctx.workspace.resolve(path), 'utf8').catch(() => undefined);
    if (before === undefined || !before.includes('__all__')) continue;
    const after = keepPythonAlias(before, path, oldName, newName, false);
    if (after === undefined) continue;
    result.push({ path, before, after, count: 1 });
    changed.push(path);
  }
  const defined = changed.includes(definedIn);
  const where = changed.filter((p) => p !== definedIn);
  const parts = [
    defined ? `${oldName} = ${newName} in ${definedIn}` : undefined,
    where.length > 0 ? `the old name kept in the exports of ${where.join(', ')}` : undefined,
  ].filter((p) => p !== undefined);
  const note =
    parts.length > 0
      ? `(keep_alias: ${oldName} stays importable: ${parts.join('; ')})`
      : `(keep_alias: found no definition of ${newName} in ${definedIn} to keep ${oldName} beside; ${oldName} is no longer defined)`;
  return { files: result.sort((a, b) => a.path.localeCompare(b.path)), note };
}
