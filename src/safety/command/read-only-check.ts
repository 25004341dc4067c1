// The read-only check: a simple command is a read-only program of the allowlist, with its flag rules kept,
// literal in-workspace path arguments and no writes. Returns why a command is not read-only, or undefined.
import { promises as fs } from 'node:fs';
import { isInside, type Workspace } from '../workspace.js';
import { analyzeCommand, type CommandAnalysis, type IssueKind, type SimpleCommand } from './analysis.js';
import { argumentRulesOf } from './argument-rules.js';
import { syntaxOf } from './arguments.js';
import { awkVerdict } from './awk-program.js';
import { programName } from './denylist.js';
import { gitGlobals, gitReflogProblem, gitRemoteProblem, nestedRepository } from './git-read-only.js';
import { endOfOptions, expandGlobs, operandIndexes } from './operands.js';
import { parseOptions } from './options.js';
import { from, pathPart, pathProblem } from './path-problem.js';
import type { ShellState } from './paths.js';
import {
  ALLOWED_PROGRAMS,
  type AllowedProgram,
  HARMLESS_REDIRECT_TARGETS,
  LINK_FOLLOWING,
  type LinkFollowing,
  lookup,
} from './program-rules.js';
import { sedVerdict } from './sed-script.js';
import { assignmentProblem, isLoneCd, JUDGED_SYNTAX, systemProgram } from './shell-forms.js';
import { commandShells, isCd, shellAfter, wordsOf } from './working-directory.js';

const ISSUE_WORDS: Record<IssueKind, string> = {
  command_substitution: 'command substitution',
  process_substitution: 'process substitution',
  parameter_expansion: 'variable expansion',
  special_parameter: 'a special parameter',
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
  hidden_continuation: 'a line continuation after $',
  parse_error: 'syntax that does not parse',
  unsupported_syntax: 'unsupported shell syntax',
};

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
    if (word.startsWith('--')) return arg.startsWith('--') && name.length > 2 && word.startsWith(name);
    return word.length === 2 && arg.startsWith(word);
  });
}

const isOption = (arg: string): boolean => arg.startsWith('-') && arg !== '-';

/**
 * Why the program's options make it write or run programs, or break its rule; undefined when they do not.
 * `args` are the words after the program (and its subcommand), globs expanded.
 */
function flagProblem(args: readonly string[], rule: AllowedProgram, name: string): string | undefined {
  const options = args.slice(0, endOfOptions(args)).filter(isOption);
  const denied = options.find(
    (a) =>
      isDeniedFlag(a, rule.deniedFlags ?? []) ||
      (/^-[^-]/.test(a) && [...a.slice(1)].some((letter) => rule.deniedLetters?.includes(letter))),
  );
  if (denied) return `\`${name} ${denied}\` can write files or run programs, so it is not read-only`;
  const operands = operandIndexes(args, rule).map((i) => args[i] ?? '');
  const pattern = rule.operandPattern;
  const odd = pattern ? operands.find((o) => !pattern.test(o)) : undefined;
  if (odd !== undefined) return `\`${name} ${odd}\` may run or read something else, so it is not read-only`;
  if (rule.onlyFlags) {
    const other = options.find((a) => !rule.onlyFlags?.includes(a.split('=')[0] ?? a));
    if (other) return `\`${name} ${other}\` is not a listing option, so it may change things`;
    if (rule.operandsNeed && operands.length > 0 && !options.some((a) => rule.operandsNeed?.includes(a))) {
      return `\`${name} ${operands[0]}\` would create or change something; only listing is read-only`;
    }
  }
  if (rule.maxOperands !== undefined) {
    const operands = operandIndexes(args, rule);
    if (operands.length > rule.maxOperands) {
      const last = args[operands[operands.length - 1] ?? 0];
      return `\`${name}\` with ${operands.length} operands writes the last one (\`${last}\`), so it is not read-only`;
    }
  }
  return undefined;
}

