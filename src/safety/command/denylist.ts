// The denylist of acts, in every mode: walks a parsed command in the order it runs, tracking the directory through
// `cd`, unwraps wrappers (env, timeout, xargs, find -exec, sudo), and judges every invocation and redirection
// (command-acts.ts, command-targets.ts). Returns each act that is denied, or that needs confirming even in full mode.
import path from 'node:path';
import type { Workspace } from '../workspace.js';
import { DOWNLOADERS, EXEC_VARIABLES, PAGER_VARIABLES, PATH_VARIABLES, SHELLS } from './act-rules.js';
import { judgeInvocation } from './acts.js';
import { analyzeCommand, type CommandAnalysis, type SimpleCommand } from './analysis.js';
import type { ActScope, Invocation } from './invocation.js';
import { expandWord, realGlob, resolvePath, type ShellState, type Word } from './paths.js';
import { lookup, WRAPPERS, wrappedStart } from './program-rules.js';
import { type Add, checkPath, checkWrite, type TargetContext, targetOf } from './targets.js';
import { commandShells, isCd, wordsOf } from './working-directory.js';

export interface CommandContext {
  workspace: Workspace;
  home: string;
  env: NodeJS.ProcessEnv;
  /** `safety.allowed_paths`: globs of paths outside the workspace that commands may name. */
  allowedPaths: readonly string[];
  /** `safety.protected_paths`: globs relative to the workspace, written only after a confirmation. */
  protectedPaths: readonly string[];
  stateDir: string;
}

export interface ActVerdict {
  tier: 'deny' | 'confirm' | 'unseen';
  reason: string;
}

/** `bash -c 'bash -c ...'` deeper than this is refused rather than followed. */
const MAX_NESTING = 3;

export const programName = (word: string | undefined): string => path.posix.basename(word ?? '');

/** The command and every command it wraps (`env A=1 timeout 5 xargs rm` → env, timeout, xargs, rm), and find -exec. */
function unwrap(
  words: readonly Word[],
  shell: ShellState,
  base: Omit<Invocation, 'program' | 'args' | 'fromXargs'>,
): Invocation[] {
  const found: Invocation[] = [];
  let current = [...words];
  let fromXargs = false;
  for (let depth = 0; depth < 10 && current.length > 0; depth++) {
    const first = current[0] as Word;
    const name = expandWord(first, shell);
    const program = name === undefined ? undefined : programName(name);
    const wrapper = program === undefined ? undefined : lookup(WRAPPERS, program);
    let end = current.length;
    if (wrapper) {
      end = Math.min(
        current.length,
        wrappedStart(
          current.map((w) => w.text),
          wrapper,
        ),
      );
    }
    found.push({ ...base, program, args: current.slice(1, end), fromXargs });
    if (program === 'xargs') fromXargs = true;
    current = current.slice(end);
  }
  // find -exec CMD ... ; runs CMD.
  for (const inv of found.filter((f) => f.program === 'find')) {
    inv.args.forEach((arg, i) => {
      if (!/^-(exec|execdir|ok|okdir)$/.test(arg.text)) return;
      const end = inv.args.findIndex((a, j) => j > i && (a.text === ';' || a.text === '+'));
      const [cmd, ...args] = inv.args.slice(i + 1, end === -1 ? undefined : end);
      if (cmd) found.push({ ...base, program: programName(cmd.text), args, fromXargs: false });
    });
  }
  return found;
}

/** Programs xargs may run on its input that name no file with it. */
const XARGS_PATHLESS = ['echo', 'printf', 'true', 'false'];
/** Programs whose arguments name no file, wherever they run. */
const CWD_FREE = [...XARGS_PATHLESS, 'pwd', 'sleep', 'exit', 'return'];

/** Programs whose `VAR=value` arguments set variables for what follows. */
const ASSIGNING_PROGRAMS = ['env', 'sudo', 'export', 'declare', 'typeset', 'local', 'readonly'];

