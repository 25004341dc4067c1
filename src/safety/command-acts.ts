// What one program invocation does, judged as acts whatever the spelling: deleting, chmod-ing or moving the
// system or home, writing persistence points and devices, powering off, running text as code, git's program
// settings, container escapes; plus the path rule for every path argument and the confirm tier.
import path from 'node:path';
import {
  CHMOD_OPEN_MODES,
  CONTAINER_ESCAPE_FLAGS,
  CONTAINER_RUNNERS,
  CONTAINER_SOCKETS,
  DENIED_ARGUMENTS,
  DENIED_PROGRAM_PREFIXES,
  DENIED_PROGRAMS,
  FORK_IN_LOOP,
  GIT_EXEC_SETTINGS,
  GIT_SHELL_ALIAS,
  INTERPRETERS,
  SHELLS,
  TEXT_ARGUMENTS,
} from './act-rules.js';
import { expandWord, isPathWord, type ShellState, type Word, within } from './command-paths.js';
import { lookup } from './command-rules.js';
import {
  type Add,
  checkDestruction,
  checkPath,
  checkWrite,
  type Destruction,
  type TargetContext,
  targetOf,
} from './command-targets.js';
import { confirmReason, GLOBAL_VALUE_OPTIONS, operands } from './confirm-tier.js';
import { awkEffects, type ScriptEffects, sedEffects } from './inline-scripts.js';

/** One program run by a simple command: the command itself, or one a wrapper (env, timeout, xargs) runs. */
export interface Invocation {
  /** The program's base name; undefined when it comes from an expansion. */
  program: string | undefined;
  /** This program's own arguments (a wrapper's options, not the command it runs). */
  args: Word[];
  /** Where standard input comes from: a pipe, a here-document or here-string (`heredoc` holds it), or elsewhere. */
  stdin: 'pipe' | 'heredoc' | 'other';
  heredoc?: string;
  /** xargs appends arguments read from standard input: the real targets are unknown. */
  fromXargs: boolean;
}

export interface ActScope {
  context: TargetContext;
  shell: ShellState;
  add: Add;
  /** Judges inline shell code (`bash -c`, a here-document fed to a shell) one level deeper; `piped`: it reads a pipe. */
  judgeScript(script: string, piped?: boolean): Promise<void>;
}

const DELETERS = ['rm', 'rmdir', 'unlink', 'shred'];
/** Options taking a value, per program, so the value is not taken for an operand. */
const VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  cp: ['-t', '--target-directory', '-S', '--suffix'],
  mv: ['-t', '--target-directory', '-S', '--suffix'],
  ln: ['-t', '--target-directory', '-S', '--suffix'],
  install: ['-t', '--target-directory', '-S', '--suffix', '-m', '--mode', '-o', '--owner', '-g', '--group'],
  truncate: ['-s', '--size', '-r', '--reference'],
  shred: ['-n', '--iterations', '-s', '--size'],
  sed: ['-e', '--expression', '-f', '--file', '-l', '--line-length'],
  rsync: ['-e', '--rsh', '--exclude', '--include', '--filter', '-f'],
};

const isOption = (w: Word): boolean => w.text.startsWith('-') && w.text !== '-';
const hasFlag = (args: readonly Word[], long: readonly string[], letters = ''): boolean =>
  args.some(
    (w) =>
      long.some((l) => w.text === l || w.text.startsWith(`${l}=`)) ||
      (/^-[A-Za-z]+$/.test(w.text) && [...w.text.slice(1)].some((c) => letters.includes(c))),
  );
