// Paths file tools never write without an explicit approval, in every mode: git internals, Keel's own config and
// state (so the agent cannot widen its next run), the user's protected_paths globs, and secret files.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { once } from '../core/once.js';
import { HOME_SECRETS } from './home-secrets.js';
import { isSecretFileName } from './secret-files.js';
import { isInside } from './workspace.js';

/** Workspace-relative globs, with why each is protected. */
export const PROTECTED_GLOBS: Readonly<Record<string, string>> = {
  '**/.git': "git's internals (hooks and config run programs)",
  '**/.git/**': "git's internals (hooks and config run programs)",
  '.keel.yaml': "Keel's project config, which would widen the agent's next run",
  '**/.keel.yaml': "Keel's project config, which would widen the agent's next run",
  '.keel': "Keel's project directory",
  '.keel/**': "Keel's project directory",
};

export interface ProtectedPathsOptions {
  root: string;
  home: string;
  /** Keel's state directory (trust records, checkpoints, audit log). */
  stateDir?: string;
  /** The user's safety.protected_paths, globs relative to the workspace. */
  globs: readonly string[];
}

/** A matcher of `globs`, compiled on its first use: a run builds the policy before its first request, and judges paths only later. */
const match = (globs: readonly string[]): ((path: string) => boolean) => {
  const compiled = once(() => picomatch([...globs], { dot: true }));
  return (p) => compiled()(p);
};

/** Judges each path a file tool writes: why it is protected or secret, or undefined. */
export function protectedPaths(options: ProtectedPathsOptions) {
  const builtin = Object.entries(PROTECTED_GLOBS).map(([glob, why]) => ({ isMatch: match([glob]), why }));
  const user = match(options.globs);
  const homeSecrets = HOME_SECRETS.map((p) => path.join(options.home, p));

  function protectedWhy(absolute: string): string | undefined {
    if (options.stateDir && isInside(options.stateDir, absolute)) return "Keel's state directory";
    if (!isInside(options.root, absolute)) return undefined;
    const rel = path.relative(options.root, absolute);
    if (rel === '') return undefined;
    const hit = builtin.find((b) => b.isMatch(rel));
    if (hit) return hit.why;
    if (options.globs.length > 0 && user(rel)) return 'listed in safety.protected_paths';
    return undefined;
  }

  function secretWhy(absolute: string): string | undefined {
    if (homeSecrets.some((s) => isInside(s, absolute))) return 'a secret location in the home directory';
    if (!isInside(options.root, absolute)) return undefined;
    return absolute !== options.root && isSecretFileName(path.basename(absolute))
      ? 'a file that holds secrets'
      : undefined;
  }

  return {
    /** Why writing (or deleting) `absolute` needs an approval: it is protected or secret, or holds such paths. */
    async reason(absolute: string): Promise<{ kind: 'protected' | 'secret'; why: string } | undefined> {
      const own = protectedWhy(absolute);
      if (own) return { kind: 'protected', why: own };
      const secretOwn = secretWhy(absolute);
      if (secretOwn) return { kind: 'secret', why: secretOwn };
      // A directory goes with what it holds: deleting `sub` deletes `sub/.git`. Known locations only, no walk.
      if (options.stateDir && absolute !== options.stateDir && isInside(absolute, options.stateDir)) {
        return { kind: 'protected', why: "it holds Keel's state directory" };
      }
      const stat = await fs.lstat(absolute).catch(() => undefined);
      if (!stat?.isDirectory()) return undefined;
      for (const inner of ['.git', '.keel', '.keel.yaml', '.env']) {
        const candidate = path.join(absolute, inner);
        if (!(await fs.lstat(candidate).catch(() => undefined))) continue;
        const why = protectedWhy(candidate) ?? secretWhy(candidate);
        if (why) return { kind: 'protected', why: `it holds ${inner}: ${why}` };
      }
      return undefined;
    },
  };
}

export type ProtectedPaths = ReturnType<typeof protectedPaths>;
