// `keel undo [id] [--list]`: puts the workspace back as it was before the last run (or chat turn), or before one
// checkpoint, from the checkpoints Keel takes before every call that may change files.
import { realpath } from 'node:fs/promises';
import { preview, typedText } from '../agent/rewind.js';
import {
  COPIES_NOTE,
  DEFAULT_MAX_FILE_MB,
  DEFAULT_MAX_IGNORED_KB,
  openCheckpointStore,
} from '../checkpoint/checkpointer.js';
import {
  type Checkpoint,
  checkpointSince,
  type FileChange,
  type RestoreResult,
  type SkippedPath,
  undoTarget,
} from '../checkpoint/checkpoints.js';
import { treeStamp } from '../checkpoint/ignored-files.js';
import { largeNow } from '../checkpoint/restore-checks.js';
import type { GitSpawn } from '../checkpoint/shadow-git.js';
import { restoreKeepingUserFiles } from '../checkpoint/user-files.js';
import { readHead } from '../checkpoint/user-repo.js';
import { dataDir, stateDir } from '../config/paths.js';
import { ExitCode } from '../core/errors.js';
import { shownPath } from '../core/shown-path.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { turnAt } from '../session/message-times.js';
import { readSession, sessionPath } from '../session/session-file.js';
import { sessionDir } from '../session/session-list.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { sanitize } from '../ui/sanitize.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure } from './report.js';
import { loadConfigFor } from './run-options.js';

