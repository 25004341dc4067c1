// get_imports_exports: what a file imports (resolved to repository files where possible) and what it exports.
import * as z from 'zod';
import { goModule } from '../code/go-module.js';
import type { Import, ImportedName } from '../code/imports.js';
import { ImportResolver } from '../code/module-graph.js';
import { codeIndexOf, indexPath } from './code-index-of.js';
import { defineTool, fail, ok, readPreview } from './tool.js';

const schema = z.strictObject({ path: z.string() });

const named = (b: ImportedName) => (b.alias ? `${b.name} as ${b.alias}` : b.name);

/** An import as written: `./a {default as ky, b as c}`, `os.path as osp`, `* as ns`. */
export function describeImport(imp: Import): string {
  const alias = imp.alias && !imp.bindings.some((b) => b.alias === imp.alias) ? ` as ${imp.alias}` : '';
  const names = imp.bindings.length > 0 ? ` {${imp.bindings.map(named).join(', ')}}` : '';
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
    const defaults = new Set((tags.exports ?? []).filter((e) => e.alias === 'default').map((e) => e.name));
    const exported = tags.definitions.filter((d) => d.exported && !d.container);
    const own = (tags.exports ?? []).filter(
      (e) => !exported.some((d) => d.name === e.name && e.alias === 'default'),
    );
    lines.push(`exports (${exported.length + own.length + reexports.length}):`);
    for (const def of exported)
      lines.push(`  ${def.line}: ${defaults.has(def.name) ? 'default ' : ''}${def.kind} ${def.name}`);
    for (const e of own) lines.push(`  ${e.line}: ${e.alias === 'default' ? `default ${e.name}` : named(e)}`);
    if (reexports.length > 0) lines.push('  re-exports:', ...reexports.map((l) => `  ${l}`));
    return ok(
      lines.join('\n'),
      { imports: tags.imports.length, exports: exported.length + own.length },
      `${file}: ${tags.imports.length} imports, ${exported.length} exports`,
    );
  },
});
