// `keel commit [--yes] [--all] [paths…]` and the chat's /commit: the staged changes, else the files Keel changed
// in its newest run or session (or the paths named, or --all), with a message the model drafts in the repository's
// style; shown, then committed after y (e edits it in $EDITOR, n leaves the index as it was) or with --yes.

import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { ChangeScope } from '../checkpoint/changed-paths.js';
import { ExitCode, UsageError } from '../core/errors.js';
import type { MadeCommit } from '../git/commit.js';
import {
  type CommitDraft,
  type CommitFiles,
  type CommitSetup,
  draftCommit,
  openCommitSetup,
} from '../runtime/git-work.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { editText } from '../ui/editor.js';
import { sanitize } from '../ui/sanitize.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure } from './report.js';
import { runSource } from './run-options.js';
import { interruptSignal } from './signals.js';

export interface CommitOptions extends GlobalOptions {
  /** Commit without asking. */
  yes?: boolean;
  /** Everything changed under the workspace, not only Keel's files. */
  all?: boolean;
}

/** How a commit is shown and approved: the terminal, or the chat's screen and prompt. */
export interface CommitIo {
  out: CommandOutput;
  /** Asks a question; undefined where nobody can answer (then --yes is required). */
  ask?: (prompt: string) => Promise<string | null>;
  yes: boolean;
  env: NodeJS.ProcessEnv;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => (l ? `    ${l}` : ''))
    .join('\n');

function describe(draft: CommitDraft, message: string): string {
  const { files, source } = draft.changes;
  const whose = source === 'staged' ? 'the staged changes' : 'changed files';
  const shown = files.slice(0, 20).map((f) => `  ${f}`);
  if (files.length > 20) shown.push(`  and ${files.length - 20} more`);
  return sanitize(
    `commit ${files.length} file${files.length === 1 ? '' : 's'} (${whose}):\n${shown.join('\n')}\n\n${indent(message)}\n\n`,
  );
}

/** Shows the draft and commits it once approved; undefined when the user declined (the index is put back). */
export async function approveCommit(draft: CommitDraft, io: CommitIo): Promise<MadeCommit | undefined> {
  let message = draft.message;
  for (;;) {
    io.out.notice(describe(draft, message));
    if (io.yes) return draft.commit(message);
    if (!io.ask) {
      await draft.discard();
      throw new UsageError('nobody to approve the commit: not a terminal', {
        hint: 'pass --yes to commit with the drafted message',
      });
    }
    const answer = ((await io.ask('commit with this message? [y]es, [n]o, [e]dit: ')) ?? 'n').trim();
    if (/^y(es)?$/i.test(answer)) return draft.commit(message);
    if (/^e(dit)?$/i.test(answer)) {
      const edited = await editText(message, { file: 'COMMIT_EDITMSG', env: io.env });
      if ('error' in edited) io.out.notice(`${edited.error}\n`);
      else if (edited.text.trim()) message = edited.text.trim();
      else io.out.notice('the edited message is empty: keeping the drafted one\n');
      continue;
    }
    await draft.discard();
    return undefined;
  }
}

/** Drafts, shows and commits; what the chat's /commit and `keel commit` share. */
export async function commitWith(
  setup: CommitSetup,
  files: CommitFiles,
  io: CommitIo,
): Promise<{ made?: MadeCommit; declined?: true }> {
  const draft = await draftCommit(setup, files);
  if (!draft) return {};
  const made = await approveCommit(draft, io);
  return made ? { made } : { declined: true };
}

export const NOTHING_TO_COMMIT =
  'nothing to commit: nothing is staged, and no file Keel changed differs from HEAD (name paths, or pass --all)';

/** Which files: the paths named, --all, or Keel's own in `scope` (default: its newest run or session). */
export function commitFiles(paths: readonly string[], all: boolean, base: string, scope?: ChangeScope) {
  if (paths.length > 0) return { paths, base } as const;
  return all ? ({ all: true } as const) : ({ keel: scope } as const);
}

/** One question on the terminal; Ctrl-C answers no. Readline opens only now, so Ctrl-C before it aborts the draft. */
async function askOnTerminal(prompt: string): Promise<string | null> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const stop = new AbortController();
  rl.on('SIGINT', () => stop.abort());
  try {
    return await rl.question(prompt, { signal: stop.signal });
  } catch {
    return null;
  } finally {
    rl.close();
  }
}

export async function commitCommand(
  paths: string[],
  options: CommitOptions,
  out: CommandOutput = processOutput,
): Promise<number> {
  const json = options.output !== 'text';
  const interrupt = interruptSignal();
  let setup: CommitSetup | undefined;
  const terminal = Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY);
  try {
    setup = await openCommitSetup(runSource(options), process.env, interrupt.signal);
    const result = await commitWith(
      setup,
      commitFiles(paths, options.all === true, resolve(options.cwd ?? '.')),
      {
        out,
        yes: options.yes === true,
        env: process.env,
        ...(terminal ? { ask: askOnTerminal } : {}),
      },
    );
    if (result.declined) {
      out.notice('not committed; the index is as it was\n');
      return ExitCode.failed;
    }
    if (!result.made) {
      out.notice(`${NOTHING_TO_COMMIT}\n`);
      return ExitCode.failed;
    }
    const { hash, subject } = result.made;
    out.print(json ? `${JSON.stringify({ hash, subject })}\n` : sanitize(`committed ${hash}: ${subject}\n`));
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json, out });
  } finally {
    setup?.runner.killAll();
    interrupt.dispose();
  }
}
