// Judging the places a command touches: every path argument (outside the workspace, secret locations), writes
// (persistence points, devices, protected paths) and destructive acts (recursive delete, chmod, chown, move)
// on the system, the home directory or the whole workspace.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { secretLocation } from '../secret-files.js';
import { DEVICE_ROOTS, HARMLESS_DEVICES, PERSISTENCE_POINTS, SYSTEM_DIRECTORIES } from './act-rules.js';
import {
  expandWord,
  globBase,
  matchingGlob,
  resolveWord,
  type ShellState,
  type Word,
  within,
} from './paths.js';

export interface TargetContext {
  root: string;
  home: string;
  stateDir: string;
  /** `safety.allowed_paths`, absolute with symlinks of their fixed part followed. */
  allowedPaths: readonly string[];
  /** The same globs as the user wrote them (`~` expanded), to tell whether one names a secret location itself. */
  allowedAsWritten: readonly string[];
  /** `safety.protected_paths`, relative to the workspace. */
  protectedPaths: readonly string[];
  /** The secret file a file is a hard link to (the workspace's secretLink). */
  secretLink?: (absolute: string) => string | undefined;
}

/** A path a command names, as written and resolved. */
export interface Target {
  shown: string;
  lexical: string;
  real: string | undefined;
  problem?: string;
}

/**
 * Reports an act: `deny` in every mode, `confirm` asked even in full mode, `unseen` a target or code known only
 * when the command runs (asked in full mode unless commands run in the sandbox).
 */
export type Add = (tier: 'deny' | 'confirm' | 'unseen', reason: string) => void;

/** A glob matching everything in its directory (`*`, `.*`) stands for the directory itself. */
const WHOLE_DIRECTORY = /^(\.?\*+|\*\/?|\.\[!.\]\*)$/;

/**
 * The target a word names; 'unknown' when it holds an expansion the checker cannot know. A relative path after a
 * `cd` to such a place is unknown too, and reported through `add` (the place it names cannot be checked).
 */
export async function targetOf(word: Word, shell: ShellState, add?: Add): Promise<Target | 'unknown'> {
  const text = expandWord(word, shell);
  if (text === undefined) {
    add?.('unseen', `\`${word.text}\` names a path known only when the command runs`);
    return 'unknown';
  }
  // `~-` is $OLDPWD: a directory the command's environment may name (an editor's terminal), unknown here.
  if (/^~-(\/|$)/.test(text) && (shell.oldLogical ?? shell.oldCwd) === undefined) {
    add?.('unseen', `\`${word.text}\` names $OLDPWD, a directory known only when the command runs`);
    return 'unknown';
  }
  if (shell.cwd === undefined && !/^[/~]/.test(text)) {
    add?.(
      'deny',
      `\`${word.text}\` is relative to a directory known only when the command runs (after cd or a sourced script)`,
    );
    return 'unknown';
  }
  let named = text;
  if (word.glob) {
    const scan = picomatch.scan(text);
    named = WHOLE_DIRECTORY.test(scan.glob) ? globBase(text) : text;
  }
  const resolved = await resolveWord(named, shell);
  if (resolved === undefined) return 'unknown';
  const { lexical } = resolved;
  return 'real' in resolved
    ? { shown: word.text, lexical, real: resolved.real }
    : { shown: word.text, lexical, real: undefined, problem: resolved.problem };
}

/**
 * The symbolic link a word names, not followed, when the program acts on the link itself (`rm link`, `unlink link`
 * remove the link, wherever it leads): its folder resolved, the link kept. Undefined when the word names no link,
 * or follows it: a trailing slash (`rm -r link/`), a glob, an expansion, or an unknown directory.
 */
export async function linkItself(word: Word, shell: ShellState): Promise<Target | undefined> {
  const text = expandWord(word, shell);
  if (text === undefined || word.glob || /\/\.?$/.test(text) || ['.', '..'].includes(path.basename(text)))
    return undefined;
  const folder = await resolveWord(path.dirname(text), shell);
  const whole = await resolveWord(text, shell);
  if (!folder || !whole || !('real' in folder)) return undefined;
  const real = path.join(folder.real, path.basename(text));
  const stat = await fs.lstat(real).catch(() => undefined);
  return stat?.isSymbolicLink() ? { shown: word.text, lexical: whole.lexical, real } : undefined;
}

const both = (t: Target): string[] => (t.real && t.real !== t.lexical ? [t.lexical, t.real] : [t.lexical]);
const show = (t: Target): string => (t.real && t.real !== t.shown ? `${t.shown} (${t.real})` : t.shown);
const harmlessDevice = (p: string): boolean => HARMLESS_DEVICES.some((d) => d.test(p));

/** An allowed glob names a secret itself when its fixed part is inside the secret location (or names the file). */
function namesSecret(secret: { root: string }, target: string, context: TargetContext): boolean {
  return context.allowedAsWritten.some((glob) => {
    if (!picomatch(glob, { dot: true })(target) && glob !== target) return false;
    const base = picomatch.scan(glob).base;
    return base !== '' && within(secret.root, base);
  });
}

