// search_code: fuzzy search over the repository's definitions (functions, classes, types, methods…).
import { z } from 'zod';
import { fuzzyScore } from '../code/fuzzy.js';
import { SYMBOL_KINDS, type SymbolKind } from '../code/languages.js';
import { codeIndexOf } from './code-index-of.js';
import { defineTool, ok } from './tool.js';

const schema = z.object({
  query: z.string().min(1),
  kind: z.enum(SYMBOL_KINDS as [SymbolKind, ...SymbolKind[]]).optional(),
});

const MAX_RESULTS = 40;

export const searchCodeTool = defineTool({
  name: 'search_code',
  description: 'Fuzzy-find symbol definitions by name, optionally of one kind.',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    return { reads: [ctx.workspace.root], writes: [], summary: `search symbols for ${args.query}` };
  },
  async execute(args, ctx) {
    const index = await codeIndexOf(ctx);
    const hits = [];
    for (const [path, tags] of index.files) {
      for (const def of tags.definitions) {
        if (args.kind && def.kind !== args.kind) continue;
        const score = fuzzyScore(args.query, def.name);
        if (score > 0) hits.push({ path, def, score });
      }
    }
    hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path) || a.def.line - b.def.line);
    const lines = hits
      .slice(0, MAX_RESULTS)
      .map(
        ({ path, def }) =>
          `${path}:${def.line} ${def.kind} ${def.container ? `${def.container}.` : ''}${def.name}: ${def.signature}`,
      );
    if (hits.length > MAX_RESULTS)
      lines.push(`[${hits.length - MAX_RESULTS} more matches; refine the query]`);
    if (lines.length === 0) lines.push(`(no ${args.kind ?? 'symbol'} matches ${args.query})`);
    return ok(lines.join('\n'), { matches: hits.length }, `${hits.length} symbols match ${args.query}`);
  },
});