/** `VAR=value` that makes the next program run other code (GIT_SSH_COMMAND, LD_PRELOAD, a pager). */
function checkAssignment(assignment: string, add: Add): void {
  const eq = assignment.indexOf('=');
  if (eq <= 0) return;
  const [name, value] = [assignment.slice(0, eq), assignment.slice(eq + 1)];
  if (EXEC_VARIABLES.some((re) => re.test(name)))
    add('deny', `setting ${name} makes programs run other code`);
  if (PAGER_VARIABLES.names.test(name) && !PAGER_VARIABLES.harmless.test(value)) {
    add('deny', `setting ${name}=${value} makes programs run it as a pager`);
  }
}

class Judge {
  constructor(
    private readonly targets: TargetContext,
    private readonly add: Add,
  ) {}

  async analysis(analysis: CommandAnalysis, start: ShellState, depth: number): Promise<void> {
    const bomb = analysis.functions.find((f) => f.recursive);
    if (bomb) this.add('deny', `defines a function ${bomb.name} that calls itself (fork bomb)`);
    for (const h of analysis.hidden) this.add('unseen', `\`${h.text}\` is ${h.why}`);
    const shells = await commandShells(analysis.commands, start);
    const programs = new Set<string>();
    for (const [index, command] of analysis.commands.entries()) {
      const shell = shells[index] as ShellState;
      for (const assignment of command.assignments) await this.assignment(assignment, shell);
      await this.redirects(command, shell);
      const words = wordsOf(command);
      if (words.length === 0) continue;
      // After `cd "$DIR"` (or a cd through CDPATH) a relative name may point anywhere: `rm -f keep.txt` there
      // names a file no static reading can place.
      const program = words[0]?.literal ? words[0].text : undefined;
      if (shell.cwd === undefined && words.length > 1 && !isCd(words) && !CWD_FREE.includes(program ?? '')) {
        this.add(
          'unseen',
          `\`${command.text}\` runs in a directory known only when the command runs (after cd or a sourced script): its relative paths could be anywhere`,
        );
      }
      const heredoc = command.redirects.find((r) => r.operator === '<<' || r.operator === '<<<');
      const stdin = heredoc ? 'heredoc' : command.stdinPipe ? 'pipe' : 'other';
      const invocations = unwrap(words, shell, { stdin, heredoc: heredoc?.target });
      const scope: ActScope = {
        context: this.targets,
        shell,
        add: this.add,
        judgeScript: (script, piped) => this.script(script, shell, depth, piped),
      };
      for (const inv of invocations) {
        if (inv.program) programs.add(inv.program);
        else
          this.add(
            'deny',
            `the program name in \`${command.text}\` comes from an expansion, so it cannot be checked`,
          );
        // `find . | xargs cat` reads what `while read f; do cat "$f"; done` does: paths known only when it runs.
        if (inv.fromXargs && inv.program && !XARGS_PATHLESS.includes(inv.program))
          this.add(
            'unseen',
            `\`xargs ${inv.program}\` takes its arguments from its input: the paths it touches are known only when it runs`,
          );
        await judgeInvocation(inv, scope);
        await this.wrapperExtras(inv, scope, depth);
      }
    }
    const downloader = DOWNLOADERS.find((d) => programs.has(d));
    const runner =
      SHELLS.find((s) => programs.has(s)) ?? (programs.has('source') || programs.has('.') ? 'source' : '');
    if (downloader && runner) this.add('deny', `downloads with ${downloader} and runs it with ${runner}`);
  }

