// Which change to one of git's settings files (`.git/config`, `config.worktree`) the tripwire lets stand: one touching
// only settings that run nothing (a remote's URL, a branch's upstream, what `git init` writes). Anything else —
// fsmonitor, hooksPath, aliases, filters, pagers, includes and `extensions.worktreeConfig` (git then reads another
// file), an unreadable file — is put back. The file is read by git itself, so every spelling parses as git reads it.
import { spawn } from 'node:child_process';

/** Settings (git's lower-cased names; `*` a subsection) a command may change: none of them runs a program. */
const BENIGN_SETTINGS: readonly RegExp[] = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol|safecrlf|quotepath|abbrev|compression|bigfilethreshold|sharedrepository)$/,
  /^remote\..+\.(url|pushurl|fetch|push|tagopt|prune|mirror|skipdefaultupdate|skipfetchall)$/,
  /^branch\..+\.(remote|merge|rebase|pushremote|description)$/,
  /^user\.(name|email)$/,
  /^init\.defaultbranch$/,
  /^pull\.(rebase|ff)$/,
  /^push\.(default|autosetupremote)$/,
  /^fetch\.prune$/,
  /^extensions\.objectformat$/,
  /^(color|status|log)\.[a-z.]+$/,
  /^submodule\..+\.(url|active)$/,
  /^gc\.auto$/,
  /^rerere\.enabled$/,
  /^merge\.conflictstyle$/,
];

const benign = (key: string) => BENIGN_SETTINGS.some((re) => re.test(key.toLowerCase()));

/** `git config --list` of a config file's text: `key\nvalue` entries. Undefined when git cannot read it. */
function listSettings(text: string, env: NodeJS.ProcessEnv): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    const child = spawn('git', ['config', '--file', '-', '--list', '-z', '--no-includes'], {
      env: { PATH: env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' },
      stdio: 'pipe',
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) =>
      resolve(
        code === 0
          ? Buffer.concat(out)
              .toString('utf8')
              .split('\0')
              .filter((e) => e !== '')
          : undefined,
      ),
    );
    child.stdin.on('error', () => {});
    child.stdin.end(text);
  });
}

/** The keys whose values differ between two lists (added, removed or changed, in any count). */
function changedKeys(before: readonly string[], after: readonly string[]): Set<string> {
  const count = (entries: readonly string[]) => {
    const map = new Map<string, number>();
    for (const e of entries) map.set(e, (map.get(e) ?? 0) + 1);
    return map;
  };
  const a = count(before);
  const b = count(after);
  const keys = new Set<string>();
  for (const [entry, n] of a) if (b.get(entry) !== n) keys.add(entry.split('\n')[0] ?? '');
  for (const [entry, n] of b) if (a.get(entry) !== n) keys.add(entry.split('\n')[0] ?? '');
  return keys;
}

/**
 * Whether a command's change of `.git/config` (from `before`, undefined: the file did not exist) may stand: only
 * settings that run nothing changed. False when git is missing or cannot read either version. `submodule`: the file
 * is a submodule's, where core.worktree names its checkout.
 */
export async function gitConfigChangeIsBenign(
  before: string | undefined,
  after: string,
  env: NodeJS.ProcessEnv,
  options: { submodule?: boolean } = {},
): Promise<boolean> {
  const [old, now] = await Promise.all([
    before === undefined ? Promise.resolve([]) : listSettings(before, env),
    listSettings(after, env),
  ]);
  if (!old || !now) return false;
  // A submodule's settings name its checkout, as `git submodule add` and `absorbgitdirs` write them.
  const allowed = (key: string) =>
    benign(key) || (options.submodule === true && key.toLowerCase() === 'core.worktree');
  return [...changedKeys(old, now)].every(allowed);
}
