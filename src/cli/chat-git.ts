// The chat's /commit, /review, /fork and /diff: the same work as keel commit, keel review and keel sessions fork, on
// the chat's agent (its model, workspace and session), shown on the chat's screen and asked at its prompt; /diff
// shows git's diff of the uncommitted changes, as keel review reads them.
import { resolve } from 'node:path';
import { GitError, openGit } from '../git/git.js';
import { reviewChange } from '../git/review-diff.js';
import type { Run } from '../runtime/assemble.js';
import { draftCommit, gitRunner } from '../runtime/git-work.js';
import type { ChatScreen } from '../ui/chat-screen.js';
import { sanitize } from '../ui/sanitize.js';
import { streamStyle } from '../ui/style.js';
import { colourDiff } from '../ui/text-renderer.js';
import { approveCommit, commitFiles, NOTHING_TO_COMMIT } from './commit-command.js';
import { forkSessionFile } from './fork-command.js';
import type { GlobalOptions } from './global-options.js';
import { parseReviewArgs, reviewCommand } from './review-command.js';

export interface ChatGit {
  commit(args: string): Promise<void>;
  review(args: string): Promise<void>;
  fork(args: string): Promise<void>;
  diff(args: string): Promise<void>;
}

type Busy = <T>(label: string, work: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/** What /commit, /review and /fork need of the chat. */
export interface ChatGitContext {
  agent: Run;
  options: GlobalOptions;
  screen: ChatScreen;
  busy: Busy;
  /** Questions are asked at the chat's prompt (else the chat reads piped input: /commit needs --yes). */
  interactive: boolean;
}

export function chatGit({ agent, options, screen, busy, interactive }: ChatGitContext): ChatGit {
  // A line typed while the message was being drafted never commits it: the answer comes after the message shows.
  const ask = interactive ? { ask: (prompt: string) => screen.reader.question(prompt) } : {};
  const env = process.env;
  return {
    async commit(args) {
      const words = args.split(/\s+/).filter(Boolean);
      const yes = words.includes('--yes');
      const all = words.includes('--all');
      const paths = words.filter((w) => w !== '--yes' && w !== '--all');
      // By default, what Keel changed in this chat's session (every turn), else its newest run.
      const scope = agent.session ? { session: agent.session.id } : undefined;
      const runner = gitRunner(agent.loaded, env);
      try {
        const draft = await busy('writing a commit message', (signal) =>
          draftCommit(
            { loaded: agent.loaded, model: agent.model, runner, workspace: agent.workspace, env, signal },
            commitFiles(paths, all, agent.workspace.root, scope),
          ),
        );
        if (!draft) return screen.notice(`${NOTHING_TO_COMMIT}\n`);
        const made = await approveCommit(draft, {
          out: screen,
          yes,
          env,
          ...ask,
        });
        screen.notice(made ? `committed ${made.hash}: ${made.subject}\n` : 'not committed\n');
      } finally {
        runner.killAll();
      }
    },
    async review(args) {
      const parsed = parseReviewArgs(args);
      if (!parsed) return screen.notice('usage: /review [--base <ref>] [paths…]\n');
      const paths = parsed.paths.map((p) => resolve(agent.workspace.root, p));
      const reviewOptions = { ...options, ...(parsed.base !== undefined ? { base: parsed.base } : {}) };
      await busy('reviewing', (signal) =>
        reviewCommand(paths, { ...reviewOptions, output: 'text' }, screen, { screen: screen.sink, signal }),
      );
    },
    async diff(args) {
      const words = args.split(/\s+/).filter(Boolean);
      const runner = gitRunner(agent.loaded, env);
      try {
        const change = await busy('reading the diff', async (signal) => {
          const git = await openGit(runner, agent.workspace.root, signal);
          const paths = await Promise.all(
            words.map((p) => agent.workspace.resolve(resolve(agent.workspace.root, p))),
          );
          return reviewChange(git, { pathspecs: paths.map((p) => git.path(p)) });
        });
        if (!change.diff.trim() && change.untracked.length === 0)
          return screen.notice('no uncommitted changes\n');
        const style = streamStyle(process.stdout, env);
        if (change.diff.trim()) screen.print(`${colourDiff(sanitize(change.diff.trimEnd()), style)}\n`);
        if (change.untracked.length > 0)
          screen.notice(`new files git does not track yet: ${sanitize(change.untracked.join(', '))}\n`);
      } catch (error) {
        if (!(error instanceof GitError)) throw error;
        const where = /not a git repository/.test(error.message)
          ? ' (keel undo --list names what Keel changed here)'
          : '';
        screen.notice(`${sanitize(error.message)}${where}\n`);
      } finally {
        runner.killAll();
      }
    },
    async fork(args) {
      const file = agent.session?.file;
      if (!file) return screen.notice('nothing to fork: this chat is not saved (--no-session)\n');
      const word = args.trim();
      if (word && !/^\d+$/.test(word))
        return screen.notice('usage: /fork [n] (n: one of your messages, 1 first)\n');
      await agent.events.flush();
      await forkSessionFile(file, word ? Number(word) : undefined, screen);
    },
  };
}
