// organize_imports: sorts a TS/JS, Python or Dart file's imports, merges duplicates and drops unused names.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { languageOf } from '../code/languages.js';
import { organizeImports } from '../code/organize-imports.js';
import { organizePythonImports, type PythonImportStyle } from '../code/organize-python.js';
import { keyValue, tomlSection } from '../project/scan.js';
import { withNewErrors } from './after-change.js';
import { fileChangeDiff } from './file-diff.js';
import { readTextFile } from './fs-util.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';
import { writeFilesAtomic } from './write-files-atomic.js';

const schema = z.object({ path: z.string() });

async function plan(args: z.infer<typeof schema>, ctx: ToolContext) {
  const absolute = await ctx.workspace.resolve(args.path);
  const shown = ctx.workspace.relative(absolute);
  const lang = languageOf(absolute);
  const before = await readTextFile(absolute, shown, ctx.limits.maxFileReadSize);
  const after =
    lang?.id === 'python'
      ? organizePythonImports(lang, before, {
          ...(await pythonProject(ctx)),
          isPackageInit: path.basename(absolute) === '__init__.py',
        })
      : lang
        ? organizeImports(lang, before)
        : undefined;
  return { absolute, shown, before, after };
}

/**
 * What Python import sorting needs of the project: its own top-level packages and modules (at the root and under
 * src/), the line length ruff or black is set to (88, theirs, otherwise) and the isort settings of pyproject.toml
 * (`[tool.ruff.lint.isort]`, `[tool.ruff.isort]`, `[tool.isort]`).
 */
async function pythonProject(
  ctx: ToolContext,
): Promise<{ firstParty: Set<string>; lineLength: number; style: Partial<PythonImportStyle> }> {
  const firstParty = new Set<string>();
  for (const dir of ['.', 'src']) {
    const base = await ctx.workspace.resolveForRead(dir).catch(() => undefined);
    if (!base) continue;
    const entries = await fs.readdir(base, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isFile() && entry.name.endsWith('.py')) firstParty.add(entry.name.slice(0, -3));
      else if (entry.isDirectory() && !entry.name.startsWith('.'))
        if (
          await fs.stat(path.join(base, entry.name, '__init__.py')).then(
            () => true,
            () => false,
          )
        )
          firstParty.add(entry.name);
    }
  }
  const pyproject = await ctx.workspace
    .resolveForRead('pyproject.toml')
    .then((file) => fs.readFile(file, 'utf8'))
    .catch(() => '');
  const isort = ['tool.ruff.lint.isort', 'tool.ruff.isort', 'tool.isort']
    .map((header) => tomlSection(pyproject, header))
    .join('\n');
  /** A setting by its ruff (dashes) or isort (underscores) name. */
  const setting = (name: string) => keyValue(isort, name) ?? keyValue(isort, name.replaceAll('-', '_'));
  const flag = (name: string) => {
    const value = setting(name)?.trim().toLowerCase();
    return value === 'true' ? true : value === 'false' ? false : undefined;
  };
  const list = (name: string) => {
    const found = new RegExp(`^\\s*${name}\\s*=\\s*\\[([^\\]]*)\\]`, 'm').exec(isort)?.[1];
    return found === undefined ? undefined : [...found.matchAll(/["']([^"']+)["']/g)].map((m) => m[1]!);
  };
  const style: Partial<PythonImportStyle> = {};
  const assign = <K extends keyof PythonImportStyle>(key: K, value: PythonImportStyle[K] | undefined) => {
    if (value !== undefined) style[key] = value;
  };
  assign('forceSingleLine', flag('force-single-line'));
  assign('orderByType', flag('order-by-type'));
  assign('combineAs', flag('combine-as-imports'));
  assign('splitOnTrailingComma', flag('split-on-trailing-comma'));
  assign('knownFirstParty', list('known-first-party') ?? list('known_first_party'));
  assign('knownThirdParty', list('known-third-party') ?? list('known_third_party'));
  const length = setting('line-length') ?? /^\s*line-length\s*=\s*(\d+)/m.exec(pyproject)?.[1];
  return { firstParty, lineLength: length && /^\d+$/.test(length.trim()) ? Number(length) : 88, style };
}

export const organizeImportsTool = defineTool({
  name: 'organize_imports',
  description: 'Sort, dedupe and drop unused imports of a TS/JS, Python or Dart file.',
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const absolute = await ctx.workspace.resolve(args.path);
    const shown = ctx.workspace.relative(absolute);
    const p = await plan(args, ctx).catch(() => undefined);
    const diff =
      p?.after !== undefined && p.after !== p.before ? fileChangeDiff(shown, p.before, p.after) : undefined;
    return {
      reads: [absolute],
      writes: [absolute],
      ...(diff ? { diff } : {}),
      summary: `organize imports of ${shown}`,
    };
  },
  async execute(args, ctx) {
    const p = await plan(args, ctx);
    if (p.after === undefined)
      return fail(`${p.shown}: organize_imports handles TS/JS, Python and Dart files only`);
    if (p.after === p.before) return ok(`${p.shown}: imports already organized`, { changed: false });
    // Unchanged since the preview: the file is written only as shown.
    if ((await fs.readFile(p.absolute, 'utf8')) !== p.before) return fail(`${p.shown} changed; try again`);
    await writeFilesAtomic([{ absolute: p.absolute, before: p.before, after: p.after }], ctx);
    const result = ok(
      `organized imports of ${p.shown}`,
      { changed: true },
      fileChangeDiff(p.shown, p.before, p.after),
    );
    return withNewErrors(ctx, [{ absolute: p.absolute, before: p.before, after: p.after }], result);
  },
});
