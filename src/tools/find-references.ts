// find_references: where a symbol is used, from the syntax tree (code only, shadowing locals left out).
import { z } from 'zod';
import { findProjectReferences } from '../code/references.js';
import { codeIndexOf, indexPath } from './code-index-of.js';
import { defineTool, ok } from './tool.js';

const schema = z.object({
  name: z.string().min(1),
  path: z.string().optional().describe('file defining it'),
});

const MAX_LINES = 200;

export const findReferencesTool = defineTool({
  name: 'find_references',
  description: 'Find references to a symbol: code only, not strings or comments or shadowing locals.',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    return { reads: [ctx.workspace.root], writes: [], summary: `find references to ${args.name}` };
  },
  async execute(args, ctx) {
    const index = await codeIndexOf(ctx);
    const definedIn = args.path === undefined ? undefined : await indexPath(ctx, args.path);
    const files = await findProjectReferences(index, args.name, definedIn, ctx.signal);
    const lines: string[] = [];
    let count = 0;
    let shadowed = 0;
    for (const file of files) {
      shadowed += file.shadowed;
      const text = file.source.split('\n');
      for (const o of file.occurrences) {
        count += 1;
        if (lines.length < MAX_LINES) {
          const kind = o.definition ? ' (definition)' : '';
          lines.push(`${file.path}:${o.line}:${o.column}${kind}: ${text[o.line - 1]!.trim().slice(0, 160)}`);
        }
      }
    }
    if (count > MAX_LINES) lines.push(`[${count - MAX_LINES} more references not shown]`);
    if (count === 0) lines.push(`(no references to ${args.name} in code)`);
    if (shadowed > 0) lines.push(`(${shadowed} uses of local bindings that shadow ${args.name} left out)`);
    return ok(
      lines.join('\n'),
      { references: count, files: files.length, shadowed },
      `${count} references to ${args.name}`,
    );
  },
});
