// The code index of a tool call's workspace, cached under Keel's cache dir; shared by the code intelligence tools.
// Within a process the last index of each workspace is kept with the listing it was made from: a later call whose
// tree has not changed (no directory's mtime, no file's mtime or size) gets it back after stats alone, where
// loading it again walked the tree, matched every path against .gitignore and read the cache (1.3 s on babel).
import { type CodeIndex, loadCodeIndex } from '../code/code-index.js';
import { cachedListing, type Listing, listedOf, walkListing } from '../code/map-listing.js';
import type { ToolContext } from './tool.js';

interface Kept {
  listing: Listing;
  index: CodeIndex;
}

/** How many workspaces' indexes a process keeps. */
const MAX_KEPT = 2;

/** Per workspace root and cache dir: the last index and its listing; a load in flight is shared. */
const kept = new Map<string, Kept>();
const loading = new Map<string, Promise<CodeIndex>>();

export function codeIndexOf(ctx: ToolContext): Promise<CodeIndex> {
  const root = ctx.workspace.root;
  const key = `${root}\0${ctx.cacheDir ?? ''}`;
  const inFlight = loading.get(key);
  if (inFlight) return inFlight;
  const load = freshIndex(root, key, ctx).finally(() => loading.delete(key));
  loading.set(key, load);
  return load;
}

async function freshIndex(root: string, key: string, ctx: ToolContext): Promise<CodeIndex> {
  const last = kept.get(key);
  const same = last
    ? cachedListing(root, last.listing.paths, last.listing.dirs, last.listing.dirTimes, last.listing.ignores)
    : undefined;
  if (last && same && same.fingerprint === last.listing.fingerprint) return last.index;
  // A directory changed (a file added, removed or renamed): walked again. Else the same files, some changed.
  const listing = same ?? (await walkListing(root, ctx.signal));
  const index = await loadCodeIndex(root, {
    ...(ctx.cacheDir ? { cacheDir: ctx.cacheDir } : {}),
    signal: ctx.signal,
    listed: listedOf(listing),
    secretLink: (absolute) => ctx.workspace.secretLink(absolute),
  });
  // The last few workspaces' (sub-agents' worktrees are workspaces of their own): a big one's index is large.
  kept.delete(key);
  kept.set(key, { listing, index });
  while (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
  return index;
}

/** A workspace-relative path with `/`, as the index keys files ('' for the root). */
export async function indexPath(ctx: ToolContext, requested: string): Promise<string> {
  const absolute = await ctx.workspace.resolveForRead(requested);
  const rel = ctx.workspace.pathOf(absolute);
  return rel === '.' ? '' : rel.split('\\').join('/');
}
