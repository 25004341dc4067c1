// The restricted-mode check: every simple command is an allowlisted read-only program with literal,
// in-workspace arguments and no writes. Returns why a command is refused, or undefined.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { CommandAnalysis, IssueKind, SimpleCommand } from './command-analysis.js';
import { programName } from './command-denylist.js';
import {
  ALLOWED_PROGRAMS,
  HARMLESS_REDIRECT_TARGETS,
  LINK_FOLLOWING,
  type LinkFollowing,
  lookup,
} from './command-rules.js';
import { PathEscapeError, type Workspace } from './workspace.js';

const ISSUE_WORDS: Record<IssueKind, string> = {
  command_substitution: 'command substitution',
  process_substitution: 'process substitution',
  parameter_expansion: 'variable expansion',
  arithmetic_expansion: 'arithmetic expansion',
  brace_expansion: 'brace expansion',
  heredoc: 'a here-document',
  subshell: 'a subshell',
  group: 'a command group',
  function: 'a function definition',
  control_flow: 'shell control flow',
  test_expression: 'a test expression',
  assignment: 'a variable assignment',
  background: 'a background job (&)',
  control_character: 'control characters',
  parse_error: 'syntax that does not parse',
  unsupported_syntax: 'unsupported shell syntax',
};

export const allowedList = (): string => Object.keys(ALLOWED_PROGRAMS).join(', ');

/** The path-like part of an argument: the value of `--opt=value`, or `-f/etc/x`'s `/etc/x`. */
function pathPart(arg: string): string | undefined {
  if (!arg.startsWith('-') || arg === '-') return arg;
  const eq = arg.indexOf('=');
  if (arg.startsWith('--')) return eq === -1 ? undefined : arg.slice(eq + 1);
  const at = arg.search(/[/~.]/);
  return at === -1 ? undefined : arg.slice(at);
}

/** Why a path argument may read outside the workspace, or undefined when it stays inside. */
async function pathProblem(workspace: Workspace, arg: string): Promise<string | undefined> {
  let real: string;
  try {
    real = await workspace.resolve(arg);
  } catch (error) {
    if (error instanceof PathEscapeError) return 'is outside the workspace';
    throw error;
  }
  // A file with several names may share its content with one outside; a directory's count is its subdirectories.
  const stat = await fs.stat(real).catch(() => undefined);
  if (stat?.isFile() && stat.nlink > 1) {
    return `has ${stat.nlink} hard links, so it may be a file outside the workspace`;
  }
  return undefined;
}

/** A glob stays inside when its fixed directory does and every entry it matches there does. */
async function globProblem(workspace: Workspace, glob: string): Promise<string | undefined> {
  const parts = glob.split('/');
  const first = parts.findIndex((p) => /[*?[]/.test(p));
  if (first !== parts.length - 1 || parts.includes('..')) return 'is outside the workspace';
  const dir = parts.slice(0, first).join('/') || (glob.startsWith('/') ? '/' : '.');
  const problem = await pathProblem(workspace, dir);
  if (problem) return problem;
  const isMatch = picomatch(parts[first] ?? '');
  const entries = await fs.readdir(await workspace.resolve(dir)).catch(() => [] as string[]);
  for (const entry of entries.filter((e) => isMatch(e))) {
    const inner = await pathProblem(workspace, path.join(dir, entry));
    if (inner) return `matches \`${path.join(dir, entry)}\`, which ${inner}`;
  }
  return undefined;
}

/** The argument that makes the program follow links it finds (`-R`, `-lLR`, `--deref`, `--follow=x`), if any. */
export function linkFollowingFlag(argv: readonly string[], rule: LinkFollowing): string | undefined {
  return argv.slice(1).find((arg) => {
    if (rule.words?.includes(arg)) return true;
    if (arg.startsWith('--') && arg.length > 2) {
      // getopt_long takes any unambiguous abbreviation, with or without `=value`.
      const name = arg.split('=')[0] ?? arg;
      return rule.words?.some((word) => word.startsWith('--') && word.startsWith(name)) ?? false;
    }
    return /^-[^-]/.test(arg) && [...arg.slice(1)].some((letter) => rule.letters?.includes(letter));
  });
}

async function commandReason(command: SimpleCommand, workspace: Workspace): Promise<string | undefined> {
  const program = command.argv[0];
  const rule = lookup(ALLOWED_PROGRAMS, program);
  const shown = command.text.length > 60 ? `${command.text.slice(0, 57)}...` : command.text;
  if (!rule || programName(program) !== program) {
    return `\`${shown}\` is not allowed in restricted mode (allowed: ${allowedList()})`;
  }
  const flag = command.argv.find((a) => rule.deniedFlags?.includes(a));
  if (flag) return `\`${program} ${flag}\` can write files or run programs, so restricted mode refuses it`;
  const links = lookup(LINK_FOLLOWING, program);
  const follows = links && linkFollowingFlag(command.argv, links);
  if (links && follows) {
    return `\`${program} ${follows}\` follows symbolic links it finds, which can lead out of the workspace; use ${links.instead}`;
  }
  const write = command.redirects.find(
    (r) =>
      !(/^[<>]&$/.test(r.operator) && /^(\d+|-)$/.test(r.target)) &&
      !HARMLESS_REDIRECT_TARGETS.includes(r.target),
  );
  if (write)
    return `\`${shown}\` redirects to \`${write.target}\`; restricted mode allows redirection only to /dev/null`;
  if (!rule.pathArgs) return undefined;
  for (const [i, arg] of command.argv.entries()) {
    if (i === 0) continue;
    const candidate = pathPart(arg);
    if (candidate === undefined || candidate === '') continue;
    const problem = command.globs.includes(i)
      ? await globProblem(workspace, candidate)
      : await pathProblem(workspace, candidate);
    if (problem) return `\`${shown}\`: \`${arg}\` ${problem}`;
  }
  return undefined;
}

/** Why restricted mode refuses the command, or undefined when it may run. */
export async function restrictedReason(
  analysis: CommandAnalysis,
  workspace: Workspace,
): Promise<string | undefined> {
  const issue = analysis.issues[0];
  if (issue) return `\`${issue.text}\` uses ${ISSUE_WORDS[issue.kind]}, which restricted mode does not run`;
  if (analysis.commands.length === 0) return 'the command is empty';
  for (const command of analysis.commands) {
    const reason = await commandReason(command, workspace);
    if (reason) return reason;
  }
  return undefined;
}
