// Shells and interpreters as acts: inline code is judged (a `bash -c` script like the command itself, sed and awk
// programs for the files and commands inside them), and code read from a pipe or built at run time is refused.
import {
  FORK_IN_LOOP,
  GIT_COMMAND_OPERANDS,
  GIT_X_RUNS,
  INTERPRETERS,
  SHELL_COMMAND_OPTIONS,
  SHELLS,
  STDIN_SCHEDULERS,
} from './act-rules.js';
import type { ReadArguments } from './arguments.js';
import { awkProgramIssue } from './awk-program.js';
import { type ScriptEffects, sedEffects } from './inline-scripts.js';
import {
  type ActScope,
  asLine,
  hasSubstitution,
  type Invocation,
  isOption,
  judgeCommandText,
  operandWords,
  optionValue,
  write,
} from './invocation.js';
import { screenActs, tmuxActs } from './multiplexer-acts.js';
import type { Word } from './paths.js';
import { lookup } from './program-rules.js';
import { checkPath, targetOf } from './targets.js';

/**
 * The program text of sed or awk: the values of its program options in any spelling (`-e X`, `-eX`, `-ne X`,
 * `--expression=X`, `--expr X`), else the first operand; none when the program is read from a file. A program read
 * from standard input is a here-document's text, or known only when it runs (reported through `scope`).
 */