  /** `VAR=value`: a variable that runs code, or one whose value is a path git works in (`GIT_DIR=../x`). */
  private async assignment(assignment: string, shell: ShellState): Promise<void> {
    checkAssignment(assignment, this.add);
    const eq = assignment.indexOf('=');
    if (eq <= 0 || !PATH_VARIABLES.test(assignment.slice(0, eq))) return;
    for (const part of assignment.slice(eq + 1).split(':')) {
      if (part === '') continue;
      const target = await targetOf(
        { text: part, literal: !/[$`]/.test(part), glob: false },
        shell,
        this.add,
      );
      if (target !== 'unknown') checkPath(target, this.targets, this.add);
    }
  }

  /** env's `VAR=value` and `-S "command"`, export's assignments. */
  private async wrapperExtras(inv: Invocation, scope: ActScope, depth: number): Promise<void> {
    if (ASSIGNING_PROGRAMS.includes(inv.program ?? '')) {
      for (const w of inv.args) if (!w.text.startsWith('-')) await this.assignment(w.text, scope.shell);
    }
    if (inv.program === 'env') {
      const split = inv.args.findIndex((w) => w.text === '-S' || w.text === '--split-string');
      const script = split === -1 ? undefined : inv.args[split + 1];
      if (script) await this.script(script.text, scope.shell, depth);
    }
  }

  private async redirects(command: SimpleCommand, shell: ShellState): Promise<void> {
    for (const redirect of command.redirects) {
      const { operator, target } = redirect;
      if (operator === '<<' || operator === '<<<') continue;
      // `2>&1`, `>&-`: duplicates a descriptor, names no file.
      if (/[<>]&$/.test(operator) && /^(\d+|-)$/.test(target)) continue;
      const t = await targetOf({ text: target, literal: redirect.literal, glob: false }, shell, this.add);
      if (t === 'unknown') continue;
      checkPath(t, this.targets, this.add);
      if (operator !== '<') checkWrite(t, this.targets, this.add);
    }
  }

  private async script(script: string, shell: ShellState, depth: number, piped = false): Promise<void> {
    if (depth + 1 >= MAX_NESTING) {
      this.add('deny', 'shell scripts nested too deeply to check');
      return;
    }
    const analysis = await analyzeCommand(script);
    // A script fed by a pipe: each of its commands may read what is piped in.
    const commands = piped ? analysis.commands.map((c) => ({ ...c, stdinPipe: true })) : analysis.commands;
    await this.analysis({ ...analysis, commands }, shell, depth + 1);
  }
}

async function targetContext(context: CommandContext): Promise<TargetContext> {
  const realHome = await resolvePath(context.home);
  const home = 'real' in realHome ? realHome.real : context.home;
  const expand = (glob: string) => (glob.startsWith('~') ? path.join(home, glob.slice(1)) : glob);
  const state = await resolvePath(context.stateDir);
  return {
    root: context.workspace.root,
    home,
    stateDir: 'real' in state ? state.real : context.stateDir,
    allowedPaths: await Promise.all(context.allowedPaths.map((g) => realGlob(g, home))),
    allowedAsWritten: context.allowedPaths.map(expand),
    protectedPaths: context.protectedPaths,
    secretLink: (absolute) => context.workspace.secretLink(absolute),
  };
}

/** The shell a command line starts in: at the workspace root, the home directory with its links followed. */
export async function startShell(
  context: Pick<CommandContext, 'workspace' | 'home' | 'env'>,
): Promise<ShellState> {
  const home = await resolvePath(context.home);
  return {
    home: 'real' in home ? home.real : context.home,
    cwd: context.workspace.root,
    oldCwd: undefined,
    env: context.env,
  };
}

/**
 * Every act of the command that is denied in every mode (deny), asked even in full mode (confirm), or that no
 * static reading can see (unseen: a target or code known only when the command runs).
 */
export async function judgeCommand(
  analysis: CommandAnalysis,
  context: CommandContext,
): Promise<ActVerdict[]> {
  const verdicts = new Map<string, ActVerdict>();
  const add: Add = (tier, reason) => {
    if (!verdicts.has(reason)) verdicts.set(reason, { tier, reason });
  };
  const targets = await targetContext(context);
  await new Judge(targets, add).analysis(analysis, await startShell(context), 0);
  return [...verdicts.values()];
}
