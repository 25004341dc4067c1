// The workspace path jail: every path a tool touches resolves inside the workspace root,
// resolved as the kernel resolves it (real-path.ts: each link followed before the next `..`), and is no hard link
// to a secret file.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ExitCode, KeelError, UsageError } from '../core/errors.js';
import { listedPath, shownPath } from '../core/shown-path.js';
import { kernelPath } from './real-path.js';

export interface Workspace {
  /** Absolute, symlink-free path of the workspace root. */
  readonly root: string;
  /**
   * Resolves a model-supplied path (relative to the root, or absolute inside it) to an absolute
   * path inside the workspace, following symlinks of every existing component.
   * Throws PathEscapeError when the path or a link on it leads outside.
   */
  resolve(path: string): Promise<string>;
  /**
   * As resolve, for a path that is only read: an absolute path inside one of the workspace's read-only roots
   * (where Keel saves tool output too large for one result) is allowed too.
   */
  resolveForRead(path: string): Promise<string>;
  /**
   * The path relative to the root, for display ("." for the root itself): a name holding a control character (a line
   * break) quoted with escapes, as every listing shows it (core/shown-path.ts); resolve takes that form back.
   */
  relative(absolute: string): string;
  /** The path relative to the root as it is ("." for the root itself): for keys and lookups, never shown. */
  pathOf(absolute: string): string;
  /**
   * The secret file that the file at `absolute` is a hard link to (`~/.ssh/id_rsa`), or undefined: for a search,
   * whose files were found under a path that `resolve` checked, never each one named.
   */
  secretLink(absolute: string): string | undefined;
  /**
   * secretLink for the many files of one search, from the secrets as they are now; undefined when no secret file has
   * another name at all, so none of them can be one and no file needs a stat.
   */
  secretLinkSearch(): ((absolute: string) => string | undefined) | undefined;
}

/** The secret file (as shown) that a file is another name of (a hard link), or undefined: secret-links.ts. */
export type SecretLinkOf = ((absolute: string) => string | undefined) & {
  /** The check for one search: undefined when no secret has a second name now (secret-links.ts). */
  search?: () => ((absolute: string) => string | undefined) | undefined;
};

/** A path that leads outside the workspace (or cannot be checked). Names the path, never file content. */
export class PathEscapeError extends KeelError {
  readonly requestedPath: string;

  constructor(requested: string, root: string, detail?: string, message?: string) {
    const why = detail ? ` (${detail})` : '';
    super(
      'path_escape',
      ExitCode.failed,
      message ??
        `path ${JSON.stringify(requested)} is outside the workspace ${root}${why}; use a path inside the workspace`,
    );
    this.name = 'PathEscapeError';
    this.requestedPath = requested;
  }
}

/** A path that is a hard link to a secret file: its content is the secret's, whatever its name. */
export class SecretLinkError extends PathEscapeError {
  readonly secret: string;

  constructor(requested: string, root: string, secret: string) {
    super(
      requested,
      root,
      undefined,
      `path ${JSON.stringify(requested)} is a hard link to the secret file ${secret}, which is protected: tools never read or change it`,
    );
    this.secret = secret;
  }
}

/** True when `candidate` is `root` or below it. path.relative, not startsWith: /a/work2 is not in /a/work. */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * The real path of `target` (absolute), resolved as the kernel does (real-path.ts), with a missing rest
 * re-appended. A link that leads nowhere (dangling) is refused: writing through it would land wherever it points.
 */
export async function realpathDeepest(target: string, fail: (detail: string) => never): Promise<string> {
  return realpathFrom('/', target, fail);
}

/** As realpathDeepest, for `requested` relative to the absolute directory `from` (or absolute). */
async function realpathFrom(
  from: string,
  requested: string,
  fail: (detail: string) => never,
): Promise<string> {
  const { real, dangling } = await kernelPath(from, requested, fail);
  if (dangling) fail('dangling symbolic link');
  return real;
}

/**
 * The path a listing's quoted form (`"a\nb"`) stands for, unless a file is named with those very characters: the
 * model gives back a path as a listing showed it.
 */
export async function unlisted(root: string, requested: string): Promise<string> {
  const listed = listedPath(requested);
  if (listed === undefined) return requested;
  const literal = await fs.lstat(path.resolve(root, requested)).catch(() => undefined);
  return literal ? requested : listed;
}

