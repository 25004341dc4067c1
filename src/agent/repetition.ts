// Loop detection (CodeCraft §3.7): the same tool call three times in a row, or two calls alternating
// (A→B→A→B), earn a note in the next request saying what repeats and what to try instead.
import { posix } from 'node:path';
import type { ToolCall } from '../core/messages.js';
import { clip } from '../core/text.js';

/** What to do instead of repeating a call, per tool; `default` for the rest. */
export const INSTEAD: Readonly<Record<string, string>> = {
  read_file: 'its content is already above: use it, or read another file or range',
  execute_command:
    'it will give the same result: read its output, change the code or the command, or say what blocks you',
  grep: 'change the pattern, path or include filter, or use what it found',
  glob: 'change the pattern or path, or use what it found',
  list_files: 'use the listing you have, or list another directory',
  edit_file: 'read the file again for its current text before another edit',
  write_file: 'the file already has this content; move on to the next step',
  default: 'change the arguments or try another tool; if you are stuck, say what blocks you and finish',
};

const sortKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
  return Object.fromEntries(entries.map(([k, v]) => [k, k === 'path' ? normalizePath(v) : sortKeys(v)]));
};

const normalizePath = (value: unknown): unknown =>
  typeof value === 'string' && value !== '' ? posix.normalize(value).replace(/\/$/, '') : value;

/** The call's name and its arguments with keys sorted and `path` normalised: equal for the same call. */
export function callKey(call: ToolCall): string {
  let args: unknown;
  try {
    args = call.input.trim() === '' ? {} : JSON.parse(call.input);
  } catch {
    return `${call.name} ${call.input.trim()}`;
  }
  return `${call.name} ${JSON.stringify(sortKeys(args))}`;
}

const shown = (call: ToolCall): string => `${call.name} ${clip(call.input, 120)}`;

/** Watches the run's calls in order and words a note when they start going round in circles. */
export class RepetitionGuard {
  private readonly calls: { key: string; call: ToolCall }[] = [];

  /** Records one turn's calls; returns the note for the next request, if they repeat. */
  afterTurn(calls: readonly ToolCall[]): string | undefined {
    for (const call of calls) this.calls.push({ key: callKey(call), call });
    const recent = this.calls;
    const last = recent.at(-1);
    if (!last) return undefined;
    let run = 1;
    while (run < recent.length && recent[recent.length - 1 - run]!.key === last.key) run++;
    if (run >= 3) {
      const instead = INSTEAD[last.call.name] ?? INSTEAD.default;
      return `[Keel: you have made the same call ${run} times in a row (${shown(last.call)}). Repeating it will not help: ${instead}.]`;
    }
    const [a, b, c, d] = recent.slice(-4);
    if (d && a!.key === c!.key && b!.key === d.key && a!.key !== b!.key) {
      return `[Keel: you are alternating between the same two calls (${shown(a!.call)} and ${shown(b!.call)}) without progress. Stop and rethink: ${INSTEAD.default}.]`;
    }
    return undefined;
  }
}
