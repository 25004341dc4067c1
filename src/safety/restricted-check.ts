// The restricted-mode check: every simple command is an allowlisted read-only program with literal,
// in-workspace arguments and no writes. Returns why a command is refused, or undefined.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { CommandAnalysis, IssueKind, SimpleCommand } from './command-analysis.js';
import { programName } from './command-denylist.js';
import { ALLOWED_PROGRAMS, HARMLESS_REDIRECT_TARGETS, lookup } from './command-rules.js';
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

async function escapes(workspace: Workspace, arg: string): Promise<boolean> {
  try {
    await workspace.resolve(arg);
    return false;
  } catch (error) {
    if (error instanceof PathEscapeError) return true;
    throw error;
  }
}

/** A glob stays inside when its fixed directory does and every entry it matches there does. */
async function globEscapes(workspace: Workspace, glob: string): Promise<boolean> {
  const parts = glob.split('/');
  const first = parts.findIndex((p) => /[*?[]/.test(p));
  if (first !== parts.length - 1 || parts.includes('..')) return true;
  const dir = parts.slice(0, first).join('/') || (glob.startsWith('/') ? '/' : '.');
  if (await escapes(workspace, dir)) return true;
  const isMatch = picomatch(parts[first] ?? '');
  const entries = await fs.readdir(await workspace.resolve(dir)).catch(() => [] as string[]);
  for (const entry of entries.filter((e) => isMatch(e))) {
    if (await escapes(workspace, path.join(dir, entry))) return true;
  }
  return false;
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
    const outside = command.globs.includes(i)
      ? await globEscapes(workspace, candidate)
      : await escapes(workspace, candidate);
    if (outside) return `\`${shown}\`: \`${arg}\` is outside the workspace`;
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
