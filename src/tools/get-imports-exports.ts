// get_imports_exports: what a file imports (resolved to repository files where possible) and what it exports.
import { z } from 'zod';
import { goModule } from '../code/go-module.js';
import { ImportResolver } from '../code/module-graph.js';
import { codeIndexOf, indexPath } from './code-index-of.js';
import { defineTool, fail, ok, readPreview } from './tool.js';

const schema = z.object({ path: z.string() });

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
    const resolver = new ImportResolver(index, await goModule(ctx.workspace.root));
    const lines = [`imports (${tags.imports.filter((i) => !i.reexport).length}):`];
    const reexports: string[] = [];
    for (const imp of tags.imports) {
      const target = resolver.resolve(file, imp, tags.language);
      const where = target.length > 0 ? ` → ${target.join(', ')}` : '';
      const names = imp.names.length > 0 ? ` {${imp.names.join(', ')}}` : '';
      const line = `  ${imp.line}: ${imp.module}${names}${where}`;
      if (imp.reexport) reexports.push(line);
      else lines.push(line);
    }
    const exported = tags.definitions.filter((d) => d.exported && !d.container);
    lines.push(`exports (${exported.length + reexports.length}):`);
    for (const def of exported) lines.push(`  ${def.line}: ${def.kind} ${def.name}`);
    if (reexports.length > 0) lines.push('  re-exports:', ...reexports.map((l) => `  ${l}`));
    return ok(
      lines.join('\n'),
      { imports: tags.imports.length, exports: exported.length },
      `${file}: ${tags.imports.length} imports, ${exported.length} exports`,
    );
  },
});
