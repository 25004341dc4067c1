// What a secret file is: the one answer the shell's judgment (never named by a command), the file tools (never read,
// skipped by searches), the read jail and the protected paths (writes need an approval) all read.
import path from 'node:path';
import picomatch from 'picomatch';
import { HOME_SECRETS } from './home-secrets.js';
import { isInside } from './workspace.js';

/**
 * File names secret wherever they are: environment files (`.env`, `.env.local`, `prod.env`, `.envrc`), private keys
 * and certificate stores, and the credential files of package registries, git and databases.
 */
const SECRET_NAMES =
  /^(\.env(\..+)?|.+\.env|\.envrc|.+\.(pem|key|p12|pfx)|id_(rsa|dsa|ecdsa|ed25519)(_sk)?|\.npmrc|\.netrc|\.pypirc|\.pgpass|\.git-credentials)$/;
/** Template names that look like secrets but are meant to be shared. */
const TEMPLATE_NAMES = /^(\.env\.(example|sample|template|dist|defaults)|(example|sample|template)\.env)$/;

/** System files that hold secrets (absolute globs). */
const SYSTEM_SECRETS: readonly string[] = [
  '/etc/shadow',
  '/etc/gshadow',
  '/proc/*/environ',
  '/proc/*/task/*/environ',
];

/** Whether a file's own name (no directory) marks it as holding secrets. */
export const isSecretFileName = (name: string): boolean =>
  SECRET_NAMES.test(name) && !TEMPLATE_NAMES.test(name);

/** A secret location a path is in: `root` the secret file or directory, `name` how to say it. */
export interface SecretLocation {
  root: string;
  name: string;
}

/** The secret location the absolute path `p` is in (a home secret, a system one, a secret file's name), or undefined. */
export function secretLocation(p: string, home: string): SecretLocation | undefined {
  for (const entry of HOME_SECRETS) {
    const root = path.join(home, entry);
    if (isInside(root, p)) return { root, name: `~/${entry}` };
  }
  for (const glob of SYSTEM_SECRETS) {
    if (picomatch(glob, { dot: true })(p)) return { root: p, name: glob };
  }
  const base = path.basename(p);
  return isSecretFileName(base) ? { root: p, name: 'a file that holds secrets' } : undefined;
}
