// The one dim line on stderr that ends a text-mode `keel run`: turns, tool calls, tokens, cost, time, files changed.
import { formatCost } from '../core/cost.js';
import type { AgentEvent, EventSink } from '../core/events.js';
import { groupDigits } from '../core/text.js';
import type { Style } from './style.js';

const count = (n: number, one: string, many = `${one}s`) => `${groupDigits(n)} ${n === 1 ? one : many}`;

/** `4 s`, `0.8 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 10) return `${Number(seconds.toFixed(1))} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

/** ` (9,000 cached)`: the part of the input read from the provider's prompt cache. */
const cachedNote = (read: number | undefined) => (read ? ` (${groupDigits(read)} cached)` : '');

/** The summary of a finished run, from its run_end event and what the run took. */
export function summaryLine(
  end: Extract<AgentEvent, { type: 'run_end' }>,
  details: { elapsedMs: number; filesChanged: number; refused?: number },
): string {
  const { usage } = end;
  const refused = details.refused ?? 0;
  // Every call refused (by the policy, a headless run that cannot ask, or the user): the run did nothing it set out to.
  const calls =
    refused > 0 && refused === end.tool_calls
      ? `${count(end.tool_calls, 'tool call')} (${end.tool_calls === 1 ? 'refused' : 'all refused'})`
      : count(end.tool_calls, 'tool call');
  return [
    count(end.turns, 'turn'),
    calls,
    `${groupDigits(usage.input_tokens)} tokens in${cachedNote(usage.cache_read_tokens)}, ${groupDigits(usage.output_tokens)} out`,
    ...(usage.cost_usd === undefined ? [] : [formatCost(usage.cost_usd)]),
    formatDuration(details.elapsedMs),
    `${count(details.filesChanged, 'file')} changed by file tools`,
  ].join(' · ');
}

/** What only the model's answer brings: a run that failed before any (an unreachable provider) has no summary. */
const fromModel = new Set<AgentEvent['type']>(['text_delta', 'reasoning_delta', 'tool_call', 'usage']);

/**
 * Counts the distinct paths file tools changed and prints the summary line when the run ends, unless it failed
 * before the model answered anything: its error is then the one message.
 */
export function createRunSummary(options: {
  stderr: NodeJS.WritableStream;
  style: Style;
  now?: () => number;
}): EventSink {
  const now = options.now ?? Date.now;
  let started = now();
  const changed = new Set<string>();
  let refused = 0;
  let answered = false;
  return (event) => {
    if (fromModel.has(event.type)) answered = true;
    // A sub-agent's start and end are not the run's; the files it changed are.
    if (event.type === 'run_start' && event.parent === undefined) started = now();
    if (event.type === 'tool_result') {
      for (const path of event.changed ?? []) changed.add(path);
      if (event.metadata.policy === 'deny' || event.metadata.policy === 'declined') refused += 1;
    }
    if (event.type === 'run_end' && event.parent === undefined && (answered || event.reason !== 'failed')) {
      const line = summaryLine(event, { elapsedMs: now() - started, filesChanged: changed.size, refused });
      options.stderr.write(`${options.style.dim(line)}\n`);
    }
  };
}
