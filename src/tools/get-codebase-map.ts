// get_codebase_map: the repository's signatures, its core first (entry points, what the project depends on), within
// a token budget; the ranking graph is cached between runs.
import * as z from 'zod';
import { loadRepoMap } from '../code/map-cache.js';
import { defineTool, ok } from './tool.js';

const schema = z.strictObject({
  max_tokens: z.number().int().min(100).max(50_000).default(2000),
  focus: z.string().optional().describe('files or symbols to favour'),
});

export const getCodebaseMapTool = defineTool({
  name: 'get_codebase_map',
  description: 'Map of the repo: signatures of its core files first.',
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
    const mentions = [args.focus ?? '', ctx.conversationText?.() ?? ''].join('\n');
    const { map, parsed, scanned } = await loadRepoMap(
      ctx.workspace.root,
      {
        ...(ctx.cacheDir ? { cacheDir: ctx.cacheDir } : {}),
        signal: ctx.signal,
        secretLink: (absolute) => ctx.workspace.secretLink(absolute),
      },
      args.max_tokens,
      mentions,
    );
    // Ranked from a scan: the order may differ a little from a parse's; the signatures shown are parsed.
    const note =
      scanned > 0 ? `\n(ranked from a quick scan of ${scanned} files; signatures shown are parsed)` : '';
    const text = map.total === 0 ? '(no source files in a language the map reads)' : map.text + note;
    const summary = `mapped ${map.shown} of ${map.total} files with definitions (${parsed} parsed${scanned ? `, ${scanned} scanned` : ''})`;
    return ok(text, { files: map.total, shown: map.shown, parsed, scanned }, summary);
  },
});
