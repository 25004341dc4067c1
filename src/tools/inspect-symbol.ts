// inspect_symbol: a symbol's definitions with signature, doc comment and place, and how often it is used.
import { z } from 'zod';
import { definitionsOf, findProjectReferences } from '../code/references.js';
import { codeIndexOf, indexPath } from './code-index-of.js';
import { defineTool, fail, ok } from './tool.js';

const schema = z.object({
  name: z.string().min(1).describe('symbol, or Class.member'),
  path: z.string().optional().describe('file defining it'),
});

export const inspectSymbolTool = defineTool({
  name: 'inspect_symbol',
  description: 'Show where a symbol is defined: signature, doc comment, location, callers count.',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    return { reads: [ctx.workspace.root], writes: [], summary: `inspect ${args.name}` };
  },
  async execute(args, ctx) {
    const index = await codeIndexOf(ctx);
    const file = args.path === undefined ? undefined : await indexPath(ctx, args.path);
    const [container, member] = args.name.includes('.') ? args.name.split('.', 2) : [undefined, args.name];
    const defs = definitionsOf(index, member!, file).filter(
      (d) => !container || d.def.container === container,
    );
    if (defs.length === 0)
      return fail(`no definition of ${args.name}${file ? ` in ${file}` : ''}; try search_code`);
    const refs = await findProjectReferences(
      index,
      member!,
      defs.length === 1 ? defs[0]!.path : file,
      ctx.signal,
    );
    const uses = refs.flatMap((r) => r.occurrences.filter((o) => !o.definition));
    const files = refs.filter((r) => r.occurrences.some((o) => !o.definition)).length;
    const blocks = defs.slice(0, 10).map(({ path, def }) => {
      const owner = def.container ? ` (in ${def.container})` : '';
      const lines = [
        `${def.kind} ${def.name}${owner} at ${path}:${def.line}-${def.endLine}`,
        `  ${def.signature}`,
      ];
      if (def.doc) lines.push(`  doc: ${def.doc}`);
      lines.push(`  ${def.exported ? 'exported' : 'not exported'}`);
      return lines.join('\n');
    });
    if (defs.length > 10) blocks.push(`[${defs.length - 10} more definitions]`);
    blocks.push(`references: ${uses.length} in ${files} files (find_references lists them)`);
    return ok(
      blocks.join('\n'),
      { definitions: defs.length, references: uses.length },
      `${args.name}: ${defs.length} definitions, ${uses.length} references`,
    );
  },
});