/** The path rule: names no secret location, and stays inside the workspace unless an allowed path covers it. */
export function checkPath(t: Target, context: TargetContext, add: Add): void {
  if (both(t).some(harmlessDevice)) return;
  // Where it leads first: `here/../.ssh/id_rsa` is in ~/.ssh, which says more than its name.
  for (const p of both(t).reverse()) {
    const secret = secretLocation(p, context.home);
    if (secret && !namesSecret(secret, p, context)) {
      add('deny', `\`${t.shown}\` is in a secret location (${secret.name})`);
      return;
    }
  }
  if (t.real === undefined) {
    add('deny', `\`${t.shown}\` cannot be checked (${t.problem ?? 'unknown'})`);
    return;
  }
  // Another name of a secret file (a hard link in a dotfiles checkout) is the secret, wherever it is.
  const linked = context.secretLink?.(t.real);
  if (linked !== undefined) {
    add('deny', `\`${t.shown}\` is a hard link to the secret file ${linked}`);
    return;
  }
  if (within(context.root, t.real)) return;
  if (matchingGlob(t.real, context.allowedPaths)) return;
  add(
    'deny',
    `\`${show(t)}\` is outside the workspace; add a glob to safety.allowed_paths to allow paths there`,
  );
}

function persistencePoint(p: string, home: string): string | undefined {
  for (const entry of PERSISTENCE_POINTS.home) if (within(path.join(home, entry), p)) return `~/${entry}`;
  for (const entry of PERSISTENCE_POINTS.system) if (within(entry, p)) return entry;
  return PERSISTENCE_POINTS.anywhere.some((re) => re.test(p))
    ? 'git hooks and config, agent settings'
    : undefined;
}

function protectedPath(p: string, context: TargetContext): string | undefined {
  if (within(context.stateDir, p)) return "Keel's state directory";
  if (!within(context.root, p)) return undefined;
  const rel = path.relative(context.root, p);
  if (rel === '.keel.yaml' || within('.keel', rel)) return "Keel's project config";
  if (within('.git', rel)) return 'git internals';
  const glob = context.protectedPaths.find((g) => picomatch(g, { dot: true })(rel) || within(g, rel));
  return glob === undefined ? undefined : `protected path ${glob}`;
}

/** A write: never to a persistence point or a device; a protected path only with a confirmation. */
export function checkWrite(t: Target, context: TargetContext, add: Add): void {
  const paths = both(t);
  if (paths.some(harmlessDevice)) return;
  for (const p of paths) {
    const point = persistencePoint(p, context.home);
    if (point) {
      add('deny', `writes \`${show(t)}\`, which runs code later (${point})`);
      return;
    }
    const device = DEVICE_ROOTS.find((root) => within(root, p));
    if (device) {
      add('deny', `writes \`${show(t)}\`: a device or kernel file under ${device}`);
      return;
    }
  }
  const guarded = paths.map((p) => protectedPath(p, context)).find((g) => g !== undefined);
  if (guarded) add('confirm', `writes \`${show(t)}\` (${guarded})`);
}

export type Destruction =
  | 'recursive delete'
  | 'find -delete'
  | 'rsync --delete'
  | 'chmod'
  | 'chown'
  | 'move'
  | 'mount';

/** What a destructive act would take away when aimed at `p`, or undefined when that is not catastrophic. */
function catastrophe(p: string, act: Destruction, context: TargetContext): string | undefined {
  if (p === '/') return 'the root directory';
  if (p === context.home) return 'the home directory';
  if (within(p, context.home)) return `${p}, which holds the home directory`;
  for (const dir of SYSTEM_DIRECTORIES) {
    if (p === dir) return `the system directory ${dir}`;
    if (within(p, dir)) return `${p}, which holds the system directory ${dir}`;
  }
  if (p !== context.root && within(p, context.root)) return `${p}, which holds the workspace`;
  const wipesWorkspace = act === 'recursive delete' || act === 'move';
  if (wipesWorkspace && p === context.root) return 'the whole workspace';
  return undefined;
}

/**
 * A destructive act on a target: refused when it hits the system, home, `/` or the whole workspace; a recursive
 * one on a target known only at run time is refused too, and a recursive chmod or chown inside is confirmed.
 */
export function checkDestruction(
  t: Target | 'unknown',
  word: Word,
  act: Destruction,
  recursive: boolean,
  context: TargetContext,
  add: Add,
): void {
  if (t === 'unknown') {
    if (recursive) add('deny', `${act} of \`${word.text}\`, which is only known when the command runs`);
    return;
  }
  for (const p of both(t)) {
    const what = catastrophe(p, act, context);
    if (what) {
      add('deny', `${act} of \`${t.shown}\` hits ${what}`);
      return;
    }
  }
  const recursiveInside =
    recursive && (act === 'chmod' || act === 'chown') && t.real !== undefined && within(context.root, t.real);
  if (recursiveInside) add('confirm', `recursive ${act} of \`${t.shown}\` changes every file below it`);
}