const hasSubstitution = (w: Word): boolean => !w.literal && /\$\(|`|<\(/.test(w.text);

/** Operand words: not options, not values of the given options, everything after `--`. */
function operandWords(args: readonly Word[], valueOptions: readonly string[] = []): Word[] {
  const found: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.text === '--') return [...found, ...args.slice(i + 1)];
    if (valueOptions.includes(w.text)) i++;
    else if (!isOption(w)) found.push(w);
  }
  return found;
}

/** The value of `-o x`, `--output x` or `--output=x`. */
function optionValue(args: readonly Word[], names: readonly string[]): Word | undefined {
  for (const [i, w] of args.entries()) {
    if (names.includes(w.text)) return args[i + 1];
    const eq = w.text.indexOf('=');
    if (eq > 0 && names.includes(w.text.slice(0, eq))) return { ...w, text: w.text.slice(eq + 1) };
  }
  return undefined;
}

/** The arguments of a program that name paths, leaving out text (`git commit -m`, grep's pattern, echo's words). */
function pathArguments(inv: Invocation): Word[] {
  const program = inv.program ?? '';
  const rule = lookup(TEXT_ARGUMENTS, program) ?? {};
  if (rule.none) return [];
  const code = lookup(INTERPRETERS, interpreterName(program)) ?? [];
  const textOptions = [...(rule.options ?? []), ...code, ...(SHELLS.includes(program) ? ['-c'] : [])];
  let leading = rule.patternOptions && hasFlag(inv.args, rule.patternOptions) ? 0 : (rule.leading ?? 0);
  const found: Word[] = [];
  let operandsOnly = false;
  for (let i = 0; i < inv.args.length; i++) {
    const w = inv.args[i] as Word;
    if (!operandsOnly && w.text === '--') {
      operandsOnly = true;
      continue;
    }
    if (!operandsOnly && isOption(w)) {
      const eq = w.text.indexOf('=');
      const name = eq === -1 ? w.text : w.text.slice(0, eq);
      // `-am "msg"`: a cluster ending in a text option's letter takes the next word as its value.
      const clusterEnd = /^-[A-Za-z]{2,}$/.test(name) ? `-${name.slice(-1)}` : undefined;
      if (textOptions.includes(name) || (clusterEnd && textOptions.includes(clusterEnd))) {
        if (eq === -1) i++;
      } else if (eq !== -1 && w.text.startsWith('--')) found.push({ ...w, text: w.text.slice(eq + 1) });
      continue;
    }
    if (leading > 0) {
      leading--;
      continue;
    }
    // `of=/dev/sda`, `DESTDIR=/usr`: the value may be a path.
    const assignment = /^[A-Za-z_][\w.-]*=/.exec(w.text);
    found.push(assignment ? { ...w, text: w.text.slice(assignment[0].length) } : w);
  }
  return found;
}

async function checkPathArguments(inv: Invocation, scope: ActScope): Promise<void> {
  for (const word of pathArguments(inv)) {
    const text = expandWord(word, scope.shell);
    if (text === undefined) continue;
    if (!(await isPathWord(text, scope.shell))) continue;
    const target = await targetOf(word, scope.shell, scope.add);
    if (target !== 'unknown') checkPath(target, scope.context, scope.add);
  }
}

async function destroy(words: readonly Word[], act: Destruction, recursive: boolean, scope: ActScope) {
  for (const word of words) {
    checkDestruction(await targetOf(word, scope.shell), word, act, recursive, scope.context, scope.add);
  }
}

async function write(words: readonly (Word | undefined)[], scope: ActScope): Promise<void> {
  for (const word of words) {
    if (!word) continue;
    const target = await targetOf(word, scope.shell, scope.add);
    if (target !== 'unknown') checkWrite(target, scope.context, scope.add);
  }
}

/** Where cp, mv, install and ln write: the `-t` directory or the last operand, and each source's name in it. */
function destinations(inv: Invocation, program: string): { sources: Word[]; writes: Word[] } {
  const words = operandWords(inv.args, lookup(VALUE_OPTIONS, program));
  const target = optionValue(inv.args, ['-t', '--target-directory']);
  const dest = target ?? (words.length > 1 || program === 'ln' ? words.at(-1) : undefined);
  const sources = target ? words : words.slice(0, -1);
  if (!dest) return { sources, writes: [] };
  const named = sources.map((s) => ({ ...dest, text: `${dest.text}/${path.basename(s.text)}` }));
  return { sources, writes: [dest, ...named] };
}

async function fileActs(inv: Invocation, program: string, scope: ActScope): Promise<void> {
  const { args } = inv;
  const recursive = hasFlag(args, ['--recursive'], 'rR');
  switch (program) {
    case 'rm':
      if (hasFlag(args, ['--no-preserve-root'])) scope.add('deny', 'rm --no-preserve-root');
      if (recursive && inv.fromXargs)
        scope.add('deny', 'recursive delete of paths read from input (xargs rm -r)');
      if (recursive) await destroy(operandWords(args), 'recursive delete', true, scope);
      return;
    case 'find': {
      const firstExpression = args.findIndex((w) => /^[-(!)]/.test(w.text));
      const starts = firstExpression === -1 ? args : args.slice(0, firstExpression);
      const execs = args.flatMap((w, i) => (/^-(exec|execdir|ok|okdir)$/.test(w.text) ? [args[i + 1]] : []));
      const deletes =
        hasFlag(args, ['-delete']) || execs.some((w) => w && DELETERS.includes(path.posix.basename(w.text)));
      if (deletes) await destroy(starts.length > 0 ? starts : [dot], 'find -delete', true, scope);
      return;
    }
    case 'rsync':
      if (args.some((w) => /^--(delete|remove-source-files)/.test(w.text))) {
        await destroy(operandWords(args, VALUE_OPTIONS.rsync).slice(-1), 'rsync --delete', true, scope);
      }
      await write(operandWords(args, VALUE_OPTIONS.rsync).slice(-1), scope);
      return;
    case 'chmod':
    case 'chown':
    case 'chgrp': {
      const words = operandWords(args);
      const targets = hasFlag(args, ['--reference']) ? words : words.slice(1);
      if (recursive && inv.fromXargs)
        scope.add('deny', `recursive ${program} of paths read from input (xargs)`);
      if (program === 'chmod' && recursive && words[0] && CHMOD_OPEN_MODES.includes(words[0].text)) {
        scope.add('deny', `chmod -R ${words[0].text} opens every file to everyone`);
      }
      return destroy(targets, program === 'chmod' ? 'chmod' : 'chown', recursive, scope);
    }
    case 'mv':
    case 'cp':
    case 'install':
    case 'ln': {
      const { sources, writes } = destinations(inv, program);
      if (program === 'mv') await destroy(sources, 'move', false, scope);
      // A link made to a persistence point is a way to write it later (`ln -s ~/.bashrc x && echo >> x`).
      if (program === 'ln' && hasFlag(args, ['--symbolic'], 's')) await write(sources, scope);
      return write(writes, scope);
    }
    case 'tee':
    case 'truncate':
    case 'shred':
      return write(operandWords(args, lookup(VALUE_OPTIONS, program)), scope);
    case 'sed':
      await inlineEffects(sedEffects, programTexts(args, ['-e', '--expression'], ['-f', '--file']), scope);
      if (hasFlag(args, ['--in-place']) || args.some((w) => /^-[a-zA-Z]*i/.test(w.text))) {
        const words = operandWords(args, VALUE_OPTIONS.sed);
        return write(hasFlag(args, ['-e', '--expression', '-f', '--file']) ? words : words.slice(1), scope);
      }
      return;
    case 'dd':
      return write(
        args.filter((w) => w.text.startsWith('of=')).map((w) => ({ ...w, text: w.text.slice(3) })),
        scope,
      );
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk':
      return inlineEffects(awkEffects, programTexts(args, [], ['-f', '--file']), scope);
    case 'curl':
      return write([optionValue(args, ['-o', '--output'])], scope);
    case 'wget':
      return write([optionValue(args, ['-O', '--output-document'])], scope);
  }
}

const dot: Word = { text: '.', literal: true, glob: false };

/** The program text of sed or awk: the values of `-e`, else the first operand (none when read from a file). */
function programTexts(
  args: readonly Word[],
  options: readonly string[],
  fileOptions: readonly string[],
): Word[] {
  if (hasFlag(args, fileOptions)) return [];
  const given = args.flatMap((w, i) =>
    options.includes(w.text) && args[i + 1] ? [args[i + 1] as Word] : [],
  );
  if (given.length > 0) return given;
  const first = operandWords(args, [...options, '-v', '--assign', '-F', '-l', '--line-length'])[0];
  return first ? [first] : [];
}

/** The files and commands inside sed and awk programs are judged like the command's own. */
async function inlineEffects(
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
    }
  }
}

/** python3.12 → python, perl5.36 → perl. */
export function interpreterName(program: string): string {
  return program.replace(/[\d.]+$/, '');
}

function forkBomb(code: string): boolean {
  return FORK_IN_LOOP.fork.test(code) && FORK_IN_LOOP.loop.test(code);
}

/** Shells and interpreters: their code is judged, and code they read from a pipe or build at run time refused. */
async function codeActs(inv: Invocation, program: string, scope: ActScope): Promise<void> {
  const { args } = inv;
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
  const readsStdin = !script || script.text === '-' || script.text === '/dev/stdin';
  if (!readsStdin || program === 'source' || program === '.') return;
  if (inv.stdin === 'pipe') {
    scope.add('deny', `pipes text into \`${program}\`, which runs it as code`);
  } else if (inv.stdin === 'heredoc' && inv.heredoc !== undefined) {
    if (forkBomb(inv.heredoc)) scope.add('deny', `\`${program}\` code forks in a loop (a fork bomb)`);
    else if (shell) await scope.judgeScript(inv.heredoc);
  }
}

