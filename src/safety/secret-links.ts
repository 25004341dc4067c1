// Hard links to secrets: a file in the workspace that is another name of a file in a secret location (a hard link
// to ~/.ssh/id_rsa) holds the secret itself, though nothing in its path says so. Told by its inode (device and
// number), compared only for a regular file with more than one link: pnpm's node_modules and other ordinary hard
// links are read as before.
import { type BigIntStats, type Dirent, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { userConfigPath } from '../config/paths.js';
import { HOME_SECRETS } from './home-secrets.js';
import { isInside, type SecretLinkOf } from './workspace.js';

/** Files looked at in one secret location at most, nearest first: ~/.kube/cache can hold thousands, keys sit on top. */
const MAX_FILES_PER_LOCATION = 2000;
/** Secret files stat'ed again at each search at most; past it a search checks its own files (secretLinks). */
const MAX_RESTATED_SECRETS = 200;
/** Directory levels entered below a secret location. */
const MAX_DEPTH = 4;

const inodeOf = (stats: BigIntStats): string => `${stats.dev}:${stats.ino}`;

function statOrUndefined(file: string): BigIntStats | undefined {
  try {
    return statSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined; // unreadable (EACCES), a loop: nothing to read through it either
  }
}

/** A secret file: its name as shown, and where it was found (to see later whether it has another name). */
interface Secret {
  shown: string;
  absolute: string;
}

/**
 * The inodes of the regular files in the secret locations, each with its name as shown. Links are followed to a file
 * (a key kept elsewhere and linked in is as secret) and from the location itself (`~/.ssh -> dotfiles/ssh`), never
 * into a directory below it.
 */
function enumerate(locations: readonly { absolute: string; shown: string }[]): Map<string, Secret> {
  const found = new Map<string, Secret>();
  for (const location of locations) {
    const top = statOrUndefined(location.absolute);
    if (top?.isFile()) found.set(inodeOf(top), { shown: location.shown, absolute: location.absolute });
    if (!top?.isDirectory()) continue;
    let budget = MAX_FILES_PER_LOCATION;
    const queue = [{ dir: location.absolute, depth: 0 }];
    while (queue.length > 0 && budget > 0) {
      const { dir, depth } = queue.shift()!;
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (depth + 1 < MAX_DEPTH) queue.push({ dir: full, depth: depth + 1 });
          continue;
        }
        if (!entry.isFile() && !entry.isSymbolicLink()) continue;
        if (--budget < 0) break;
        const stats = statOrUndefined(full);
        if (stats?.isFile()) {
          found.set(inodeOf(stats), {
            shown: `${location.shown}${full.slice(location.absolute.length)}`,
            absolute: full,
          });
        }
      }
    }
  }
  return found;
}

// One enumeration per process and set of locations: the jail, the workspace and every search of a run share it.
// A secret made after it (a key generated mid-session) is not known until the next process.
const enumerated = new Map<string, Map<string, Secret>>();

/** Of the secrets, those that have another name now (a link count over one, the same file still there). */
function linkedNow(secrets: Map<string, Secret>): Map<string, Secret> {
  const linked = new Map<string, Secret>();
  for (const [inode, secret] of secrets) {
    const stats = statOrUndefined(secret.absolute);
    if (stats && stats.nlink > 1n && inodeOf(stats) === inode) linked.set(inode, secret);
  }
  return linked;
}

/** The secret, among `secrets`, the file is another name of. */
function linkOf(file: string, secrets: () => Map<string, Secret>): string | undefined {
  // The link count first, from a plain stat (a search asks once per file it matched): the inode, exact only as a
  // bigint, only for a file with another name.
  let links: number;
  try {
    links = statSync(file, { throwIfNoEntry: false })?.nlink ?? 0;
  } catch {
    return undefined;
  }
  if (links < 2) return undefined;
  const stats = statOrUndefined(file);
  if (!stats?.isFile() || stats.nlink < 2n) return undefined;
  return secrets().get(inodeOf(stats))?.shown;
}

/**
 * The secret file (home-relative, `~/.ssh/id_rsa`) a file is another name of, among the secret locations under
 * `home` (HOME_SECRETS) and the absolute `extraFiles`. One stat a file; the secret locations are enumerated the first
 * time a file with more than one link is asked about.
 */
export function secretLinks(home: string, extraFiles: readonly string[] = []): SecretLinkOf {
  const locations = [
    ...HOME_SECRETS.map((p) => ({ absolute: path.join(home, p), shown: `~/${p}` })),
    ...extraFiles.map((file) => ({
      absolute: file,
      shown: isInside(home, file) ? `~/${path.relative(home, file)}` : file,
    })),
  ];
  const key = locations.map((l) => l.absolute).join('\0');
  const secrets = (): Map<string, Secret> => {
    let known = enumerated.get(key);
    if (known === undefined) {
      known = enumerate(locations);
      enumerated.set(key, known);
    }
    return known;
  };
  const check = (file: string) => linkOf(file, secrets);
  // A search of thousands of files: a file can be another name of a secret only if that secret has another name,
  // which a stat of each secret (a few dozen) says. Usually none has, and no file of the search needs a stat. With
  // many secret files (a big ~/.kube/cache), each file of the search is asked about instead.
  check.search = () => {
    const known = secrets();
    if (known.size > MAX_RESTATED_SECRETS) return check;
    const linked = linkedNow(known);
    return linked.size === 0 ? undefined : (file: string) => linkOf(file, () => linked);
  };
  return check;
}

/** The user's secret links: the home directory's secret locations and Keel's credentials file (wherever XDG puts it). */
export function userSecretLinks(env: NodeJS.ProcessEnv): SecretLinkOf {
  const credentials = path.join(path.dirname(userConfigPath(env)), 'credentials.yaml');
  return secretLinks(env.HOME || os.homedir(), [credentials]);
}
