// detect_project_type: languages, package managers, build tools, frameworks, test frameworks and workspaces.
import * as z from 'zod';
import { detectProjectType, formatProjectType } from '../project/detect.js';
import { projectScanOf } from './project-scan-of.js';
import { defineTool, ok } from './tool.js';

const schema = z.strictObject({ path: z.string().default('.') });

export const detectProjectTypeTool = defineTool({
  name: 'detect_project_type',
  description: 'Languages, package managers, build/test tools, frameworks.',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    const root = await ctx.workspace.resolveForRead(args.path);
    return { reads: [root], writes: [], summary: `detect the project type of ${args.path}` };
  },
  async execute(args, ctx) {
    const scan = await projectScanOf(args.path, ctx);
    const type = await detectProjectType(scan);
    const summary =
      type.languages
        .map((l) => l.name)
        .slice(0, 3)
        .join(', ') || 'no languages recognised';
    return ok(formatProjectType(type, scan.truncated), { files: scan.files.length }, summary);
  },
});