export interface UndoOptions extends GlobalOptions {
  list?: boolean;
  /** How the checkpoint store's git processes start; default: spawned from this process. */
  startGit?: GitSpawn;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Local time, to the second: `2026-05-01 10:19:08`. */
function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const changeWord: Record<FileChange['status'], string> = { A: 'created', M: 'modified', D: 'deleted' };

function changedLine(c: Checkpoint, gitMissing: boolean): string {
  if (c.changed === undefined) {
    if (c.paths.length > 0) return `paths: ${c.paths.map(shownPath).join(', ')}`;
    return gitMissing && c.tool !== 'undo' ? 'not covered: shell changes cannot be undone without git' : '';
  }
  if (c.changed.length === 0) return 'changed after: nothing';
  const shown = c.changed.slice(0, 8).map((f) => `${shownPath(f.path)} (${changeWord[f.status]})`);
  const more = c.changed.length > 8 ? `, and ${c.changed.length - 8} more` : '';
  return `changed after: ${shown.join(', ')}${more}`;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The files a checkpoint names but does not hold (over checkpoints.max_file_mb): an undo cannot bring them back. */
function largeLine(c: Checkpoint): string {
  const large = c.large ?? [];
  if (large.length === 0) return '';
  const shown = large.slice(0, 5).map((f) => `${shownPath(f.path)} (${mb(f.size)})`);
  const more = large.length > 5 ? `, and ${large.length - 5} more` : '';
  return `over checkpoints.max_file_mb, named by size and hash only (undo cannot restore them): ${shown.join(', ')}${more}`;
}

function formatList(root: string, checkpoints: Checkpoint[], gitMissing: boolean): string {
  const lines = [`checkpoints of ${root}, newest first (keel undo <id> goes back to before that call):`];
  if (gitMissing) lines.push(`note: ${COPIES_NOTE}`);
  for (const c of checkpoints) {
    const turn = c.turn !== undefined ? ` turn ${c.turn}` : '';
    const start = c.first ? '  [start of run]' : '';
    lines.push(`${c.id}  ${localTime(c.time)}  run ${c.run}${turn}  ${c.tool}: ${c.summary}${start}`);
    for (const line of [changedLine(c, gitMissing), largeLine(c)]) if (line) lines.push(`    ${line}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * When the newest run's calls are interleaved with another run's (two Keels in one workspace), undo goes back only
 * past its calls since the other's last one: going further would take the other run's changes too. Said, with the
 * id that goes back to the run's start.
 */
export function interleaved(checkpoints: readonly Checkpoint[], target: Checkpoint): string | undefined {
  const at = checkpoints.indexOf(target);
  const older = checkpoints.slice(at + 1);
  const earlier = older.filter((c) => c.run === target.run);
  if (earlier.length === 0) return undefined;
  const start = earlier[earlier.length - 1] as Checkpoint;
  const others = [
    ...new Set(
      older
        .slice(0, older.indexOf(start))
        .filter((c) => c.run !== target.run)
        .map((c) => c.run),
    ),
  ];
  return (
    `run ${target.run} ran alongside ${others.map((r) => `run ${r}`).join(', ')} in this workspace: this undo takes back ` +
    `only its ${at + 1} call${at === 0 ? '' : 's'} since then. keel undo ${start.id} goes back to its start, taking the other run's changes since then too.`
  );
}

/** `20261123-101908`, as run ids are stamped. */
function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** A HEAD as readHead gives it, in a few words: `main at 1a2b3c4`, `1a2b3c4 (detached)`. */
function headWords(head: string | undefined): string {
  if (head === undefined) return 'no .git';
  const branch = (ref: string) => ref.replace(/^refs\/heads\//, '');
  const space = head.indexOf(' ');
  if (space !== -1) return `${branch(head.slice(0, space))} at ${head.slice(space + 1, space + 8)}`;
  if (head.startsWith('refs/')) return `${branch(head)} (no commits)`;
  return `${head.slice(0, 7)} (detached)`;
}

/** Why a path is not in a checkpoint, in the words `keel undo` prints; `headNow`: where git's HEAD points now. */
function skippedLine(s: SkippedPath, limitKb: number, headNow: string | undefined): string {
  const kb = s.size === undefined ? '' : `${Math.ceil(s.size / 1024)} KB, `;
  switch (s.reason) {
    case 'size':
      return `${shownPath(s.path)} (git-ignored, ${kb}over checkpoints.max_ignored_file_kb = ${limitKb})`;
    case 'limit':
      return `${shownPath(s.path)} (git-ignored, ${kb}past the ignored files one checkpoint keeps)`;
    case 'generated':
      return `${shownPath(s.path)} (generated tree: rebuild it)`;
    case 'encoding':
      return `${shownPath(s.path)} (its name is not UTF-8: no checkpoint can hold it)`;
    case 'nested':
      return `${shownPath(s.path)} (inside the nested git repository ${s.repo ?? ''}: checkpoints do not hold its files; its own git may have them: git -C ${s.repo ?? '.'} status)`;
    case 'history':
      return s.head === undefined
        ? `${shownPath(s.path)} (git's own history: checkpoints never copy .git)`
        : `${shownPath(s.path)} (git's history moved since: HEAD was ${headWords(s.head)}, now ${headWords(headNow)}; commits and branches stay as they are)`;
  }
}

/** A generated tree that looks from its top as the checkpoint recorded it: nothing to rebuild. */
function unchangedTree(root: string, s: SkippedPath): boolean {
  return s.reason === 'generated' && s.stamp !== undefined && treeStamp(root, s.path) === s.stamp;
}

/** What the checkpoint left out, said before the restore starts. */
function cannotRestore(
  root: string,
  target: Checkpoint,
  limitKb: number,
  headNow: string | undefined,
): string[] {
  // `.git` is named only when its HEAD moved since, or when the checkpoint did not record where it pointed; a
  // generated tree (node_modules) only when its entries changed since.
  const skipped = (target.skipped ?? []).filter(
    (s) => (s.reason !== 'history' || s.head !== headNow) && !unchangedTree(root, s),
  );
  if (skipped.length === 0 && !target.skipped_more) return [];
  const lines = ['keel undo cannot restore these (they are not in the checkpoint):'];
  for (const s of skipped) lines.push(`  ${skippedLine(s, limitKb, headNow)}`);
  if (target.skipped_more) lines.push(`  and ${target.skipped_more} more`);
  return lines;
}

const largeWord = {
  unchanged: 'unchanged since then: nothing to restore',
  changed: 'changed since then: NOT restored',
  deleted: 'deleted since then: NOT restored',
} as const;

/** Files too large to copy into the checkpoint: recorded by size and hash, so undo can say whether anything is lost. */
function largeLines(large: NonNullable<RestoreResult['large']>): string[] {
  if (large.length === 0) return [];
  const lines = ['over checkpoints.max_file_mb, so recorded by size and hash only (never copied):'];
  for (const f of large) {
    lines.push(`  ${shownPath(f.path)} (${mb(f.size)}, ${largeWord[f.now]})`);
  }
  return lines;
}

/** The configured size limit; a config that does not load leaves undo working with the default. */
async function limits(options: UndoOptions): Promise<{ kb: number; mb: number }> {
  try {
    const { checkpoints } = (await loadConfigFor(options)).config;
    return { kb: checkpoints.max_ignored_file_kb, mb: checkpoints.max_file_mb };
  } catch {
    return { kb: DEFAULT_MAX_IGNORED_KB, mb: DEFAULT_MAX_FILE_MB };
  }
}

const restoreWord: Record<FileChange['status'], string> = { A: 'brought back', M: 'restored', D: 'removed' };

/** The workspace's real path and its checkpoint store, as `keel undo` and the chat's /undo and /rewind open them. */
async function openStore(options: UndoOptions) {
  const root = await realpath(await resolveWorkspaceDir(options.cwd));
  const { kb: limitKb, mb: limitMb } = await limits(options);
  const state = stateDir(process.env);
  const store = await openCheckpointStore({
    root,
    stateDir: state,
    env: process.env,
    maxIgnoredKb: limitKb,
    maxFileMb: limitMb,
    ...(options.startGit ? { startGit: options.startGit } : {}),
  });
  return { root, limitKb, state, store };
}

/** `undoing session <id>, turn "<first words>"`: which session's turn a checkpoint belongs to, when it was saved. */
async function sessionLine(root: string, target: Checkpoint): Promise<string | undefined> {
  if (target.session === undefined) return undefined;
  const record = await readSession(sessionPath(sessionDir(dataDir(process.env), root), target.session));
  const text = record && turnAt(record, target.time);
  const turn = text === undefined ? '' : `, turn "${preview(typedText(text), 50)}"`;
  return `undoing session ${target.session}${turn}`;
}

/** Restores `target` (the user's own files kept as they are) and prints what changed. */
async function restore(
  opened: Awaited<ReturnType<typeof openStore>>,
  target: Checkpoint,
  what: string,
  out: CommandOutput,
  /** Said after what cannot be restored, before the restore: whose turn this is. */
  session?: string,
  /** How to take the undo back, from where it was asked. */
  reverse = (undoId: string) => `to reverse this undo, run keel undo again (or keel undo ${undoId})`,
): Promise<void> {
  const { root, limitKb, state, store } = opened;
  const warnings = cannotRestore(root, target, limitKb, await readHead(root));
  // Files too large to copy: said before acting too, with whether each is still as the checkpoint recorded it.
  warnings.push(...largeLines(await largeNow(root, target.large ?? [])));
  if (session) warnings.push(session);
  if (warnings.length > 0) out.print(sanitize(`${warnings.join('\n')}\n`));
  const result = await restoreKeepingUserFiles(store, target, `undo-${stamp()}-${process.pid}`, {
    stateDir: state,
    root,
  });
  const lines = [`restored ${root} to ${what}: checkpoint ${target.id} of ${localTime(target.time)}`];
  for (const change of result.changes)
    lines.push(`  ${restoreWord[change.status].padEnd(12)} ${shownPath(change.path)}`);
  const count = result.changes.length;
  lines.push(
    count === 0
      ? 'nothing differed from that checkpoint; no file was changed'
      : `${count} file${count === 1 ? '' : 's'} changed`,
  );
  const restored = new Set(result.changes.map((c) => c.path));
  const overwritten = (result.handEdits ?? []).filter((c) => restored.has(c.path));
  if (overwritten.length > 0) {
    lines.push(
      `changed since Keel's last change (not by Keel), now overwritten; kept in checkpoint ${result.undoId}:`,
    );
    for (const c of overwritten) lines.push(`  ${changeWord[c.status].padEnd(12)} ${shownPath(c.path)}`);
  }
  if (result.left && result.left.length > 0) {
    lines.push('left as they are (their names are not UTF-8: no checkpoint can hold them):');
    for (const path of result.left) lines.push(`  ${shownPath(path)}`);
  }
  for (const repo of result.repositories ?? [])
    lines.push(
      `left as it is: ${shownPath(`${repo}/.git`)}, a repository made since that checkpoint (undo never touches a .git; remove ${shownPath(repo)} if you do not want it)`,
    );
  if (store.kind === 'copy') lines.push(`note: ${COPIES_NOTE}`);
  lines.push(reverse(result.undoId));
  out.print(sanitize(`${lines.join('\n')}\n`));
}

/**
 * The chat's /undo and /rewind: the workspace back to how it was at `time` (when a user message was recorded).
 * False when Keel changed nothing since then.
 */
export async function restoreFilesAt(
  time: string,
  options: UndoOptions,
  out: CommandOutput,
): Promise<boolean> {
  const opened = await openStore(options);
  // What changed after the newest is only listed, never restored from: not staged for here.
  const target = checkpointSince(await opened.store.list({ newestChanged: false }), time);
  if (!target) return false;
  // In the chat, /undo again takes back the turn before: the files come back by the checkpoint this undo made.
  await restore(
    opened,
    target,
    'before that message',
    out,
    undefined,
    (undoId) =>
      `to reverse this undo, run keel undo ${undoId} in a shell (/undo again takes back the turn before)`,
  );
  return true;
}

export async function undoCommand(
  id: string | undefined,
  options: UndoOptions,
  out: CommandOutput = processOutput,
): Promise<number> {
  try {
    const opened = await openStore(options);
    const { root, store } = opened;
    // What changed after the newest checkpoint costs staging the workspace: only the listing shows it (a restore
    // stages it anyway, into the checkpoint it takes first).
    const checkpoints = await store.list({ newestChanged: options.list === true });
    if (options.list) {
      // For scripts: the checkpoints as the store has them, newest first (a time is ISO 8601, UTC).
      if (options.output === 'json' || options.output === 'stream-json') {
        out.print(`${JSON.stringify({ workspace: root, checkpoints })}\n`);
        return ExitCode.ok;
      }
      if (checkpoints.length === 0) {
        out.print(`no checkpoints for ${sanitize(root)}: nothing to undo\n`);
        return ExitCode.ok;
      }
      out.print(sanitize(formatList(root, checkpoints, store.kind === 'copy')));
      return ExitCode.ok;
    }
    const target = undoTarget(checkpoints, id);
    const session = id === undefined ? await sessionLine(root, target).catch(() => undefined) : undefined;
    const alongside = id === undefined ? interleaved(checkpoints, target) : undefined;
    if (alongside) out.print(sanitize(`${alongside}\n`));
    const what =
      id !== undefined
        ? `before ${target.tool} (${target.summary})`
        : alongside
          ? `before run ${target.run}'s calls since another run's last one`
          : `before run ${target.run}`;
    await restore(opened, target, what, out, session);
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json: options.output !== 'text', out });
  }
}