class JailedWorkspace implements Workspace {
  constructor(
    readonly root: string,
    private readonly readOnlyRoots: readonly string[],
    /** Real paths of Keel's own directories inside the workspace (when it holds the home directory). */
    private readonly keelRoots: readonly string[] = [],
    private readonly secretLinkOf?: SecretLinkOf,
  ) {}

  secretLink(absolute: string): string | undefined {
    return this.secretLinkOf?.(absolute);
  }

  secretLinkSearch(): ((absolute: string) => string | undefined) | undefined {
    const of = this.secretLinkOf;
    if (of === undefined) return undefined;
    return of.search ? of.search() : of;
  }

  /** `real` unless it is a hard link to a secret file. */
  private notSecret(requested: string, real: string): string {
    const secret = this.secretLink(real);
    if (secret !== undefined) throw new SecretLinkError(requested, this.root, secret);
    return real;
  }

  async resolveForRead(requested: string): Promise<string> {
    try {
      return await this.resolve(requested);
    } catch (error) {
      if (!(error instanceof PathEscapeError) || !path.isAbsolute(requested)) throw error;
      const fail = (): never => {
        throw error;
      };
      const real = await realpathDeepest(requested, fail);
      for (const root of this.readOnlyRoots) {
        if (isInside(await realpathDeepest(root, fail), real)) return this.notSecret(requested, real);
      }
      throw error;
    }
  }

  async resolve(given: string): Promise<string> {
    const requested = await unlisted(this.root, given);
    const fail = (detail?: string): never => {
      throw new PathEscapeError(requested, this.root, detail);
    };
    if (requested === '') fail('empty path');
    if (requested.includes('\0')) fail('NUL byte in path');
    if (requested.startsWith('~')) fail('home-relative paths are not expanded');
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(requested)) fail('URLs are not paths');
    // From the root component by component: `here/../x` with `here -> .` is the root's parent's x.
    const real = await realpathFrom(this.root, requested, fail);
    if (!isInside(this.root, real)) fail();
    const keel = this.keelRoots.find((dir) => isInside(dir, real));
    if (keel !== undefined) {
      throw new PathEscapeError(
        requested,
        this.root,
        undefined,
        `path ${JSON.stringify(requested)} is in Keel's own directory ${keel}, which tools never read or change`,
      );
    }
    return this.notSecret(requested, real);
  }

  relative(absolute: string): string {
    return shownPath(this.pathOf(absolute));
  }

  pathOf(absolute: string): string {
    // A read-only root's files are shown by their absolute path.
    return isInside(this.root, absolute) ? path.relative(this.root, absolute) || '.' : absolute;
  }
}

/**
 * Opens the workspace at `root` (its realpath). `readOnlyRoots` are directories outside it that may be read
 * (resolveForRead), never written. `keelDirs` (Keel's config, state, data and cache directories) are refused even
 * when the workspace holds them, unless one holds the workspace itself (the user chose to work there); a read-only
 * root inside one stays readable. `secretLinkOf` (secret-links.ts) refuses a file that is a hard link to a secret.
 * Throws UsageError when root is not a directory.
 */
export async function openWorkspace(
  root: string,
  readOnlyRoots: readonly string[] = [],
  keelDirs: readonly string[] = [],
  secretLinkOf?: SecretLinkOf,
): Promise<Workspace> {
  let real: string;
  try {
    real = await fs.realpath(root);
  } catch {
    throw new UsageError(`workspace ${root} does not exist`, {
      hint: 'run keel inside an existing project directory or pass an existing directory with --cwd',
    });
  }
  const stat = await fs.stat(real);
  if (!stat.isDirectory()) {
    throw new UsageError(`workspace ${root} is not a directory`, {
      hint: 'pass a directory as the workspace',
    });
  }
  const keelRoots: string[] = [];
  for (const dir of keelDirs) {
    const realDir = await fs.realpath(dir).catch(() => path.resolve(dir));
    if (isInside(real, realDir) && !isInside(realDir, real)) keelRoots.push(realDir);
  }
  return new JailedWorkspace(real, readOnlyRoots, keelRoots, secretLinkOf);
}
