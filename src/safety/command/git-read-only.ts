// git's global options in the read-only set: `-C <dir>`, `--no-pager`, and `-c` with a setting that runs nothing
// (colours, `core.pager=cat`). Everything else before the subcommand (`--git-dir`, `--exec-path`, `-c core.pager=x`)
// keeps the command out of the set, as does `git remote` beyond listing and `get-url`, and git in a repository
// nested in the workspace.
import path from 'node:path';
import { nearestDotGit } from '../git-reads.js';
import { isInside, type Workspace } from '../workspace.js';

/** Global options that change only how git prints. */
const PRINTING_OPTIONS = [
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
];

/** `-c` settings that run nothing: colours, columns, path quoting, and a pager that only prints. */
const HARMLESS_SETTINGS: readonly RegExp[] = [
  /^color\.[^=]+(=.*)?$/i,
  /^column\.ui(=.*)?$/i,
  /^core\.quotepath(=.*)?$/i,
  /^core\.pager=(cat)?$/i,
  /^pager\.[^=]+(=(cat|false|no|off|0|true|yes|on|1)?)?$/i,
];

export const harmlessGitSetting = (setting: string): boolean =>
  HARMLESS_SETTINGS.some((re) => re.test(setting));

export interface GitGlobals {
  /** Index into argv of the subcommand. */
  subcommand: number;
  /** The `-C` directories, in order (each relative to the one before). */
  directories: string[];
  /** argv indexes of the `-C` values, checked as paths by the caller. */
  directoryIndexes: number[];
}

/** Reads git's global options; a string says why they keep the command out of the read-only set. */
export function gitGlobals(argv: readonly string[]): GitGlobals | string {
  const globals: GitGlobals = { subcommand: 1, directories: [], directoryIndexes: [] };
  if (argv.length === 2 && (argv[1] === '--version' || argv[1] === '--help')) return globals;
  let i = 1;
  for (; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('-')) break;
    if (PRINTING_OPTIONS.includes(arg)) continue;
    if (arg === '-C' || arg === '-c') {
      const value = argv[i + 1];
      if (value === undefined) return `\`git ${arg}\` needs a value`;
      if (arg === '-C') {
        globals.directories.push(value);
        globals.directoryIndexes.push(i + 1);
      } else if (!harmlessGitSetting(value)) {
        return `\`git -c ${value}\` is not a setting known to only change how git prints`;
      }
      i++;
      continue;
    }
    if (arg.startsWith('-c') && harmlessGitSetting(arg.slice(2))) continue;
    return `\`git ${arg}\` before the subcommand is not read-only (read-only: -C <dir>, --no-pager, -c color.*=…)`;
  }
  globals.subcommand = i;
  return globals;
}

/** `git remote`, `git remote -v`, `git remote get-url [--push|--all] <name>`: listing only. */
export function gitRemoteProblem(args: readonly string[]): string | undefined {
  const [first, ...rest] = args;
  if (first === undefined || (args.length === 1 && (first === '-v' || first === '--verbose')))
    return undefined;
  if (first === 'get-url') {
    const names = rest.filter((a) => a !== '--push' && a !== '--all');
    if (names.length === 1 && !names[0]?.startsWith('-')) return undefined;
  }
  return `\`git remote ${args.join(' ')}\` may change the remotes; read-only: git remote [-v], git remote get-url <name>`;
}

/** `git reflog [show] [<ref>]`: showing only; `expire`, `delete` and `drop` change the reflog. */
export function gitReflogProblem(args: readonly string[]): string | undefined {
  const sub = args.find((a) => !a.startsWith('-'));
  if (sub === 'expire' || sub === 'delete' || sub === 'drop') {
    return `\`git reflog ${sub}\` changes the reflog; read-only: git reflog [show]`;
  }
  return undefined;
}

/**
 * The repository git would use from `dir` when it is one nested in the workspace (a folder below the root holding
 * `.git`: a clone, a submodule, or one a command unpacked): its settings are not the watched ones of the workspace's
 * own repository. Undefined for the workspace's own repository, or none.
 */
export async function nestedRepository(workspace: Workspace, dir: string): Promise<string | undefined> {
  const root = workspace.root;
  let real: string;
  try {
    real = await workspace.resolve(dir);
  } catch {
    return undefined; // outside: the path checks say so
  }
  const repository = path.dirname((await nearestDotGit(real)) ?? root);
  return repository !== root && isInside(root, repository) ? path.relative(root, repository) : undefined;
}
