// get_project_overview: README opening, top-level layout, entry points and the key modules' signatures.
import * as z from 'zod';
import { formatOverview, projectOverview } from '../project/overview.js';
import { projectScanOf } from './project-scan-of.js';
import { defineTool, ok } from './tool.js';

const schema = z.strictObject({ path: z.string().default('.') });

/** Tokens of repo map in the overview: a glimpse of the key modules, not the whole map (get_codebase_map). */
export const OVERVIEW_MAP_TOKENS = 600;

export const getProjectOverviewTool = defineTool({
  name: 'get_project_overview',
  description: 'README summary, layout, entry points, key modules.',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    const root = await ctx.workspace.resolveForRead(args.path);
    return { reads: [root], writes: [], summary: `overview of ${args.path}` };
  },
  async execute(args, ctx) {
    const scan = await projectScanOf(args.path, ctx);
    const overview = await projectOverview(scan, {
      signal: ctx.signal,
      mapTokens: OVERVIEW_MAP_TOKENS,
      ...(ctx.cacheDir ? { cacheDir: ctx.cacheDir } : {}),
    });
    return ok(formatOverview(overview), { files: scan.files.length }, `${scan.files.length} files`);
  },
});
