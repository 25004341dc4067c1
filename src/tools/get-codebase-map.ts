// get_codebase_map: the repository's signatures, most referenced files first (PageRank), within a token budget.
import { z } from 'zod';
import { buildRepoMap } from '../code/repo-map.js';
import { codeIndexOf } from './code-index-of.js';
import { defineTool, ok } from './tool.js';

const schema = z.object({
  max_tokens: z.number().int().min(100).max(50_000).default(2000),
  focus: z.string().optional().describe('files or symbols to favour'),
});

export const getCodebaseMapTool = defineTool({
  name: 'get_codebase_map',
  description: 'Map of the repo: signatures of its most important files, ranked by references.',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    return {
      reads: [ctx.workspace.root],
      writes: [],
      summary: `map the codebase (${args.max_tokens} tokens)`,
    };
  },
  async execute(args, ctx) {
    const index = await codeIndexOf(ctx);
    const mentions = [args.focus ?? '', ctx.conversationText?.() ?? ''].join('\n');
    const map = buildRepoMap(index, args.max_tokens, mentions);
    const text = map.total === 0 ? '(no source files in a language the map reads)' : map.text;
    const summary = `mapped ${map.shown} of ${map.total} files (${index.stats.parsed} parsed)`;
    return ok(text, { files: map.total, shown: map.shown, parsed: index.stats.parsed }, summary);
  },
});