export function programTexts(
  read: ReadArguments,
  options: readonly string[],
  fileOptions: readonly string[],
  inv: Pick<Invocation, 'program' | 'stdin' | 'heredoc'>,
  scope: Pick<ActScope, 'add'>,
): Word[] {
  const files = read.values.filter((v) => fileOptions.includes(v.name));
  if (files.some((v) => v.word.text === '-' || STDIN_FILES.includes(v.word.text))) {
    if (inv.stdin === 'heredoc' && inv.heredoc !== undefined)
      return [{ text: inv.heredoc, literal: !/[$`]/.test(inv.heredoc), glob: false }];
    scope.add('unseen', `\`${inv.program}\` reads its program from standard input, known only when it runs`);
    return [];
  }
  if (files.length > 0) return [];
  const given = read.values.filter((v) => options.includes(v.name)).map((v) => v.word);
  if (given.length > 0) return given;
  const first = read.operands[0];
  return first ? [first] : [];
}

/** The files and commands inside sed and awk programs are judged like the command's own. */
export async function inlineEffects(
  effectsOf: (script: string) => ScriptEffects,
  programs: readonly Word[],
  scope: ActScope,
): Promise<void> {
  for (const program of programs) {
    const effects = effectsOf(program.text);
    const word = (text: string): Word => ({ text, literal: program.literal, glob: false });
    for (const file of [...effects.reads, ...effects.writes]) {
      const target = await targetOf(word(file), scope.shell, scope.add);
      if (target !== 'unknown') checkPath(target, scope.context, scope.add);
    }
    await write(effects.writes.map(word), scope);
    for (const command of effects.commands) await scope.judgeScript(command);
    for (const command of effects.pipes) await scope.judgeScript(command, true);
    if (effects.opaque && effectsOf === sedEffects) {
      scope.add('deny', `the sed program \`${program.text}\` runs text as a shell command`);
    } else if (effects.opaque && awkProgramIssue(program.text)) {
      // `print > f`, `system(cmd)` on a variable: the file or command is known only when the program runs.
      scope.add(
        'unseen',
        `the awk program \`${program.text}\` writes to or runs what it computes at run time`,
      );
    }
  }
}

/** `alias ls='rm -rf ~'` (with `shopt -s expand_aliases`) runs its value wherever the name is used: judged as a script. */
async function aliasActs(args: readonly Word[], scope: ActScope): Promise<void> {
  for (const word of args) {
    const eq = word.text.indexOf('=');
    if (eq <= 0 || isOption(word)) continue;
    const value = { ...word, text: word.text.slice(eq + 1) };
    if (!word.literal) scope.add('deny', `\`alias\` defines code built at run time (\`${word.text}\`)`);
    else if (forkBomb(value.text)) scope.add('deny', '`alias` code forks in a loop (a fork bomb)');
    else await scope.judgeScript(value.text);
  }
}

/**
 * Commands other programs run for us: option values (SHELL_COMMAND_OPTIONS), `git submodule foreach CMD`, and what
 * `at` and `batch` read from a here-document or a pipe.
 */
async function commandValues(inv: Invocation, program: string, scope: ActScope): Promise<void> {
  const { args } = inv;
  const options = [...(lookup(SHELL_COMMAND_OPTIONS, program) ?? [])];
  if (program === 'git' && args.some((w) => GIT_X_RUNS.includes(w.text))) options.push('-x');
  for (const [i, word] of args.entries()) {
    if (word.text === '--') break;
    // `-c CMD`, a cluster ending in the letter (`script -qc CMD`, `su -lc CMD`), `--command CMD`, `--command=CMD`.
    const short = (o: string) =>
      /^-[A-Za-z]$/.test(o) && /^-[A-Za-z]+$/.test(word.text) && word.text.endsWith(o.slice(1));
    const attached = (o: string) => o.startsWith('--') && word.text.startsWith(`${o}=`);
    const option = options.find((o) => word.text === o || short(o) || attached(o));
    if (!option) continue;
    const value = attached(option) ? { ...word, text: word.text.slice(option.length + 1) } : args[i + 1];
    if (value) await judgeCommandText(program, [value], scope);
  }
  if (program === 'git') {
    const words = args.map((w) => w.text);
    for (const [sub, verb] of GIT_COMMAND_OPERANDS) {
      const at = words.findIndex((w, i) => w === sub && words[i + 1] === verb);
      if (at === -1) continue;
      const rest = args.slice(at + 2).filter((w) => !/^--(recursive|quiet)$/.test(w.text));
      if (rest.length === 0) continue;
      if (rest.some((w) => !w.literal))
        scope.add('deny', `\`git ${sub} ${verb}\` runs a command built at run time`);
      // foreach takes one command line; bisect run a program and its arguments.
      else await scope.judgeScript(verb === 'foreach' ? rest.map((w) => w.text).join(' ') : asLine(rest));
    }
  }
  if (STDIN_SCHEDULERS.includes(program)) {
    if (inv.stdin === 'pipe')
      scope.add('deny', `pipes text into \`${program}\`, which runs it as commands later`);
    else if (inv.stdin === 'heredoc' && inv.heredoc !== undefined) await scope.judgeScript(inv.heredoc);
    // `at now < job.sh`, `at -f job.sh now`: commands read from a file, run later outside Keel's reach.
    else if (!args.some((w) => /^-[a-zA-Z]*[lrdcVh]/.test(w.text)))
      scope.add('unseen', `\`${program}\` schedules commands read at run time, to run later outside Keel`);
  }
  if ((program === 'make' || program === 'gmake') && readsMakefileFromStdin(args)) {
    if (inv.stdin === 'pipe')
      scope.add('deny', `pipes a makefile into \`${program}\`, whose recipes it runs`);
    else if (inv.stdin === 'heredoc' && inv.heredoc !== undefined)
      // A recipe line is a tab-indented shell command (`@`, `-` and `+` before it only say how make runs it).
      for (const recipe of inv.heredoc.split('\n').filter((l) => l.startsWith('\t')))
        await scope.judgeScript(recipe.slice(1).replace(/^[@+-]+/, ''));
  }
}

/**
 * `make -f -`, `make --file=/dev/stdin`, `make -f/dev/fd/0`: the makefile is the command's standard input. (A `-f`
 * with no value is read the same way, should a `-` ever go missing before a here-document: grammar-shapes.ts.)
 */
function readsMakefileFromStdin(args: readonly Word[]): boolean {
  return args.some((word, i) => {
    const value = /^(-f|--file|--makefile)$/.test(word.text)
      ? (args[i + 1]?.text ?? '-')
      : /^(?:-f|--file=|--makefile=)(.+)$/.exec(word.text)?.[1];
    return value !== undefined && (value === '-' || STDIN_FILES.includes(value));
  });
}

/** Names of a command's own standard input. */
const STDIN_FILES = ['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0'];

/** python3.12 → python, perl5.36 → perl. */
export function interpreterName(program: string): string {
  return program.replace(/[\d.]+$/, '');
}

function forkBomb(code: string): boolean {
  return FORK_IN_LOOP.fork.test(code) && FORK_IN_LOOP.loop.test(code);
}

/** Shells and interpreters: their code is judged, and code they read from a pipe or build at run time refused. */
export async function codeActs(inv: Invocation, program: string, scope: ActScope): Promise<void> {
  const { args } = inv;
  if (program === 'alias') return aliasActs(args, scope);
  if (program === 'tmux') return tmuxActs(args, scope);
  if (program === 'screen') return screenActs(args, scope);
  await commandValues(inv, program, scope);
  const shell = SHELLS.includes(program);
  const codeOptions = shell ? [] : lookup(INTERPRETERS, interpreterName(program));
  if (!shell && !codeOptions && program !== 'source' && program !== '.') return;
  const flagIndex = shell ? args.findIndex((w) => /^-[A-Za-z]*c[A-Za-z]*$/.test(w.text)) : -1;
  const code = shell
    ? flagIndex === -1
      ? undefined
      : args.slice(flagIndex + 1).find((w) => !isOption(w))
    : optionValue(args, codeOptions ?? []);
  if (code) {
    if (hasSubstitution(code)) {
      scope.add('deny', `\`${program}\` runs code built at run time (\`${code.text}\`)`);
    } else if (forkBomb(code.text)) {
      scope.add('deny', `\`${program}\` code forks in a loop (a fork bomb)`);
    } else if (shell) await scope.judgeScript(code.text);
    return;
  }
  const [script] = operandWords(args, ['-m', '-r', '--require', '-I', '-M', '-W', '-X', '-o', '-O']);
  if (script && hasSubstitution(script)) {
    scope.add('deny', `\`${program}\` runs the output of a command (\`${script.text}\`)`);
    return;
  }
  // `source /dev/stdin` (`. /dev/fd/0`) runs its input as a shell does; `source` with no file or `-` reads none.
  const sourcing = program === 'source' || program === '.';
  const readsStdin = sourcing
    ? script !== undefined && STDIN_FILES.includes(script.text)
    : !script || script.text === '-' || STDIN_FILES.includes(script.text);
  if (!readsStdin) return;
  if (inv.stdin === 'pipe') {
    scope.add('deny', `pipes text into \`${program}\`, which runs it as code`);
  } else if (inv.stdin === 'heredoc' && inv.heredoc !== undefined) {
    if (forkBomb(inv.heredoc)) scope.add('deny', `\`${program}\` code forks in a loop (a fork bomb)`);
    else if (shell || sourcing) await scope.judgeScript(inv.heredoc);
  }
}
