// What one program invocation does, judged as acts whatever the spelling: deleting, chmod-ing or moving the
// system or home, writing persistence points and devices, powering off; plus the path rule for every path argument
// and the confirm tier. Shells and interpreters are in code-acts.ts, git, containers and kill in program-acts.ts.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isSecretFileName } from '../secret-files.js';
import {
  CHMOD_OPEN_MODES,
  CONTAINER_RUNNERS,
  DENIED_ARGUMENTS,
  DENIED_PROGRAM_PREFIXES,
  DENIED_PROGRAMS,
  INTERPRETERS,
  SHELLS,
} from './act-rules.js';
import { type ArgumentRules, argumentRulesOf } from './argument-rules.js';
import { atFile, type ReadArguments, readArguments } from './arguments.js';
import { codeActs, inlineEffects, interpreterName, programTexts } from './code-acts.js';
import { confirmReason } from './confirm-tier.js';
import { findSparesGit, guardGit } from './git-guard.js';
import { awkEffects, sedEffects } from './inline-scripts.js';
import { type ActScope, destroy, hasFlag, type Invocation, operandWords, write } from './invocation.js';
import { globMatches, TOO_MANY } from './operands.js';
import { expandWord, isPathWord, resolveWord, type ShellState, type Word } from './paths.js';
import { archiveActs, containerActs, gitActs, killActs } from './program-acts.js';
import { lookup } from './program-rules.js';
import { type Add, checkPath, linkItself, targetOf } from './targets.js';

const DELETERS = ['rm', 'rmdir', 'unlink', 'shred'];
/** Programs that remove a symbolic link operand itself (shred writes through it; rmdir refuses one). */
const LINK_REMOVERS = ['rm', 'unlink'];
/** Programs whose `NAME=value` arguments are variables, not paths. */
const ASSIGNING = ['export', 'declare', 'typeset', 'local', 'readonly', 'env', 'alias'];

/** The program's argument rules, an interpreter's inline-code options and a shell's `-c` among the text ones. */
function rulesOf(program: string): ArgumentRules {
  const rules = argumentRulesOf(program) ?? {};
  const code = [
    ...(lookup(INTERPRETERS, interpreterName(program)) ?? []),
    ...(SHELLS.includes(program) ? ['-c'] : []),
  ];
  return code.length === 0 ? rules : { ...rules, text: [...(rules.text ?? []), ...code] };
}

const argumentsOf = (inv: Invocation): ReadArguments => readArguments(inv.args, rulesOf(inv.program ?? ''));

/** A short option the rules do not know, written with a path right after its letter (`-o/x`, `-o../x`). */
const ATTACHED_PATH = /^-[A-Za-z](\/|\.\.(\/|$))/;

