// Where a command's words point: `~`, known variables, the directory after `cd`, and `..` and symbolic links
// resolved as the kernel does; whether a word is a path at all; and matching paths against the user's path globs.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { kernelPath } from '../real-path.js';
import { isInside } from '../workspace.js';

/** A word of a command as the analyser gives it. */
export interface Word {
  text: string;
  /** False when the word holds an expansion or substitution (its text is then the source, `$HOME/x`). */
  literal: boolean;
  /** True when it holds unquoted glob characters. */
  glob: boolean;
}

/** What the checker knows about the shell the command runs in. */
export interface ShellState {
  home: string;
  /** The working directory; undefined after a `cd` to a place the checker cannot know. */
  cwd: string | undefined;
  oldCwd: string | undefined;
  /**
   * The directory as bash's `cd` keeps it in $PWD (logical: `cd link` leaves `…/link`, not where it leads), from
   * which the next `cd` folds `..`; undefined: `cwd` (and `oldLogical`: `oldCwd`).
   */
  logical?: string | undefined;
  oldLogical?: string | undefined;
  env: NodeJS.ProcessEnv;
  /**
   * The last `cd` went to a directory that does not exist yet: it holds only for commands run after `&&` (the
   * cd worked); after `;` or `||` the cd may have failed and left the shell elsewhere.
   */
  tentative?: boolean;
  /** CDPATH may be set: `cd name` may go to a folder of its list instead of `./name`. */
  cdpath?: boolean;
}

/** Variables expanded when a word is checked; any other expansion leaves the word unknown. */
const ENV_VARIABLES = ['USER', 'LOGNAME', 'TMPDIR'];

/** The word with known variables expanded, or undefined when its value cannot be known before it runs. */
export function expandWord(word: Word, shell: ShellState): string | undefined {
  if (word.literal) return word.text;
  const known: Record<string, string | undefined> = {
    HOME: shell.home,
    // As bash keeps them: logical (`cd link` leaves `…/link`).
    PWD: shell.logical ?? shell.cwd,
    OLDPWD: shell.oldLogical ?? shell.oldCwd,
  };
  for (const name of ENV_VARIABLES) known[name] = shell.env[name];
  const expanded = word.text.replace(
    /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (match, braced: string | undefined, plain: string | undefined) => known[braced ?? plain ?? ''] ?? match,
  );
  return /[$`]|<\(|>\(/.test(expanded) ? undefined : expanded;
}

/** `~`, `~/x`, `~user/x` (a sibling of the home directory, or /root), `~+` and `~-`. */
export function expandTilde(text: string, shell: ShellState): string {
  // `~ fix` (a commit message) is no user's home: only user-name characters follow the tilde.
  const match = /^~([A-Za-z0-9._+-]*)(\/.*)?$/s.exec(text);
  if (!match) return text;
  const [, user = '', rest = ''] = match;
  let base: string | undefined;
  if (user === '') base = shell.home;
  else if (user === '+') base = shell.logical ?? shell.cwd;
  else if (user === '-') base = shell.oldLogical ?? shell.oldCwd;
  else if (user === 'root') base = '/root';
  else base = path.join(path.dirname(shell.home), user);
  return base === undefined ? text : `${base}${rest}`;
}

/** The directory part of a glob that holds no glob characters: `src/*.ts` → `src`, `*` → `.`. */
export function globBase(text: string): string {
  const base = picomatch.scan(text).base;
  return base === '' ? (text.startsWith('/') ? '/' : '.') : base;
}

/** An absolute path, without symlinks resolved; undefined for a relative path when the directory is unknown. */
export function absolutePath(text: string, shell: ShellState): string | undefined {
  const expanded = expandTilde(text, shell);
  if (path.isAbsolute(expanded)) return path.normalize(expanded);
  return shell.cwd === undefined ? undefined : path.resolve(shell.cwd, expanded);
}

export type Resolved = { lexical: string; real: string } | { lexical: string; problem: string };

/**
 * Where the word's path leads, resolved as the kernel does from the shell's directory (real-path.ts): each link
 * followed before the next `..`; a link that leads nowhere is followed as far as it goes. Undefined for a
 * relative path when the directory is unknown.
 */
export async function resolveWord(text: string, shell: ShellState): Promise<Resolved | undefined> {
  const expanded = expandTilde(text, shell);
  const lexical = absolutePath(expanded, shell);
  if (lexical === undefined) return undefined;
  return resolveFrom(shell.cwd ?? '/', expanded, lexical);
}

async function resolveFrom(from: string, text: string, lexical: string): Promise<Resolved> {
  try {
    const { real } = await kernelPath(from, text, (detail) => {
      throw new Error(detail);
    });
    return { lexical, real };
  } catch (error) {
    return { lexical, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** An absolute path with every symbolic link followed as the kernel does (loops are a problem). */
export const resolvePath = (absolute: string): Promise<Resolved> => resolveFrom('/', absolute, absolute);

const exists = (p: string): Promise<boolean> =>
  fs.lstat(p).then(
    () => true,
    () => false,
  );

/**
 * Whether an argument names a file, decided conservatively against false refusals: `/x` whose top directory
 * exists, `~...`, `.x`, anything with a `/`, or a word naming an existing entry of the directory. URLs,
 * `host:path`, `HEAD:file`, `HEAD~1` and words that name nothing are not paths.
 */
export async function isPathWord(text: string, shell: ShellState): Promise<boolean> {
  if (text === '' || text === '-' || /[\n\0]/.test(text)) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return false;
  if (/^[^/~.][^/]*:/.test(text)) return false;
  if (/^~[A-Za-z0-9._+-]*(\/|$)/.test(text) || text.startsWith('.')) return true;
  if (text.startsWith('/')) return text === '/' || exists(`/${text.split('/')[1] ?? ''}`);
  if (text.includes('/')) return true;
  return shell.cwd !== undefined && exists(path.join(shell.cwd, text));
}

/** A user glob (`/tmp/**`, `~/data/*.csv`) made absolute, with its fixed directory's symlinks followed. */
export async function realGlob(glob: string, home: string): Promise<string> {
  const expanded = glob.startsWith('~') ? path.join(home, glob.slice(1)) : glob;
  const { base, glob: rest } = picomatch.scan(expanded);
  const fixed = base === '' ? '/' : base;
  const real = await resolvePath(fixed);
  const root = 'real' in real ? real.real : fixed;
  return rest === '' ? root : path.posix.join(root, rest);
}

/** The first glob that matches the path (a glob `dir/**` matches `dir` itself too). */
export function matchingGlob(target: string, globs: readonly string[]): string | undefined {
  return globs.find((glob) => picomatch(glob, { dot: true })(target) || glob === target);
}

/** True when `target` is `dir` or below it. */
export const within = (dir: string, target: string): boolean => isInside(dir, target);
