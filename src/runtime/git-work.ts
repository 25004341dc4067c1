// Commits Keel writes (keel commit, /commit, git.auto_commit): the files a run or session changed (from the
// checkpoints) or the ones asked for, a message drafted by the run's model in one request without tools, and a
// normal `git commit` by the system git. These are the user's own commands: they run as argv by a plain runner,
// not through the model's policy; paths the user names go through the workspace jail.
import { resolve } from 'node:path';
import { type ChangeScope, changedPaths } from '../checkpoint/changed-paths.js';
import { openCheckpointStore } from '../checkpoint/checkpointer.js';
import type { LoadedConfig } from '../config/load.js';
import { stateDir } from '../config/paths.js';
import type { AgentEvent } from '../core/events.js';
import type { Model } from '../core/model.js';
import type { CommandRunner } from '../core/runner.js';
import { commandEnv, createProcessRunner } from '../exec/process-runner.js';
import {
  type CommitChanges,
  discardCommit,
  hasStaged,
  type MadeCommit,
  makeCommit,
  prepareCommit,
  recentMessages,
} from '../git/commit.js';
import { draftCommitMessage, withAttribution } from '../git/commit-message.js';
import { type Git, GitError, openGit } from '../git/git.js';
import { createModel } from '../providers/index.js';
import { keelDirs } from '../safety/read-jail.js';
import { runRedactor } from '../safety/redact.js';
import { userSecretLinks } from '../safety/secret-links.js';
import { openWorkspace, type Workspace } from '../safety/workspace.js';
import { loadRunConfig, type RunSource, resolveWorkspaceDir } from './config.js';

/** What git itself needs beyond the safe set: identity, signing agents, its own settings. */
const GIT_ENV = ['GIT_*', 'EMAIL', 'SSH_AUTH_SOCK', 'GPG_TTY', 'GNUPGHOME'];

/** The runner of the user's own git commands: no sandbox (hooks may write .git), the allowlisted environment. */
export function gitRunner(loaded: LoadedConfig, env: NodeJS.ProcessEnv): CommandRunner {
  return createProcessRunner(commandEnv(env, [...loaded.config.safety.env_passthrough, ...GIT_ENV]));
}

/** The configured model, as a run builds it (config, credentials, retries, --record), without the rest of a run. */
export async function openModel(
  source: RunSource,
  env: NodeJS.ProcessEnv,
): Promise<{ loaded: LoadedConfig; model: Model }> {
  const loaded = await loadRunConfig(source, env);
  const redact = runRedactor(env, loaded);
  const model = await createModel(loaded.config.provider, { record: source.record, env, redact });
  return { loaded, model };
}

/** What `keel commit` works with: the configured model, the git runner and the workspace jail; close the runner. */
export async function openCommitSetup(
  source: RunSource,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<CommitSetup> {
  const { loaded, model } = await openModel(source, env);
  const workspace = await openWorkspace(
    await resolveWorkspaceDir(source.cwd),
    [],
    keelDirs(env),
    userSecretLinks(env),
  );
  return { loaded, model, runner: gitRunner(loaded, env), workspace, env, signal };
}

/** Which files a commit takes when nothing is staged. */
export type CommitFiles =
  /** The files Keel changed in this scope (default: the newest run's session). */
  | { keel: ChangeScope | undefined }
  /** Paths the user named (relative to `base`), each through the workspace jail. */
  | { paths: readonly string[]; base: string }
  /** Everything changed under the workspace. */
  | { all: true };

export interface CommitSetup {
  loaded: LoadedConfig;
  model: Model;
  runner: CommandRunner;
  workspace: Workspace;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

export interface CommitDraft {
  git: Git;
  changes: CommitChanges;
  /** The message as drafted, the attribution trailer included when configured. */
  message: string;
  /** Commits with this message (the draft's, or the user's edit of it). */
  commit(message: string): Promise<MadeCommit>;
  /** Leaves the index as it was (a declined commit). */
  discard(): Promise<void>;
}

async function pathspecs(setup: CommitSetup, git: Git, files: CommitFiles): Promise<string[]> {
  const root = setup.workspace.root;
  if ('all' in files) return [git.path(root)];
  if ('paths' in files) {
    const jailed = await Promise.all(files.paths.map((p) => setup.workspace.resolve(resolve(files.base, p))));
    return jailed.map((p) => git.path(p));
  }
  const { config } = setup.loaded;
  const store = await openCheckpointStore({
    root,
    stateDir: stateDir(setup.env),
    env: setup.env,
    maxIgnoredKb: config.checkpoints.max_ignored_file_kb,
    maxFileMb: config.checkpoints.max_file_mb,
  });
  const changed = await changedPaths(store, files.keel);
  return changed.map((p) => git.path(resolve(root, p)));
}

/**
 * Stages what the commit takes (what is staged already, else `files`) and drafts its message; undefined when there
 * is nothing to commit. `ownFilesOnly`: staged changes are the user's, so nothing is drafted (auto_commit).
 */
export async function draftCommit(
  setup: CommitSetup,
  files: CommitFiles,
  ownFilesOnly = false,
): Promise<CommitDraft | undefined> {
  const git = await openGit(setup.runner, setup.workspace.root, setup.signal);
  if (ownFilesOnly && (await hasStaged(git))) {
    throw new GitError('changes are staged already; commit them yourself (keel commit drafts a message)');
  }
  const changes = await prepareCommit(git, await pathspecs(setup, git, files));
  if (!changes) return undefined;
  try {
    const recent = await recentMessages(git);
    const drafted = await draftCommitMessage(setup.model, changes, recent, setup.signal);
    const attribution = setup.loaded.config.git.attribution
      ? `${setup.model.provider}/${setup.model.modelId}`
      : undefined;
    return {
      git,
      changes,
      message: withAttribution(drafted, attribution),
      commit: (message) => makeCommit(git, message),
      discard: () => discardCommit(git, changes),
    };
  } catch (error) {
    await discardCommit(git, changes).catch(() => {});
    throw error;
  }
}

/**
 * git.auto_commit: after a run or chat turn, its changes committed with a drafted message; what happened is a
 * status line, a failure a warning (the run's own outcome stands). Nothing when the run changed nothing.
 */
export async function autoCommit(
  setup: Omit<CommitSetup, 'runner'>,
  run: string,
  emit: (event: AgentEvent) => void,
): Promise<void> {
  const runner = gitRunner(setup.loaded, setup.env);
  try {
    // The user's own staged changes are theirs to commit: auto_commit only commits what this run changed.
    const draft = await draftCommit({ ...setup, runner }, { keel: { run } }, true);
    if (!draft) return;
    const made = await draft.commit(draft.message);
    emit({ type: 'status', message: `committed ${made.hash}: ${made.subject}` });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    emit({ type: 'warning', message: `git.auto_commit: nothing committed: ${why}` });
  } finally {
    runner.killAll();
  }
}
