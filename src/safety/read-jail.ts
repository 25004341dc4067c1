// The jail for files Keel reads on the user's behalf (context files, custom commands, plan files, attachments,
// config scripts, MCP working directories): the path is resolved as the kernel resolves it, and a file whose real
// path leaves its root, that a link carries into a secret location or Keel's own directories, or that is a hard
// link to a secret file, is skipped.
import { realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cacheDir, dataDir, stateDir, userConfigPath } from '../config/paths.js';
import { HOME_SECRETS } from './home-secrets.js';
import { isSecretFileName } from './secret-files.js';
import { userSecretLinks } from './secret-links.js';
import { isInside } from './workspace.js';

export interface ReadJail {
  /**
   * Why `file` must not be read, or undefined (then `real` is the path to open). `root`: the directory it must stay
   * in (the workspace, or the repository root for context files above it). `file` may be relative to root.
   */
  check(file: string, root: string): Promise<{ real: string } | { refused: string }>;
}

/** Keel's own directories (config, state, data, cache): never read on a repository's behalf, nor by a tool. */
export function keelDirs(env: NodeJS.ProcessEnv): string[] {
  return [path.dirname(userConfigPath(env)), stateDir(env), dataDir(env), cacheDir(env)];
}

/** The real path of a directory, or the path itself when it does not exist (nothing can lead into it then). */
const realOr = (dir: string): Promise<string> => realpath(dir).catch(() => dir);

export function createReadJail(env: NodeJS.ProcessEnv): ReadJail {
  const home = env.HOME || os.homedir();
  const secretLink = userSecretLinks(env);
  // Resolved once, at the first check (most runs check nothing before their first request): a home reached through
  // a link (/home -> /var/home) must still match the real paths.
  let guarded: Promise<[string[], string[]]> | undefined;

  /** Why a real path, reached through a link, is no place to read from. */
  async function secretWhy(real: string, root: string): Promise<string | undefined> {
    guarded ??= Promise.all([
      Promise.all(HOME_SECRETS.map((p) => realOr(path.join(home, p)))),
      Promise.all(keelDirs(env).map(realOr)),
    ]);
    const [secrets, keel] = await guarded;
    if (keel.some((dir) => isInside(dir, real))) return "Keel's own directory";
    if (secrets.some((dir) => isInside(dir, real))) return 'a secret location in the home directory';
    if (isInside(root, real) && isSecretFileName(path.basename(real))) return 'a file that holds secrets';
    return undefined;
  }

  return {
    async check(file, root) {
      const lexical = path.resolve(root, file);
      let real: string;
      try {
        real = await realpath(lexical);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return {
          refused:
            code === 'ENOENT' ? 'it does not exist or is a dangling link' : `cannot resolve it (${code})`,
        };
      }
      const realRoot = await realOr(root);
      if (!isInside(realRoot, real)) return { refused: `it resolves to ${real}, outside ${realRoot}` };
      // Only a link can carry a familiar name (AGENTS.md) into a secret; a file named as such was named by its path.
      if (real !== path.resolve(realRoot, path.relative(root, lexical))) {
        const why = await secretWhy(real, realRoot);
        if (why) return { refused: `it resolves to ${real}, ${why}` };
      }
      // A hard link has the secret's content under any name, a path inside the root included.
      const secret = secretLink(real);
      if (secret !== undefined) return { refused: `it is a hard link to the secret file ${secret}` };
      return { real };
    },
  };
}

/** The one-line warning for a skipped file. */
export const skippedWarning = (what: string, file: string, why: string): string =>
  `${what} ${file} skipped: ${why}`;
