// Where config files live: the user file under XDG_CONFIG_HOME and the project file in the workspace.
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { sha256Hex } from '../core/sha256.js';

export const projectConfigName = '.keel.yaml';

/** `$XDG_CONFIG_HOME/keel/config.yaml`, defaulting to `~/.config/keel/config.yaml`. */
export function userConfigPath(env: NodeJS.ProcessEnv): string {
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'keel', 'config.yaml');
}

/** The user's own context file, beside the user config: `~/.config/keel/AGENTS.md`. */
export function userContextFilePath(env: NodeJS.ProcessEnv): string {
  return join(dirname(userConfigPath(env)), 'AGENTS.md');
}

/** `<workspace>/.keel.yaml`. */
export function projectConfigPath(workspace: string): string {
  return join(workspace, projectConfigName);
}

/**
 * Keel's state directory: `$XDG_STATE_HOME/keel`, defaulting to `~/.local/state/keel`. Trust records,
 * saved tool outputs, the audit log and checkpoints live here, never in the workspace.
 */
export function stateDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_STATE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'keel');
}

/** Keel's cache directory: `$XDG_CACHE_HOME/keel`, defaulting to `~/.cache/keel`. Parsed code tags live here. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.cache');
  return join(base, 'keel');
}

/** Keel's data directory: `$XDG_DATA_HOME/keel`, defaulting to `~/.local/share/keel`. Sessions live here. */
export function dataDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'keel');
}

// A run asks for its workspace's key several times (sessions, state, ask history) before the hash is optimised.
const keys = new Map<string, string>();

/** `my-app-3f2a9c1b04de`: readable, and unique per real path (two checkouts named `app` stay apart). */
export function workspaceKey(realRoot: string): string {
  let key = keys.get(realRoot);
  if (key === undefined) {
    const slug =
      basename(realRoot)
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^[.-]+/, '')
        .slice(0, 40) || 'root';
    key = `${slug}-${sha256Hex(realRoot).slice(0, 12)}`;
    if (keys.size > 100) keys.clear();
    keys.set(realRoot, key);
  }
  return key;
}
