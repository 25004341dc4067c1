// `keel review [--base <ref>] [--fail-on <severity>] [paths…]` and the chat's /review: the model reviews the
// working tree's diff (or the branch since --base) with the read-only tools and reports findings through
// report_finding; printed as `path:line severity message` grouped by file, or a JSON array with --output json.
// Exit 0, 1 when a finding is at or above --fail-on, 2 for bad usage or findings that could not be read.
import { isAbsolute, relative, resolve } from 'node:path';
import { REVIEW_SYSTEM_PROMPT, reviewRequest } from '../agent/review-prompt.js';
import { ExitCode, UsageError } from '../core/errors.js';
import type { EventSink } from '../core/events.js';
import { openGit } from '../git/git.js';
import { reviewChange } from '../git/review-diff.js';
import type { Run } from '../runtime/assemble.js';
import { conversationBudget } from '../runtime/conversation.js';
import { gitRunner } from '../runtime/git-work.js';
import { isInside } from '../safety/workspace.js';
import { readOnlyTools } from '../tools/registry.js';
import {
  type Finding,
  findingsInText,
  reportFindingTool,
  SEVERITIES,
  type Severity,
  severityOf,
  severityRank,
} from '../tools/report-finding.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { findingsJson, findingsSummary, formatFindings } from '../ui/review-report.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure, runExitCode } from './report.js';
import { startRun } from './run-options.js';
import { interruptSignal } from './signals.js';

export interface ReviewOptions extends GlobalOptions {
  base?: string;
  failOn?: string;
}

/** The most of the diff one request carries, in characters: half the conversation budget (4 per token), ≤ 200k. */
const diffChars = (agent: Run) =>
  Math.min(200_000, conversationBudget(agent.loaded.config, agent.model.capabilities) * 2);

function failOnLevel(word: string | undefined): Severity | undefined {
  if (word === undefined) return undefined;
  const level = severityOf(word);
  if (!level) {
    throw new UsageError(`unknown severity for --fail-on: ${word}`, {
      hint: `one of ${SEVERITIES.join(', ')}`,
    });
  }
  return level;
}

/** A finding's path as the workspace names it (models write ./a.ts or absolute paths too). */
function workspacePath(root: string, path: string): string {
  const rel = isAbsolute(path) ? relative(root, path) : path;
  return rel.replace(/^(?:\.\/)+/, '');
}

/** `/review [--base <ref>] [paths…]` as the command's arguments. */
export function parseReviewArgs(args: string): { paths: string[]; base?: string } | undefined {
  const words = args.split(/\s+/).filter(Boolean);
  const paths: string[] = [];
  let base: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === '--base') {
      base = words[++i];
      if (base === undefined) return undefined;
    } else if (word.startsWith('--base=')) base = word.slice('--base='.length);
    else if (word.startsWith('-')) return undefined;
    else paths.push(word);
  }
  return { paths, ...(base !== undefined ? { base } : {}) };
}

/**
 * The diff to review, by the system git; paths relative to `from` (--cwd, as `git -C` reads them, else where keel
 * started), through the workspace jail.
 */
async function changeUnderReview(
  agent: Run,
  paths: string[],
  from: string,
  base: string | undefined,
  signal: AbortSignal,
) {
  const runner = gitRunner(agent.loaded, process.env);
  try {
    const git = await openGit(runner, agent.workspace.root, signal);
    const jailed = await Promise.all(paths.map((p) => agent.workspace.resolve(resolve(from, p))));
    const change = await reviewChange(git, {
      ...(base !== undefined ? { base } : {}),
      pathspecs: jailed.map((p) => git.path(p)),
    });
    return { ...change, scopes: jailed };
  } finally {
    runner.killAll();
  }
}

export async function reviewCommand(
  paths: string[],
  options: ReviewOptions,
  out: CommandOutput = processOutput,
  /** From the chat: its screen shows the review's activity (not stderr), its Ctrl-C aborts `signal`. */
  chat?: { screen: EventSink; signal: AbortSignal },
): Promise<number> {
  const json = options.output === 'json';
  let agent: Run | undefined;
  const found: Finding[] = [];
  const interrupt = chat ? { signal: chat.signal, dispose: () => {} } : interruptSignal();
  try {
    const failOn = failOnLevel(options.failOn);
    // Machine output is the findings alone: the run's activity goes to stderr as text.
    agent = await startRun(
      { ...options, output: 'text' },
      {
        mode: () => 'restricted',
        // Nothing the review runs changes files: no checkpoint is prepared (hashing a big tree for nothing).
        dryRun: true,
        streamText: false,
        printAnswer: false,
        tools: [...readOnlyTools(), reportFindingTool((f) => found.push(f))],
        systemPrompt: REVIEW_SYSTEM_PROMPT,
        session: { save: false },
        ...(chat ? { output: chat.screen } : {}),
      },
    );
    const root = agent.workspace.root;
    const change = await changeUnderReview(
      agent,
      paths,
      resolve(options.cwd ?? '.'),
      options.base,
      interrupt.signal,
    );
    if (!change.diff.trim() && change.untracked.length === 0) {
      out.notice(`nothing to review: no changes (${change.what})\n`);
      if (json) out.print('[]\n');
      return ExitCode.ok;
    }
    agent.conversation.push({
      role: 'user',
      content: reviewRequest({ ...change, maxChars: diffChars(agent) }),
    });
    const result = await agent.run(interrupt.signal);
    if (result.reason !== 'done') return runExitCode(result, options.debug);
    // Findings written in the answer count too (a model without tool calls, or one repeating itself).
    const written = findingsInText(result.answer);
    const all = [...found, ...written.findings].map((f) => ({ ...f, path: workspacePath(root, f.path) }));
    // Paths named: what the model found elsewhere (a file it read for context) is not this review's.
    const inScope = (path: string) =>
      change.scopes.length === 0 || change.scopes.some((scope) => isInside(scope, resolve(root, path)));
    const findings = all.filter((f) => inScope(f.path));
    if (findings.length < all.length)
      out.notice(
        `note: ${all.length - findings.length} finding(s) outside ${paths.join(', ')} left out: review those paths to see them\n`,
      );
    if (findings.length === 0 && written.unreadable > 0) {
      out.notice(
        `error: the review's findings could not be read: ${written.unreadable} line(s) of the answer look like findings but are not {path, line, severity, message}\n`,
      );
      return ExitCode.usage;
    }
    if (written.unreadable > 0)
      out.notice(`warning: ${written.unreadable} line(s) of the answer could not be read as findings\n`);
    out.print(json ? findingsJson(findings) : formatFindings(findings));
    out.notice(`${findingsSummary(findings)}\n`);
    const failing = failOn ? findings.filter((f) => severityRank(f.severity) >= severityRank(failOn)) : [];
    return failing.length > 0 ? ExitCode.failed : ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json, out });
  } finally {
    interrupt.dispose();
    await agent?.close().catch(() => {});
  }
}