/** The arguments of a program that name paths, leaving out text (`git commit -m`, grep's pattern, echo's words). */
function pathArguments(inv: Invocation): Word[] {
  const rules = rulesOf(inv.program ?? '');
  if (rules.none) return [];
  const { operands, values, bare } = readArguments(inv.args, rules);
  const found: Word[] = [];
  for (const { kind, word } of values) {
    if (kind === 'text') continue;
    const file = kind === 'atFile' ? atFile(word.text) : undefined;
    if (file !== undefined) found.push({ ...word, text: file });
    // `curl -d "$TOKEN"` sends text: only a written value may be a file named without `@`.
    else if (kind !== 'atFile' || word.literal) found.push(word);
  }
  for (const w of bare) if (ATTACHED_PATH.test(w.text)) found.push({ ...w, text: w.text.slice(2) });
  const patternGiven = values.some((v) => rules.patternOptions?.includes(v.name));
  for (const w of operands.slice(patternGiven ? 0 : (rules.leading ?? 0))) {
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
  const targets = await linkTargets(inv, scope.shell);
  const removesLinks = LINK_REMOVERS.includes(inv.program ?? '');
  for (const word of pathArguments(inv)) {
    // `rm link` removes the link, not what it leads to: the link's own place is the path.
    const link = removesLinks ? await linkItself(word, shellFor(word)) : undefined;
    if (link) checkPath(link, scope.context, scope.add);
    else await checkPathArgument(targets.get(word) ?? word, assigns, { ...scope, shell: shellFor(word) });
  }
}

/**
 * `ln -s TARGET LINK`: a relative TARGET is read from the link's folder, not the command's
 * (`ln -s ../../packages/a node_modules/@acme/a`, as npm links a workspace package); each such word maps to its
 * path from there.
 */
async function linkTargets(inv: Invocation, shell: ShellState): Promise<Map<Word, Word>> {
  const found = new Map<Word, Word>();
  if (inv.program !== 'ln' || !hasFlag(inv.args, ['--symbolic'], 's')) return found;
  const { sources, writes } = destinations(inv, 'ln');
  const [dest] = writes;
  const to = dest && expandWord(dest, shell);
  if (to === undefined || dest?.glob) return found;
  const resolved = await resolveWord(to, shell);
  if (resolved === undefined) return found;
  // `-n`/`-T`: a LINK that is a link to a folder is replaced, not entered.
  const noDereference = hasFlag(inv.args, ['--no-dereference', '--no-target-directory'], 'nT');
  const isDirectory = await (noDereference ? fs.lstat : fs.stat)(resolved.lexical).then(
    (s) => s.isDirectory(),
    () => false,
  );
  const toFolder = argumentsOf(inv).values.some((v) => v.name === '-t' || v.name === '--target-directory');
  const intoFolder = isDirectory || toFolder || sources.length > 1;
  const folder = intoFolder ? resolved.lexical : path.dirname(resolved.lexical);
  for (const source of sources) {
    if (!source.literal || /^[/~]/.test(source.text)) continue;
    // Joined as written, not normalised: the kernel follows each link in it before the next `..`.
    found.set(source, { ...source, text: `${folder}/${source.text}` });
  }
  return found;
}

async function checkPathArgument(word: Word, assigns: boolean, scope: ActScope): Promise<void> {
  const text = expandWord(word, scope.shell);
  if (text === undefined) {
    // `cat $(echo ../.bashrc)`, `cat $f` in a loop: where it points is known only when it runs.
    if (!assigns) await targetOf(word, scope.shell, scope.add);
    return;
  }
  // A glob names its matches: each is checked where it leads (`src/*/x` through a link out of the workspace).
  if (word.glob && scope.shell.cwd !== undefined) {
    const matches = await globMatches(text, scope.shell.cwd);
    if (matches === TOO_MANY) scope.add('unseen', `\`${word.text}\` ${TOO_MANY}`);
    else {
      // The first match that breaks the path rule is named, with the glob it came from.
      let found = false;
      const add: Add = (tier, reason) => {
        found = true;
        scope.add(tier, `\`${word.text}\` matches ${reason}`);
      };
      for (const match of matches) {
        const target = await targetOf({ ...word, text: match, glob: false }, scope.shell, add);
        if (target !== 'unknown') checkPath(target, scope.context, add);
        if (found) break;
      }
    }
  }
  // A secret file's name counts as a path even when no such file exists yet (`cat prod.env`).
  const secretName = isSecretFileName(path.basename(text));
  if (!secretName && !(await isPathWord(text, scope.shell))) return;
  const target = await targetOf(word, scope.shell, scope.add);
  if (target !== 'unknown') checkPath(target, scope.context, scope.add);
}

/** Where cp, mv, install and ln write: the `-t` directory or the last operand, and each source's name in it. */
function destinations(inv: Invocation, program: string): { sources: Word[]; writes: Word[] } {
  const { operands: words, values } = argumentsOf(inv);
  const target = values.find((v) => v.name === '-t' || v.name === '--target-directory')?.word;
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
      if (recursive)
        await destroy(await followed(operandWords(args), scope.shell), 'recursive delete', true, scope);
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
        const dest = argumentsOf(inv).operands.slice(-1);
        await destroy(dest, 'rsync --delete', true, scope);
        const excluded = args.some(
          (w, i) => /^--exclude(=|$)/.test(w.text) && /\.git/.test(w.text + (args[i + 1]?.text ?? '')),
        );
        if (!excluded) await guardGit(dest, 'rsync --delete', scope);
      }
      await write(argumentsOf(inv).operands.slice(-1), scope);
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
      if (program === 'ln' && hasFlag(args, ['--symbolic'], 's')) {
        const targets = await linkTargets(inv, scope.shell);
        await write(
          sources.map((s) => targets.get(s) ?? s),
          scope,
        );
      }
      return write(writes, scope);
    }
    case 'tee':
    case 'truncate':
    case 'shred':
    case 'touch':
    case 'mkdir':
      return write(argumentsOf(inv).operands, scope);
    // uniq IN OUT writes OUT; split IN PREFIX writes PREFIXaa, PREFIXab...
    case 'uniq':
    case 'split':
      return write(argumentsOf(inv).operands.slice(1, 2), scope);
    case 'sed':
      await inlineEffects(
        sedEffects,
        programTexts(argumentsOf(inv), ['-e', '--expression'], ['-f', '--file'], inv, scope),
        scope,
      );
      if (hasFlag(args, ['--in-place']) || args.some((w) => /^-[a-zA-Z]*i/.test(w.text))) {
        const { operands, values } = argumentsOf(inv);
        const scripted = values.some((v) => ['-e', '--expression', '-f', '--file'].includes(v.name));
        return write(scripted ? operands : operands.slice(1), scope);
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
      return inlineEffects(
        awkEffects,
        programTexts(argumentsOf(inv), ['-e', '--source'], ['-f', '--file'], inv, scope),
        scope,
      );
  }
}

/** The words that do not name a link rm removes as itself (`rm -r link` deletes only the link). */
async function followed(words: readonly Word[], shell: ShellState): Promise<Word[]> {
  const kept: Word[] = [];
  for (const word of words) if (!(await linkItself(word, shell))) kept.push(word);
  return kept;
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
  // `sort -o x`, `curl -ox`, `cp -t dir`: the values of options that name what the program writes.
  await write(
    argumentsOf(inv)
      .values.filter((v) => v.kind === 'write')
      .map((v) => v.word),
    scope,
  );
  await fileActs(inv, program, scope);
  await codeActs(inv, program, scope);
  const confirm = confirmReason(program, texts);
  if (confirm) scope.add('confirm', confirm);
}
