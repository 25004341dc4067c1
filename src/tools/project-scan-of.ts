// The project directory a project analysis tool was asked about, scanned; shared by the three init analyses.
import { promises as fs } from 'node:fs';
import { type ProjectScan, scanProject } from '../project/scan.js';
import { withFsErrors } from './fs-util.js';
import type { ToolContext } from './tool.js';

/** Throws (a result the model reads) when the path is missing, outside the workspace, or not a directory. */
export async function projectScanOf(requested: string, ctx: ToolContext): Promise<ProjectScan> {
  const root = await ctx.workspace.resolveForRead(requested);
  const shown = ctx.workspace.relative(root);
  const stat = await withFsErrors(shown, () => fs.stat(root), root);
  if (!stat.isDirectory()) throw new Error(`${shown} is not a directory; give the project's directory`);
  const { workspace } = ctx;
  return scanProject(root, ctx.signal, undefined, (absolute) => workspace.secretLink(absolute));
}
