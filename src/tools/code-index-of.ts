// The code index of a tool call's workspace, cached under Keel's cache dir; shared by the code intelligence tools.
import { type CodeIndex, loadCodeIndex } from '../code/code-index.js';
import type { ToolContext } from './tool.js';

export function codeIndexOf(ctx: ToolContext): Promise<CodeIndex> {
  return loadCodeIndex(ctx.workspace.root, {
    ...(ctx.cacheDir ? { cacheDir: ctx.cacheDir } : {}),
    signal: ctx.signal,
  });
}

/** A workspace-relative path with `/`, as the index keys files ('' for the root). */
export async function indexPath(ctx: ToolContext, requested: string): Promise<string> {
  const absolute = await ctx.workspace.resolveForRead(requested);
  const rel = ctx.workspace.relative(absolute);
  return rel === '.' ? '' : rel.split('\\').join('/');
}
