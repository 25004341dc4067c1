// Context files: the project's instructions for agents (AGENTS.md and its older names) found from the repository
// root down to the workspace, plus the user's own, read once at start-up and sent with the system prompt.
import { constants, open, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type ReadJail, skippedWarning } from '../safety/read-jail.js';

/** In each directory the first of these that exists is read: AGENTS.md is the cross-tool convention. */
export const contextFileNames = ['AGENTS.md', 'AGENT.md', 'CRAFT.md', 'CLAUDE.md'] as const;

export interface ContextFile {
  /** Absolute path, named in the prompt. */
  path: string;
  content: string;
  /** The file's size in bytes when only part of it is in `content`. */
  cutFrom?: number;
}

export interface ContextLimits {
  /** Bytes of all context files together. */
  totalBytes: number;
  /** Bytes of any one file. */
  fileBytes: number;
}

/** Every request pays for them again, so they are capped: 32 KB in all, 16 KB a file. */
export const defaultContextLimits: ContextLimits = { totalBytes: 32 * 1024, fileBytes: 16 * 1024 };

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() === true;
}

/**
 * The directories searched, outermost first: from the repository root (the nearest ancestor holding `.git`, the
 * workspace included) down to the workspace; only the workspace when it is in no repository.
 */
export async function contextDirectories(workspace: string): Promise<string[]> {
  const dirs = [workspace];
  for (let dir = workspace; ; ) {
    if ((await stat(join(dir, '.git')).catch(() => undefined)) !== undefined) return dirs.reverse();
    const parent = dirname(dir);
    if (parent === dir) return [workspace];
    dir = parent;
    dirs.push(dir);
  }
}

/** The first context file name present in `dir`, looked up together (a handful of stat calls). */
async function contextFileIn(dir: string): Promise<string | undefined> {
  const paths = contextFileNames.map((name) => join(dir, name));
  const present = await Promise.all(paths.map(isFile));
  return paths[present.indexOf(true)];
}

/** At most `maxBytes` of the file, cut on a character boundary; reads no more than that of a large file. */
async function readCapped(path: string, maxBytes: number, real = path): Promise<ContextFile | undefined> {
  // The checked real path, opened without following a link swapped in since the check.
  const flags = real === path ? constants.O_RDONLY : constants.O_RDONLY | constants.O_NOFOLLOW;
  const handle = await open(real, flags).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, maxBytes));
    const { bytesRead } =
      buffer.length > 0 ? await handle.read(buffer, 0, buffer.length, 0) : { bytesRead: 0 };
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    if (size <= maxBytes) return { path, content: text };
    // A character split by the cut decodes as U+FFFD: dropped.
    return { path, content: text.replace(/\uFFFD+$/, ''), cutFrom: size };
  } finally {
    await handle.close();
  }
}

/**
 * The context files in prompt order: the user's file, then the repository root's down to the workspace's, so
 * the one nearest the work comes last and wins. The budget goes to the nearest first.
 */
export async function findContextFiles(options: {
  workspace: string;
  /** The user-level file (`~/.config/keel/AGENTS.md`). */
  userFile: string;
  limits?: ContextLimits;
  /**
   * The project's files must resolve inside the workspace (the file in it) or the repository root (a file in a
   * folder above it), and be neither linked into a secret nor a hard link to one; one that is not is skipped with a
   * warning. The user's own file is exempt.
   */
  jail?: ReadJail;
  warn?: (message: string) => void;
}): Promise<ContextFile[]> {
  const limits = options.limits ?? defaultContextLimits;
  const dirs = await contextDirectories(options.workspace);
  const repositoryRoot = dirs[0] ?? options.workspace;
  const found = await Promise.all([
    isFile(options.userFile).then((yes) => (yes ? options.userFile : undefined)),
    ...dirs.map(contextFileIn),
  ]);
  const paths = found.filter((path): path is string => path !== undefined);
  const files: ContextFile[] = [];
  let left = limits.totalBytes;
  for (const path of paths.reverse()) {
    let real = path;
    if (options.jail && path !== options.userFile) {
      // The workspace's own file stays in the workspace: a home that is a dotfiles repository is no root for it.
      const root = dirname(path) === resolve(options.workspace) ? options.workspace : repositoryRoot;
      const checked = await options.jail.check(path, root);
      if ('refused' in checked) {
        options.warn?.(skippedWarning('context file', path, checked.refused));
        continue;
      }
      real = checked.real;
    }
    // Once the budget is spent a file is still named, with nothing of it shown.
    const file = await readCapped(path, Math.min(limits.fileBytes, left), real);
    if (file === undefined) continue; // vanished or unreadable since the stat: nothing to say about it
    left -= Buffer.byteLength(file.content);
    files.push(file);
  }
  return files.reverse();
}

/** The context files as a section of the system prompt, each under a header naming its path. */
export function contextSection(files: readonly ContextFile[]): string {
  const parts = files.map((file) => {
    const body = file.content.trimEnd();
    const note =
      file.cutFrom === undefined
        ? ''
        : `${body ? '\n' : ''}[cut: ${Buffer.byteLength(file.content)} of ${file.cutFrom} bytes shown]`;
    return `## ${file.path}\n${body}${note}`;
  });
  return [
    '# Context files',
    'Instructions from the user and the project, outermost first; where they disagree, the later one wins.',
    ...parts,
  ].join('\n\n');
}
