// get_imports_exports: what a file imports (resolved to repository files where possible) and what it exports.
import { promises as fs } from 'node:fs';
import * as z from 'zod';
import { parseSource } from '../code/ast-grep.js';
import { goModule } from '../code/go-module.js';
import type { Import, ImportedName } from '../code/imports.js';
import { languageOf } from '../code/languages.js';
import { ImportResolver } from '../code/module-graph.js';
import { allEntries, stringValue } from '../code/python-names.js';
import type { FileTags } from '../code/tags.js';
import { codeIndexOf, indexPath } from './code-index-of.js';
import { defineTool, fail, ok, readPreview, type ToolContext } from './tool.js';

const schema = z.strictObject({ path: z.string() });

const named = (b: ImportedName) => (b.alias ? `${b.name} as ${b.alias}` : b.name);
/** A name, `type` before it when it is for the type checker only (`export { type A }`). */
const typed = (b: ImportedName) => `${b.typeOnly ? 'type ' : ''}${named(b)}`;

/** An import as written: `./a {default as ky, b as c}`, `os.path as osp`, `* as ns`, `./t {type T, v}`, `type ./t {T}`. */
export function describeImport(imp: Import): string {
  const alias = imp.alias && !imp.bindings.some((b) => b.alias === imp.alias) ? ` as ${imp.alias}` : '';
  // A whole `import type` says so once, before the module; otherwise each type-only name says so.
  const names =
    imp.bindings.length > 0 ? ` {${imp.bindings.map(imp.typeOnly ? named : typed).join(', ')}}` : '';
  return `${imp.typeOnly ? 'type ' : ''}${imp.module}${alias}${names}`;
}

export const getImportsExportsTool = defineTool({
  name: 'get_imports_exports',
  description: "List a source file's imports (resolved to files) and exports.",
  schema,
  safety: 'safe',
  preview: (args, ctx) => readPreview(ctx, args.path, (shown) => `imports and exports of ${shown}`),
  async execute(args, ctx) {
    const file = await indexPath(ctx, args.path);
    const index = await codeIndexOf(ctx);
    const tags = index.files.get(file);
    if (!tags) return fail(`${file || '.'} is not a source file in a language code intelligence reads`);
    const resolver = new ImportResolver(
      index,
      index.project?.goModule ?? (await goModule(ctx.workspace.root)),
    );
    const lines = [`imports (${tags.imports.filter((i) => !i.reexport).length}):`];
    const reexports: string[] = [];
    for (const imp of tags.imports) {
      const target = resolver.resolve(file, imp, tags.language);
      const line = `  ${imp.line}: ${describeImport(imp)}${target.length > 0 ? ` → ${target.join(', ')}` : ''}`;
      if (imp.reexport) reexports.push(line);
      else lines.push(line);
    }
    // A Python module that lists `__all__` exports those names, defined here or imported (a package's API).
    const all = tags.language === 'python' ? await pythonAll(ctx, file) : undefined;
    const listed = all?.names ?? [];
    if (all && listed.length > 0) {
      lines.push(`exports (${listed.length}, from __all__):`);
      for (const name of listed) lines.push(`  ${pythonExport(tags, all, name)}`);
      return ok(
        lines.join('\n'),
        { imports: tags.imports.length, exports: listed.length },
        `${file}: ${tags.imports.length} imports, ${listed.length} exports`,
      );
    }
    const defaults = new Set((tags.exports ?? []).filter((e) => e.alias === 'default').map((e) => e.name));
    const exported = tags.definitions.filter((d) => d.exported && !d.container);
    const own = (tags.exports ?? []).filter(
      (e) => !exported.some((d) => d.name === e.name && e.alias === 'default'),
    );
    lines.push(`exports (${exported.length + own.length + reexports.length}):`);
    for (const def of exported)
      lines.push(`  ${def.line}: ${defaults.has(def.name) ? 'default ' : ''}${def.kind} ${def.name}`);
    for (const e of own) lines.push(`  ${e.line}: ${e.alias === 'default' ? `default ${e.name}` : typed(e)}`);
    if (reexports.length > 0) lines.push('  re-exports:', ...reexports.map((l) => `  ${l}`));
    return ok(
      lines.join('\n'),
      { imports: tags.imports.length, exports: exported.length + own.length },
      `${file}: ${tags.imports.length} imports, ${exported.length} exports`,
    );
  },
});

/** A Python module's `__all__`: its names in order, and the lines of the module's assignments to each name. */
interface PythonAll {
  names: string[];
  /** Every name a top-level assignment binds, a chained one's too (`s = attributes = attrs`). */
  assigned: Map<string, number>;
}

/** A Python module's `__all__`; no names when it has none (or the file cannot be read). */
async function pythonAll(ctx: ToolContext, file: string): Promise<PythonAll> {
  const none = { names: [], assigned: new Map<string, number>() };
  const lang = languageOf(file);
  if (!lang) return none;
  try {
    const text = await fs.readFile(await ctx.workspace.resolveForRead(file), 'utf8');
    if (!text.includes('__all__')) return none;
    const root = parseSource(lang, text);
    const names = allEntries(root)
      .map(stringValue)
      .filter((n) => n !== undefined);
    const assigned = new Map<string, number>();
    for (const statement of root.children()) {
      let assignment = statement.kind() === 'expression_statement' ? statement.namedChildren()[0] : undefined;
      while (assignment?.kind() === 'assignment') {
        const left = assignment.field('left');
        if (left?.kind() === 'identifier' && !assigned.has(left.text()))
          assigned.set(left.text(), left.range().start.line + 1);
        assignment = assignment.field('right') ?? undefined;
      }
    }
    return { names: [...new Set(names)], assigned };
  } catch {
    return none;
  }
}

/** What Python gives every module, defined or not. */
const MODULE_ATTRIBUTES = new Set([
  '__doc__',
  '__name__',
  '__file__',
  '__package__',
  '__spec__',
  '__loader__',
  '__path__',
  '__dict__',
  '__builtins__',
]);

/** One `__all__` name: where the module defines it, or the import that binds it, or that it does neither. */
function pythonExport(tags: FileTags, all: PythonAll, name: string): string {
  const def = tags.definitions.find((d) => d.name === name && !d.container);
  if (def) return `${def.line}: ${def.kind} ${name}`;
  const line = all.assigned.get(name);
  if (line !== undefined) return `${line}: variable ${name}`;
  for (const imp of tags.imports) {
    const binding = imp.bindings.find((b) => (b.alias ?? b.name) === name);
    if (binding) return `${imp.line}: ${named(binding)} (from ${imp.module})`;
    if (imp.alias === name || (imp.bindings.length === 0 && imp.module === name))
      return `${imp.line}: import ${imp.module}${imp.alias ? ` as ${imp.alias}` : ''}`;
  }
  // A module's own attributes (__doc__: its docstring, __name__, __file__, …) are there without a definition.
  if (MODULE_ATTRIBUTES.has(name)) return `${name} (listed in __all__; an attribute every module has)`;
  const lazy = all.assigned.has('__getattr__') || tags.definitions.some((d) => d.name === '__getattr__');
  return `${name} (listed in __all__; ${lazy ? "the module's __getattr__ gives it" : 'neither defined nor imported here'})`;
}
