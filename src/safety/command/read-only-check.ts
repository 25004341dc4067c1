// The read-only check: a simple command is a read-only program of the allowlist, with its flag rules kept,
// literal in-workspace path arguments and no writes. Returns why a command is not read-only, or undefined.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { PathEscapeError, type Workspace } from '../workspace.js';
import type { CommandAnalysis, IssueKind, SimpleCommand } from './analysis.js';
import { programName } from './denylist.js';
import {
  ALLOWED_PROGRAMS,
  type AllowedProgram,
  HARMLESS_REDIRECT_TARGETS,
  LINK_FOLLOWING,
  type LinkFollowing,
  lookup,
} from './program-rules.js';

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

/** Whether `arg` is one of the denied options: the word, `--name=value`, a long abbreviation, `-cVALUE` for `-c`. */
function isDeniedFlag(arg: string, words: readonly string[]): boolean {
  const name = arg.split('=')[0] ?? arg;
  return words.some((word) => {
    if (name === word) return true;
    if (word.startsWith('--')) return arg.startsWith('--') && name.length > 3 && word.startsWith(name);
    return word.length === 2 && arg.startsWith(word);
  });
}

const isOption = (arg: string): boolean => arg.startsWith('-') && arg !== '-';

/** Why the program's options make it write or run programs, or break its rule; undefined when they do not. */
function flagProblem(argv: readonly string[], rule: AllowedProgram, name: string): string | undefined {
  const args = argv.slice(1);
  const endOfOptions = args.indexOf('--');
  const options = (endOfOptions === -1 ? args : args.slice(0, endOfOptions)).filter(isOption);
  const denied = options.find(
    (a) =>
      isDeniedFlag(a, rule.deniedFlags ?? []) ||
      (/^-[^-]/.test(a) && [...a.slice(1)].some((letter) => rule.deniedLetters?.includes(letter))),
  );
  if (denied) return `\`${name} ${denied}\` can write files or run programs, so it is not read-only`;
  if (rule.onlyFlags) {
    const other = options.find((a) => !rule.onlyFlags?.includes(a.split('=')[0] ?? a));
    if (other) return `\`${name} ${other}\` is not a listing option, so it may change things`;
    const operands = args.filter((a, i) => !isOption(a) && !rule.valueFlags?.includes(args[i - 1] ?? ''));
    if (operands.length > 0 && !options.some((a) => rule.operandsNeed?.includes(a))) {
      return `\`${name} ${operands[0]}\` would create or change something; only listing is read-only`;
    }
  }
  if (rule.maxOperands !== undefined) {
    const operands = args.filter((a) => !isOption(a));
    if (operands.length > rule.maxOperands) {
      return `\`${name}\` with ${operands.length} operands writes the last one, so it is not read-only`;
    }
  }
  return undefined;
}

/** Indexes into argv of the words to check as paths: all but options without a value and a leading pattern. */
function pathIndexes(argv: readonly string[], rule: AllowedProgram, first: number): number[] {
  const indexes: number[] = [];
  // The pattern given by -e/-f (or --regexp/--file) means no operand is a pattern: check them all.
  const patternByOption = argv.some((a, i) => i >= first && /^(-[A-Za-z]*[ef]|--regexp|--file)/.test(a));
  let skipPattern = Boolean(rule.patternFirst) && !patternByOption;
  for (let i = first; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (skipPattern && !isOption(arg)) {
      skipPattern = false;
      continue;
    }
    indexes.push(i);
  }
  return indexes;
}

/** A redirect that only reads a workspace file (`< src/a.ts`) or duplicates a descriptor (`2>&1`). */
async function redirectProblem(
  command: SimpleCommand,
  workspace: Workspace,
  shown: string,
): Promise<string | undefined> {
  for (const r of command.redirects) {
    if (/^[<>]&$/.test(r.operator) && /^(\d+|-)$/.test(r.target)) continue;
    if (HARMLESS_REDIRECT_TARGETS.includes(r.target)) continue;
    if (r.operator === '<' && r.literal) {
      const problem = await pathProblem(workspace, r.target);
      if (!problem) continue;
      return `\`${shown}\`: \`< ${r.target}\` ${problem}`;
    }
    return `\`${shown}\` redirects to \`${r.target}\`; read-only commands may redirect only to /dev/null or read a workspace file with <`;
  }
  return undefined;
}

/** Why a command is not read-only; `path` when it is a path (or link) problem, which no command rule should fix. */
export interface ReadOnlyRefusal {
  reason: string;
  path?: boolean;
}

/** Why one simple command is not in the read-only set (program, flags, redirects, paths), or undefined. */
export async function readOnlyReason(
  command: SimpleCommand,
  workspace: Workspace,
): Promise<ReadOnlyRefusal | undefined> {
  const program = command.argv[0];
  const shown = command.text.length > 60 ? `${command.text.slice(0, 57)}...` : command.text;
  let rule = lookup(ALLOWED_PROGRAMS, program);
  if (!rule || programName(program) !== program || !command.literal) {
    return { reason: `\`${shown}\` is not a read-only command` };
  }
  let name = program ?? '';
  let first = 1;
  if (rule.subcommands) {
    const sub = lookup(rule.subcommands, command.argv[1]);
    if (!sub)
      return {
        reason: `\`${shown}\` is not a read-only command (read-only: ${name} ${Object.keys(rule.subcommands).join('|')})`,
      };
    rule = sub;
    name = `${name} ${command.argv[1]}`;
    first = 2;
  }
  const flag = flagProblem(command.argv.slice(first - 1), rule, name);
  if (flag) return { reason: flag };
  const links = lookup(LINK_FOLLOWING, program);
  const follows = links && linkFollowingFlag(command.argv, links);
  if (links && follows) {
    const reason = `\`${program} ${follows}\` follows symbolic links it finds, which can lead out of the workspace; use ${links.instead}`;
    return { reason, path: true };
  }
  const redirect = await redirectProblem(command, workspace, shown);
  if (redirect) return { reason: redirect, path: redirect.includes('`< ') };
  if (!rule.pathArgs) return undefined;
  for (const i of pathIndexes(command.argv, rule, first)) {
    const arg = command.argv[i] ?? '';
    const candidate = pathPart(arg);
    if (candidate === undefined || candidate === '') continue;
    const problem = command.globs.includes(i)
      ? await globProblem(workspace, candidate)
      : await pathProblem(workspace, candidate);
    if (problem) return { reason: `\`${shown}\`: \`${arg}\` ${problem}`, path: true };
    if (rule.noDirectories && !isOption(arg)) {
      const stat = await fs.stat(await workspace.resolve(candidate)).catch(() => undefined);
      if (stat?.isDirectory())
        return {
          reason: `\`${shown}\`: \`${arg}\` is a directory, whose links ${program} would follow; name files`,
          path: true,
        };
    }
  }
  return undefined;
}

/** Why the command's syntax keeps it out of the read-only set (a substitution, a subshell...), or undefined. */
export function syntaxReason(analysis: CommandAnalysis): string | undefined {
  const issue = analysis.issues[0];
  if (issue)
    return `\`${issue.text}\` uses ${ISSUE_WORDS[issue.kind]}, which only runs outside the read-only set`;
  if (analysis.commands.length === 0) return 'the command is empty';
  return undefined;
}