/** A git setting that makes git run a program. */
export function gitExecSetting(key: string, value: string | undefined): boolean {
  if (GIT_SHELL_ALIAS.test(key)) return value === undefined || value.startsWith('!');
  return GIT_EXEC_SETTINGS.some((re) => re.test(key));
}

function gitActs(args: readonly Word[], add: Add): void {
  for (const [i, w] of args.entries()) {
    const next = args[i + 1]?.text ?? '';
    const setting =
      w.text === '-c' ? next : w.text.startsWith('-c') && w.text.length > 2 ? w.text.slice(2) : '';
    const [key = '', ...rest] = setting.split('=');
    if (setting && gitExecSetting(key, rest.length > 0 ? rest.join('=') : undefined)) {
      add('deny', `\`git -c ${key}\` makes git run a program`);
    }
    const env = w.text === '--config-env' ? next : w.text.startsWith('--config-env=') ? w.text.slice(13) : '';
    if (env && gitExecSetting(env.split('=')[0] ?? '', undefined)) {
      add('deny', `\`git --config-env ${env}\` makes git run a program`);
    }
  }
  const texts = args.map((w) => w.text);
  const words = operands(texts, GLOBAL_VALUE_OPTIONS.git);
  if (words[0] !== 'config') return;
  const rest = words.slice(1);
  const newStyle = ['set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(rest[0] ?? '');
  const keyed = newStyle ? rest.slice(1) : rest;
  const writes =
    newStyle ||
    keyed.length >= 2 ||
    hasFlag(
      args,
      ['--add', '--unset', '--unset-all', '--replace-all', '--rename-section', '--remove-section', '--edit'],
      'e',
    );
  if (!writes) return;
  if (hasFlag(args, ['--global', '--system'])) {
    add('deny', '`git config --global` (or --system) changes the settings of every repository');
  }
  const [key = '', value] = keyed;
  if (gitExecSetting(key, value)) add('deny', `\`git config ${key}\` makes git run a program`);
}

async function containerActs(args: readonly Word[], scope: ActScope): Promise<void> {
  const words = operands(
    args.map((w) => w.text),
    GLOBAL_VALUE_OPTIONS.docker,
  );
  const sub = words[0] === 'container' ? words[1] : words[0];
  if (sub !== 'run' && sub !== 'create') return;
  for (const [i, w] of args.entries()) {
    const joined = `${w.text}=${args[i + 1]?.text ?? ''}`;
    if (CONTAINER_ESCAPE_FLAGS.some((re) => re.test(w.text) || re.test(joined))) {
      scope.add('deny', `\`${w.text}\` gives the container the host`);
    }
    const volume = w.text === '-v' || w.text === '--volume' ? args[i + 1] : undefined;
    const inline = /^--volume=/.test(w.text) ? w.text.slice(9) : undefined;
    const mount =
      w.text === '--mount' ? args[i + 1]?.text : w.text.startsWith('--mount=') ? w.text.slice(8) : '';
    const source =
      volume?.text.split(':')[0] ??
      inline?.split(':')[0] ??
      /(?:^|,)(?:source|src)=([^,]+)/.exec(mount ?? '')?.[1];
    if (!source || !/^[/~.]/.test(source)) continue;
    const word: Word = { text: source, literal: volume?.literal ?? true, glob: false };
    const target = await targetOf(word, scope.shell);
    if (target !== 'unknown' && CONTAINER_SOCKETS.some((s) => within(s, target.real ?? target.lexical))) {
      scope.add('deny', `mounting \`${source}\` gives the container control of the host`);
    }
    checkDestruction(target, word, 'mount', false, scope.context, scope.add);
    if (target !== 'unknown') checkPath(target, scope.context, scope.add);
  }
}

function killActs(program: string, texts: readonly string[], add: Add): void {
  if (program === 'kill') {
    let i = 0;
    if (texts[0] === '-s' || texts[0] === '-n') i = 2;
    else if (texts[0]?.startsWith('-') && texts[0] !== '--' && texts.length > 1) i = 1;
    if (texts[i] === '--') i++;
    if (texts.slice(i).includes('-1') || (texts.length === 1 && texts[0] === '-1')) {
      add('deny', '`kill -1` signals every process');
    }
    return;
  }
  const all = texts.some((t) => /^(-u|-U|--user|--uid|--euid)(=|$)/.test(t) || /^(\.|\.\*)$/.test(t));
  if (all) add('deny', `\`${program}\` kills every process of a user`);
}

/** Every act of one invocation that is denied or needs confirming, reported through scope.add. */
export async function judgeInvocation(inv: Invocation, scope: ActScope): Promise<void> {
  await checkPathArguments(inv, scope);
  const program = inv.program;
  if (program === undefined) return;
  const denied = lookup(DENIED_PROGRAMS, program);
  if (denied) scope.add('deny', `${program}: ${denied}`);
  for (const [prefix, why] of Object.entries(DENIED_PROGRAM_PREFIXES)) {
    if (program.startsWith(prefix)) scope.add('deny', `${program}: ${why}`);
  }
  const texts = inv.args.map((w) => expandWord(w, scope.shell) ?? w.text);
  const byArguments = lookup(DENIED_ARGUMENTS, program);
  if (byArguments?.args.test(texts.join(' '))) scope.add('deny', `\`${program}\` ${byArguments.why}`);
  if (program === 'kill' || program === 'pkill' || program === 'killall') killActs(program, texts, scope.add);
  if (program === 'git') gitActs(inv.args, scope.add);
  if (CONTAINER_RUNNERS.includes(program)) await containerActs(inv.args, scope);
  await fileActs(inv, program, scope);
  await codeActs(inv, program, scope);
  const confirm = confirmReason(program, texts);
  if (confirm) scope.add('confirm', confirm);
}
