// organize_imports: sorts a TS/JS, Python or Dart file's imports, merges duplicates and drops unused names.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { languageOf } from '../code/languages.js';
import { type DartPackage, ImportResolver } from '../code/module-graph.js';
import {
  type DartOrganized,
  dartImportUris,
  dartLibraries,
  organizeDartImports,
} from '../code/organize-dart.js';
import { organizeImports } from '../code/organize-imports.js';
import { organizePythonImports, type PythonImportStyle } from '../code/organize-python.js';
import { editorConfigFor, parseEditorConfig } from '../project/editorconfig.js';
import { keyValue, prop, stripJsonComments, tomlSection } from '../project/scan.js';
import { withNewErrors } from './after-change.js';
import { codeIndexOf } from './code-index-of.js';
import { fileChangeDiff } from './file-diff.js';
import { readTextFile } from './fs-util.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';
import { writeFilesAtomic } from './write-files-atomic.js';

const schema = z.strictObject({ path: z.string() });

async function plan(args: z.infer<typeof schema>, ctx: ToolContext) {
  const absolute = await ctx.workspace.resolve(args.path);
  const shown = ctx.workspace.relative(absolute);
  const lang = languageOf(absolute);
  const before = await readTextFile(absolute, shown, ctx.limits.maxFileReadSize);
  if (lang?.id === 'dart') {
    const organized = organizeDartImports(lang, before, await dartProject(ctx, absolute, before));
    return { absolute, shown, before, after: organized.text, notes: dartNotes(organized) };
  }
  const after =
    lang?.id === 'python'
      ? organizePythonImports(lang, before, {
          ...(await pythonProject(ctx)),
          isPackageInit: path.basename(absolute) === '__init__.py',
        })
      : lang
        ? organizeImports(lang, before, { ...(await scriptLineWidth(ctx, absolute)) })
        : undefined;
  return { absolute, shown, before, after, notes: [] as string[] };
}

/**
 * The libraries a Dart file imports, from the code index: the file's package is the nearest pubspec.yaml's `name`
 * (its `package:` URIs are files under its lib/, another package's are not the repository's).
 */
async function dartProject(ctx: ToolContext, absolute: string, source: string) {
  const index = await codeIndexOf(ctx);
  const root = ctx.workspace.root;
  let dartPackage: DartPackage | undefined;
  for (let dir = path.dirname(absolute); !dartPackage; dir = path.dirname(dir)) {
    const pubspec = await fs.readFile(path.join(dir, 'pubspec.yaml'), 'utf8').catch(() => undefined);
    const name = pubspec && /^name:\s*['"]?([\w]+)/m.exec(pubspec)?.[1];
    if (name) dartPackage = { name, root: path.relative(root, dir).split(path.sep).join('/') };
    if (dir === root || !dir.startsWith(`${root}${path.sep}`)) break;
  }
  const resolver = new ImportResolver(index, undefined, dartPackage ? { dartPackage } : {});
  const file = ctx.workspace.pathOf(absolute).split(path.sep).join('/');
  const read = (f: string) => fs.readFile(path.join(root, f), 'utf8').catch(() => undefined);
  return dartLibraries(index, resolver, file, dartImportUris(source), read);
}

/** What a Dart organising dropped besides sorting, and what it could not check (no Dart analysis server here). */
function dartNotes(organized: DartOrganized): string[] {
  const notes = organized.dropped.map((d) => `dropped ${d}`);
  const parts: string[] = [];
  if (organized.checked.length > 0)
    parts.push(`${organized.checked.join(', ')} ${organized.checked.length === 1 ? 'is' : 'are'} used`);
  const why = new Map<string, string[]>();
  for (const { uri, why: reason } of organized.unchecked)
    why.set(reason, [...(why.get(reason) ?? []), `'${uri}'`]);
  if (why.size > 0)
    parts.push(
      `not checked: ${[...why].map(([reason, uris]) => `${uris.join(', ')} (${reason})`).join(', ')}`,
    );
  if (parts.length > 0)
    notes.push(`(imports checked for use by name, no Dart analysis server here: ${parts.join('; ')})`);
  return notes;
}

/**
 * The line width the project's formatter keeps TS/JS to, from the nearest config up to the workspace root: biome's
 * `formatter.lineWidth` (or `javascript.formatter.lineWidth`), prettier's `printWidth` (`.prettierrc`,
 * `.prettierrc.json`, package.json's `prettier`), `.editorconfig`'s `max_line_length`; their 80 when a biome or
 * prettier config sets none. Nothing found: the organiser infers it from the file.
 */
async function scriptLineWidth(ctx: ToolContext, absolute: string): Promise<{ lineWidth?: number }> {
  const root = ctx.workspace.root;
  const read = (file: string) => fs.readFile(file, 'utf8').catch(() => undefined);
  const json = async (file: string) => {
    const text = await read(file);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(stripJsonComments(text)) as unknown;
    } catch {
      return undefined;
    }
  };
  const width = (value: unknown) =>
    typeof value === 'number' && value > 0 ? { lineWidth: value } : undefined;
  for (let dir = path.dirname(absolute); ; dir = path.dirname(dir)) {
    for (const name of ['biome.json', 'biome.jsonc']) {
      const config = await json(path.join(dir, name));
      if (config !== undefined)
        return (
          width(prop(config, 'javascript', 'formatter', 'lineWidth')) ??
          width(prop(config, 'formatter', 'lineWidth')) ?? { lineWidth: 80 }
        );
    }
    for (const name of ['.prettierrc', '.prettierrc.json']) {
      const config = await json(path.join(dir, name));
      if (config !== undefined) return width(prop(config, 'printWidth')) ?? { lineWidth: 80 };
    }
    const pkg = await json(path.join(dir, 'package.json'));
    const prettier = prop(pkg, 'prettier');
    if (typeof prettier === 'object' && prettier !== null)
      return width(prop(prettier, 'printWidth')) ?? { lineWidth: 80 };
    // The sections matching this file, `[*.ts]` as well as `[*]`.
    const editorconfig = await read(path.join(dir, '.editorconfig'));
    const relative = path.relative(dir, absolute).split(path.sep).join('/');
    const settings =
      editorconfig === undefined ? {} : editorConfigFor(parseEditorConfig(editorconfig), relative);
    const max = Number(settings.max_line_length);
    if (Number.isInteger(max) && max > 0) return { lineWidth: max };
    // Up to the workspace root, never past it.
    if (dir === root || !dir.startsWith(`${root}${path.sep}`)) return {};
  }
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
  const between = setting('lines-between-types')?.trim();
  assign('linesBetweenTypes', between && /^\d$/.test(between) ? Number(between) : undefined);
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
    const notes = p.notes.length > 0 ? `\n${p.notes.join('\n')}` : '';
    if (p.after === p.before) return ok(`${p.shown}: imports already organized${notes}`, { changed: false });
    // Unchanged since the preview: the file is written only as shown.
    if ((await fs.readFile(p.absolute, 'utf8')) !== p.before) return fail(`${p.shown} changed; try again`);
    await writeFilesAtomic([{ absolute: p.absolute, before: p.before, after: p.after }], ctx);
    const result = ok(
      `organized imports of ${p.shown}${notes}`,
      { changed: true },
      fileChangeDiff(p.shown, p.before, p.after),
    );
    return withNewErrors(ctx, [{ absolute: p.absolute, before: p.before, after: p.after }], result);
  },
});
