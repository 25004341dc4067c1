// Runs one turn's tool calls (cmd2ai's parallel execution): calls the policy classes as read-only run
// concurrently (at most 8 at once), then the others one by one in the model's order. Results come back in the
// model's order. The concurrent calls' events are released in the model's order too, each call's tool_call
// followed by its own tool_result, so renderers and stream-json readers see what a sequential run shows.
import { relative } from 'node:path';
import type { AgentEvent } from '../core/events.js';
import type { ImagePart, ToolCall } from '../core/messages.js';

export const MAX_CONCURRENT_CALLS = 8;

/** What the policy says about a call before it runs (from the executor, without asking the user anything). */
export interface CallAssessment {
  readOnly: boolean;
  /** Absolute paths the call declares it reads and writes. */
  reads: readonly string[];
  writes: readonly string[];
  /** The shell command, when the call runs one: what it touches is not declared. */
  command?: string;
}

export interface ToolOutcome {
  /** What goes back to the model. */
  content: string;
  isError: boolean;
  images?: ImagePart[];
  /** Where the whole output was saved, and its size, when the per-result cap cut it. */
  saved?: { path: string; size: number };
}

export interface BatchOptions {
  assess?: (call: ToolCall) => Promise<CallAssessment>;
  /** `concurrent`: the call runs in the concurrent group, its events going to `concurrent.emit`. */
  run: (call: ToolCall, concurrent?: { emit: (event: AgentEvent) => void }) => Promise<ToolOutcome>;
  emit: (event: AgentEvent) => void;
  signal: AbortSignal;
  workspace: string;
}

const INTERRUPTED: ToolOutcome = { content: 'Error: interrupted before this tool ran', isError: true };

/**
 * Which calls may run ahead of the mutating calls before them: read-only ones, unless an earlier call of the
 * turn may change what they read — a mutating command or a tool that declares no paths (its effects are
 * unknown), or a file tool writing a path the read names (in its preview, or in its command's text).
 */
export function concurrentCalls(assessments: readonly CallAssessment[], workspace: string): Set<number> {
  const ahead = new Set<number>();
  const written: string[] = [];
  let unknownWrites = false;
  assessments.forEach((a, i) => {
    if (!a.readOnly) {
      if (a.command !== undefined || a.writes.length === 0) unknownWrites = true;
      written.push(...a.writes);
      return;
    }
    const conflict = written.some(
      (w) =>
        a.reads.some((r) => r === w || r.startsWith(`${w}/`) || w.startsWith(`${r}/`)) ||
        a.command?.includes(relative(workspace, w) || '.') === true,
    );
    if (!unknownWrites && !conflict) ahead.add(i);
  });
  return ahead;
}

/** Holds each concurrent call's events until the calls before it have finished, then passes them on in order. */
function orderedEvents(count: number, emit: (event: AgentEvent) => void) {
  const held: AgentEvent[][] = Array.from({ length: count }, () => []);
  const done: boolean[] = new Array(count).fill(false);
  let head = 0;
  return {
    emitter: (i: number) => (event: AgentEvent) => {
      if (i === head) emit(event);
      else held[i]!.push(event);
    },
    finished(i: number) {
      done[i] = true;
      while (head < count && done[head]) {
        head++;
        for (const event of held[head] ?? []) emit(event);
        if (head < count) held[head] = [];
      }
    },
  };
}

/** Runs `jobs` with at most `limit` in flight. */
async function pool(jobs: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
}

/** Every call gets an outcome, in the model's order, even when the run is interrupted part way. */
export async function runToolBatch(
  calls: readonly ToolCall[],
  options: BatchOptions,
): Promise<ToolOutcome[]> {
  const outcomes: (ToolOutcome | undefined)[] = new Array(calls.length).fill(undefined);
  const { signal } = options;
  const runOne = async (i: number, concurrent?: { emit: (event: AgentEvent) => void }) => {
    outcomes[i] = signal.aborted ? INTERRUPTED : await options.run(calls[i]!, concurrent);
  };

  if (calls.length > 1 && options.assess) {
    const assess = options.assess;
    const assessments = await Promise.all(
      calls.map((call) => assess(call).catch(() => ({ readOnly: false, reads: [], writes: [] }))),
    );
    const ahead = [...concurrentCalls(assessments, options.workspace)];
    if (ahead.length > 1) {
      const events = orderedEvents(ahead.length, options.emit);
      await pool(
        ahead.map((index, k) => async () => {
          await runOne(index, { emit: events.emitter(k) }).finally(() => events.finished(k));
        }),
        MAX_CONCURRENT_CALLS,
      );
    }
  }
  for (let i = 0; i < calls.length; i++) if (outcomes[i] === undefined) await runOne(i);
  return outcomes.map((o) => o ?? INTERRUPTED);
}