/** Indexes into args of the words to check as paths: all but a leading pattern (grep, rg). */
function pathIndexes(args: readonly string[], rule: AllowedProgram, program: string): number[] {
  const end = endOfOptions(args);
  let pattern = -1;
  if (rule.patternFirst) {
    // Read as the program reads its options, so the value of `--ignore-file x` is never taken for the pattern.
    const rules = argumentRulesOf(program) ?? {};
    const parsed = parseOptions(args, syntaxOf(rules));
    // The pattern given by -e/-f (or --regexp/--file) means no operand is a pattern: check them all.
    const byOption = parsed.options.some((o) => rules.patternOptions?.includes(o.name));
    if (!byOption) pattern = parsed.operands[0] ?? -1;
  }
  return args.flatMap((_a, i) => (i === end || i === pattern ? [] : [i]));
}

/** A redirect that only reads a workspace file (`< src/a.ts`) or duplicates a descriptor (`2>&1`). */
async function redirectProblem(
  command: SimpleCommand,
  workspace: Workspace,
  cwd: string,
  shown: string,
): Promise<string | undefined> {
  for (const r of command.redirects) {
    if (/^[<>]&$/.test(r.operator) && /^(\d+|-)$/.test(r.target)) continue;
    // `>&-` closes a descriptor: no file.
    if (/^[<>]&-$/.test(r.operator) && r.target === '') continue;
    if (HARMLESS_REDIRECT_TARGETS.includes(r.target)) continue;
    // A here-document or here-string without expansions only feeds the program text.
    if ((r.operator === '<<' || r.operator === '<<<') && r.literal) continue;
    if (r.operator === '<' && r.literal) {
      const problem = await pathProblem(workspace, r.target, cwd);
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

/** Why the directory a command runs in keeps it out of the read-only set (outside the workspace, unknown). */
function directoryProblem(workspace: Workspace, cwd: string | undefined, shown: string): string | undefined {
  if (cwd === undefined)
    return `\`${shown}\` runs in a directory known only when the command runs (after cd or a sourced script)`;
  if (isInside(workspace.root, cwd)) return undefined;
  return `\`${shown}\` runs in \`${cwd}\`, outside the workspace`;
}

/**
 * Why one simple command is not in the read-only set (program, flags, redirects, paths), or undefined. `shell`
 * is where it runs (working-directory.ts): its relative paths are read from there. A `cd` to a folder inside
 * the workspace is read-only.
 */
export async function readOnlyReason(
  written: SimpleCommand,
  workspace: Workspace,
  shell: ShellState,
  depth = 0,
): Promise<ReadOnlyRefusal | undefined> {
  let command = written;
  const shown = command.text.length > 60 ? `${command.text.slice(0, 57)}...` : command.text;
  const assignments = assignmentProblem(command.assignments);
  if (assignments) return { reason: `\`${shown}\`: ${assignments}` };
  // A bare `NAME=value` runs nothing.
  if (command.argv.length === 0 && command.assignments.length > 0 && command.redirects.length === 0) {
    return undefined;
  }
  const place = directoryProblem(workspace, shell.cwd, shown);
  if (place) return { reason: place, path: true };
  const cwd = shell.cwd as string;
  const words = wordsOf(command);
  if (isCd(words) && command.literal && command.redirects.length === 0) {
    const after = await shellAfter(words, shell);
    const moved = directoryProblem(workspace, after?.cwd, shown);
    return moved ? { reason: moved.replace(/runs in/, 'goes to'), path: true } : undefined;
  }
  // `/usr/bin/ls` is judged as ls.
  const system = command.argv[0] === undefined ? undefined : await systemProgram(command.argv[0]);
  if (system) command = { ...command, argv: [system, ...command.argv.slice(1)] };
  const program = command.argv[0];
  let rule = lookup(ALLOWED_PROGRAMS, program);
  // echo may print `$$`, `$?` and `$#`: numbers.
  const literal =
    command.literal ||
    (program === 'echo' && command.nonLiteral.every((i) => i > 0 && command.numeric.includes(i)));
  if (!rule || programName(program) !== program || !literal) {
    return { reason: `\`${shown}\` is not a read-only command` };
  }
  if (rule.shell) {
    const redirect = await redirectProblem(command, workspace, cwd, shown);
    if (redirect) return { reason: redirect, path: redirect.includes('`< ') };
    return shellScriptReason(command, workspace, shell, depth);
  }
  const expanded = await expandGlobs(command, cwd);
  const argv = expanded.map((a) => a.text);
  let name = program ?? '';
  let first = 1;
  let base = '';
  if (program === 'git') {
    const globals = gitGlobals(argv);
    if (typeof globals === 'string') return { reason: globals };
    for (const i of globals.directoryIndexes) {
      base = base === '' || argv[i]?.startsWith('/') ? (argv[i] ?? '') : `${base}/${argv[i]}`;
      const problem = await pathProblem(workspace, base, cwd);
      if (problem) return { reason: `\`${shown}\`: \`-C ${argv[i]}\` ${problem}`, path: true };
    }
    first = globals.subcommand;
    const nested = await nestedRepository(workspace, base === '' ? cwd : from(cwd, base));
    if (nested)
      return {
        reason: `\`${shown}\` runs git in \`${nested}\`, a repository inside the workspace whose settings (fsmonitor, filters, diff drivers) Keel does not watch: git may run programs they name`,
      };
  }
  if (rule.subcommands) {
    // `git --version` and `git --help` alone print and exit.
    const printsOnly = program === 'git' && argv.length === 2 && /^--(version|help)$/.test(argv[1] ?? '');
    const sub = printsOnly ? { pathArgs: false } : lookup(rule.subcommands, argv[first]);
    if (!sub)
      return {
        reason: `\`${shown}\` is not a read-only command (read-only: ${name} ${Object.keys(rule.subcommands).join('|')})`,
      };
    rule = sub;
    name = `${name} ${argv[first]}`;
    first += 1;
  }
  const args = argv.slice(first);
  // `%G?` and friends in a format make git verify signatures, running gpg.program.
  const signature = program === 'git' ? args.find((a) => /%G/.test(a)) : undefined;
  if (signature) return { reason: `\`${name} ${signature}\` verifies signatures, which runs gpg` };
  // A glob matching `-f` hands the program an option nobody wrote.
  const optionLike = expanded
    .slice(first, first + endOfOptions(args))
    .find((a) => a.glob && isOption(a.text));
  if (optionLike) {
    return {
      reason: `\`${shown}\`: \`${optionLike.glob}\` matches \`${optionLike.text}\`, which ${name} would read as an option`,
    };
  }
  const flag = flagProblem(args, rule, name);
  if (flag) return { reason: flag };
  const listing =
    name === 'git remote'
      ? gitRemoteProblem(args)
      : name === 'git reflog'
        ? gitReflogProblem(args)
        : undefined;
  if (listing) return { reason: listing };
  const links = lookup(LINK_FOLLOWING, program);
  const follows = links && linkFollowingFlag(command.argv, links);
  if (links && follows) {
    const reason = `\`${program} ${follows}\` follows symbolic links it finds, which can lead out of the workspace; use ${links.instead}`;
    return { reason, path: true };
  }
  const redirect = await redirectProblem(command, workspace, cwd, shown);
  if (redirect) return { reason: redirect, path: redirect.includes('`< ') };
  let indexes = rule.pathArgs ? pathIndexes(args, rule, program ?? '') : [];
  let afterEnd = endOfOptions(args);
  if (rule.script) {
    const verdict = rule.script === 'sed' ? sedVerdict(args) : awkVerdict(args);
    if ('problem' in verdict) return { reason: verdict.problem };
    // The script itself must be written out: a glob would let file names write it.
    const scripted = args.findIndex((_a, i) => !verdict.files.includes(i) && expanded[first + i]?.glob);
    if (scripted !== -1)
      return {
        reason: `\`${shown}\`: the ${program} script \`${expanded[first + scripted]?.glob}\` is a glob`,
      };
    // Input files only: every one is a plain path, whatever it looks like.
    indexes = verdict.files;
    afterEnd = -1;
  }
  for (const i of indexes) {
    const arg = args[i] ?? '';
    const word = expanded[first + i];
    const candidate = i > afterEnd ? arg : pathPart(arg);
    if (candidate === undefined || candidate === '') continue;
    const inBase = base === '' || candidate.startsWith('/') ? candidate : `${base}/${candidate}`;
    const problem = word?.problem ?? (await pathProblem(workspace, inBase, cwd));
    if (problem) {
      const glob = word?.matched ? `\`${word.glob}\` matches \`${arg}\`, which` : `\`${arg}\``;
      return { reason: `\`${shown}\`: ${glob} ${problem}`, path: true };
    }
    if (rule.noDirectories && (i > afterEnd || !isOption(arg))) {
      const stat = await fs.stat(await workspace.resolve(from(cwd, inBase))).catch(() => undefined);
      if (stat?.isDirectory())
        return {
          reason: `\`${shown}\`: \`${arg}\` is a directory, whose links ${program} would follow; name files`,
          path: true,
        };
    }
  }
  return undefined;
}

/** Nested `bash -c` deeper than this is not followed. */
const MAX_SHELL_DEPTH = 2;

/** `bash -c '<script>'` (also -lc, sh, zsh): read-only when every command of its literal script is. */
async function shellScriptReason(
  command: SimpleCommand,
  workspace: Workspace,
  shell: ShellState,
  depth: number,
): Promise<ReadOnlyRefusal | undefined> {
  const [program = '', ...args] = command.argv;
  const usage = `only \`${program} -c '<read-only commands>'\` is read-only`;
  let i = 0;
  let hasC = false;
  for (; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--login') continue;
    if (!/^-[lc]+$/.test(arg)) break;
    hasC ||= arg.includes('c');
  }
  const script = args[i];
  if (!hasC || script === undefined)
    return { reason: `\`${command.text}\` runs a script file or standard input; ${usage}` };
  if (i + 1 < args.length) return { reason: `\`${command.text}\` passes arguments to its script; ${usage}` };
  if (depth >= MAX_SHELL_DEPTH) return { reason: `\`${command.text}\` nests shells too deeply to check` };
  const inner = await analyzeCommand(script);
  if (inner.issues.some((issue) => issue.kind === 'parse_error')) {
    return { reason: `the ${program} -c script \`${script}\` does not parse as a bash command` };
  }
  const syntax = syntaxReason(inner);
  if (syntax) return { reason: syntax };
  // zsh expands `=cmd`, glob qualifiers `*(e:...:)` and more that bash does not: only plain words are judged alike.
  if (
    program === 'zsh' &&
    inner.commands.some((c) => c.globs.length > 0 || c.argv.some((a) => /^=|[()]/.test(a)))
  ) {
    return { reason: `the zsh -c script \`${script}\` uses syntax zsh reads differently from bash` };
  }
  const shells = await commandShells(inner.commands, shell);
  for (const index of inner.commands.keys()) {
    const why = await commandReason(inner.commands, index, workspace, shells, depth + 1);
    if (why) return why;
  }
  return undefined;
}

/**
 * Why the command at `index` of a command line is not read-only; a `cd` nothing runs after is. `shells` are where
 * each command runs (commandShells).
 */
export function commandReason(
  commands: readonly SimpleCommand[],
  index: number,
  workspace: Workspace,
  shells: readonly ShellState[],
  depth = 0,
): Promise<ReadOnlyRefusal | undefined> {
  const command = commands[index];
  const shell = shells[index];
  if (!command || !shell || isLoneCd(commands, index)) return Promise.resolve(undefined);
  return readOnlyReason(command, workspace, shell, depth);
}

/** Why the command's syntax keeps it out of the read-only set (a substitution, a subshell...), or undefined. */
export function syntaxReason(analysis: CommandAnalysis): string | undefined {
  const issue = analysis.issues.find((i) => !JUDGED_SYNTAX.has(i.kind));
  if (issue)
    return `\`${issue.text}\` uses ${ISSUE_WORDS[issue.kind]}, which only runs outside the read-only set`;
  if (analysis.commands.length === 0) return 'the command is empty';
  return undefined;
}
