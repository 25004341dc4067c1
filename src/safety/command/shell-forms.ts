// Shell forms the read-only check judges by their contents rather than refusing: subshells, groups, background
// jobs, literal here-documents, harmless leading assignments, a `cd` nothing runs after, /usr/bin/<program>.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { IssueKind, SimpleCommand } from './simple-command.js';

/**
 * Constructs whose effect the read-only check sees in full: each command inside is judged on its own, a group's
 * redirections reach every command in it, a here-document must be literal (redirects), assignments must pass
 * assignmentProblem, `$$` is a number (echo only). Every other issue keeps a command out of the read-only set.
 */
export const JUDGED_SYNTAX: ReadonlySet<IssueKind> = new Set<IssueKind>([
  'subshell',
  'group',
  'background',
  'heredoc',
  'assignment',
  'special_parameter',
  // `[ -f x ]`, `[[ … ]]`: a command `[` (`[[`) of its own (analysis.ts), judged as `test`.
  'test_expression',
]);

/**
 * Variable names programs or bash itself act on: they load code (LD_PRELOAD, BASH_ENV, NODE_OPTIONS), pick a program
 * (PAGER, EDITOR, GIT_*), a file or directory to read (*PATH*, HOME, *CONFIG*, XDG_*), or how words split (IFS).
 * Matched anywhere in the name, so that new names of the same kind stay refused.
 */
const RISKY_PARTS =
  /PATH|HOME|DIR|FILE|CONF|RC|PRELOAD|LIB|OPT|ARG|FLAG|EDITOR|PAGER|VISUAL|BROWSER|SHELL|BASH|PROMPT|CMD|COMMAND|EXEC|HOOK|SCRIPT|PLUGIN|MODULE|INCLUDE|LOAD|INIT|PROFILE|PROXY|TUNABLE|GLOB/;
/** Name prefixes of the same kind: loader, git, interpreters, pagers, locale and terminal files, history. */
const RISKY_PREFIXES =
  /^(LD_|DYLD_|GIT|NODE|NPM|PYTHON|PERL|RUBY|JAVA|GO|CARGO|RUST|LESS|GCONV|NLS|LOC|TZ|LANG|LC_|TERM|MAN|XDG_|SSH|GPG|GNUPG|HIST|MALLOC|GLIBC|RIPGREP|GREP|PS\d|ENV$|IFS$|POSIXLY)/;
/** A value that is not a path, a home directory or a glob: letters, digits and a little punctuation. */
const PLAIN_VALUE = /^[\w ,:@%+=.-]*$/;

/** Why `NAME=value` words before a read-only command (or alone) may change what runs or is read; undefined if not. */
export function assignmentProblem(assignments: readonly string[]): string | undefined {
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=');
    const [name, value] = [assignment.slice(0, eq), assignment.slice(eq + 1)];
    if (!/^[A-Z][A-Z0-9_]*$/.test(name) || RISKY_PARTS.test(name) || RISKY_PREFIXES.test(name)) {
      return `setting \`${name}\` can change what programs run or read, so it is not read-only`;
    }
    if (!PLAIN_VALUE.test(value) || value.includes('..')) {
      return `\`${assignment}\` sets a value that may be a path; only plain words are read-only`;
    }
  }
  return undefined;
}

/**
 * A `cd` that no later command of its shell (or a subshell of it) runs after: it changes nothing, because every
 * command line starts a new bash. After it, relative paths would resolve from elsewhere, so it must be last.
 */
export function isLoneCd(commands: readonly SimpleCommand[], index: number): boolean {
  const cd = commands[index];
  if (cd?.argv[0] !== 'cd' || !cd.literal || cd.assignments.length > 0 || cd.redirects.length > 0) {
    return false;
  }
  const affected = (c: SimpleCommand) => c.scope === cd.scope || c.scope.startsWith(`${cd.scope}/`);
  return !commands.slice(index + 1).some(affected);
}

/** Directories whose programs are the system's own: `/usr/bin/ls` there is `ls`. */
const SYSTEM_BIN = ['/usr/bin', '/bin', '/usr/local/bin'];

/**
 * The program an absolute `/usr/bin/<name>` runs, judged by its real name (`/usr/bin/awk` → mawk), when both the
 * written and the real file are regular files in a system directory; undefined otherwise.
 */
export async function systemProgram(program: string): Promise<string | undefined> {
  if (!path.posix.isAbsolute(program) || !SYSTEM_BIN.includes(path.posix.dirname(program))) return undefined;
  const real = await fs.realpath(program).catch(() => undefined);
  if (!real || !SYSTEM_BIN.includes(path.posix.dirname(real))) return undefined;
  const stat = await fs.stat(real).catch(() => undefined);
  return stat?.isFile() ? path.posix.basename(real) : undefined;
}
