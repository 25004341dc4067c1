// What one program invocation does, judged as acts whatever the spelling: deleting, chmod-ing or moving the
// system or home, writing persistence points and devices, powering off; plus the path rule for every path argument
// and the confirm tier. Shells and interpreters are in code-acts.ts, git, containers and kill in program-acts.ts.
import path from 'node:path';
import {
  CHMOD_OPEN_MODES,
  CONTAINER_RUNNERS,
  DENIED_ARGUMENTS,
  DENIED_PROGRAM_PREFIXES,
  DENIED_PROGRAMS,
  INTERPRETERS,
  SECRET_LOCATIONS,
  SHELLS,
  TEXT_ARGUMENTS,
} from './act-rules.js';
import { codeActs, inlineEffects, interpreterName, programTexts } from './code-acts.js';
import { confirmReason } from './confirm-tier.js';
import { findSparesGit, guardGit } from './git-guard.js';
import { awkEffects, sedEffects } from './inline-scripts.js';
import {
  type ActScope,
  destroy,
  hasFlag,
  type Invocation,
  isOption,
  operandWords,
  optionValue,
  write,
} from './invocation.js';
import { expandWord, isPathWord, resolveWord, type ShellState, type Word } from './paths.js';
import { archiveActs, containerActs, gitActs, killActs } from './program-acts.js';
import { lookup } from './program-rules.js';
import { checkPath, targetOf } from './targets.js';

const DELETERS = ['rm', 'rmdir', 'unlink', 'shred'];
/** Programs whose `NAME=value` arguments are variables, not paths. */
const ASSIGNING = ['export', 'declare', 'typeset', 'local', 'readonly', 'env', 'alias'];
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

/**
 * The shell each path argument is relative to: `git -C a -C b x` reads `a` from the command's directory, `b` from
 * `a`, and every other argument from the last `-C` directory.
 */
async function argumentShells(inv: Invocation, shell: ShellState): Promise<(word: Word) => ShellState> {
  if (inv.program !== 'git') return () => shell;
  const ownShell = new Map<Word, ShellState>();
  let current = shell;
  for (const [i, w] of inv.args.entries()) {
    const value = w.text === '-C' ? inv.args[i + 1] : undefined;
    if (!value) continue;
    ownShell.set(value, current);
    const text = expandWord(value, current);
    const resolved = text === undefined ? undefined : await resolveWord(text, current);
    current = { ...current, cwd: resolved && 'real' in resolved ? resolved.real : undefined };
  }
  const final = current;
  return (word) => ownShell.get(word) ?? final;
}

async function checkPathArguments(inv: Invocation, scope: ActScope): Promise<void> {
  const assigns = ASSIGNING.includes(inv.program ?? '');
  const shellFor = await argumentShells(inv, scope.shell);
  for (const word of pathArguments(inv)) {
    await checkPathArgument(word, assigns, { ...scope, shell: shellFor(word) });
  }
}

async function checkPathArgument(word: Word, assigns: boolean, scope: ActScope): Promise<void> {
  const text = expandWord(word, scope.shell);
  if (text === undefined) {
    // `cat $(echo ../.bashrc)`, `cat $f` in a loop: where it points is known only when it runs.
    if (!assigns) await targetOf(word, scope.shell, scope.add);
    return;
  }
  // A secret file's name counts as a path even when no such file exists yet (`cat prod.env`).
  const secretName = SECRET_LOCATIONS.names.test(path.basename(text));
  if (!secretName && !(await isPathWord(text, scope.shell))) return;
  const target = await targetOf(word, scope.shell, scope.add);
  if (target !== 'unknown') checkPath(target, scope.context, scope.add);
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
      return guardGit(operandWords(args), recursive ? 'recursive delete' : 'delete', scope);
    case 'unlink':
      return guardGit(operandWords(args), 'delete', scope);
    case 'find': {
      const firstExpression = args.findIndex((w) => /^[-(!)]/.test(w.text));
      const starts = firstExpression === -1 ? args : args.slice(0, firstExpression);
      const execs = args.flatMap((w, i) => (/^-(exec|execdir|ok|okdir)$/.test(w.text) ? [args[i + 1]] : []));
      const deletes =
        hasFlag(args, ['-delete']) || execs.some((w) => w && DELETERS.includes(path.posix.basename(w.text)));
      const from = starts.length > 0 ? starts : [dot];
      if (deletes) await destroy(from, 'find -delete', true, scope);
      for (const start of deletes ? from : []) {
        if (!findSparesGit(args, start.text)) await guardGit([start], 'find -delete', scope);
      }
      return;
    }
    case 'rsync':
      if (args.some((w) => /^--(delete|remove-source-files)/.test(w.text))) {
        const dest = operandWords(args, VALUE_OPTIONS.rsync).slice(-1);
        await destroy(dest, 'rsync --delete', true, scope);
        const excluded = args.some(
          (w, i) => /^--exclude(=|$)/.test(w.text) && /\.git/.test(w.text + (args[i + 1]?.text ?? '')),
        );
        if (!excluded) await guardGit(dest, 'rsync --delete', scope);
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
      if (program === 'mv') await guardGit(sources, 'move', scope);
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
  await archiveActs(program, inv.args, scope);
  await fileActs(inv, program, scope);
  await codeActs(inv, program, scope);
  const confirm = confirmReason(program, texts);
  if (confirm) scope.add('confirm', confirm);
}
