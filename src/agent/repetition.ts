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

/**
 * Keys already worked out, per call object: the loop asks for the key of every earlier read call at each read
 * (repeated-read.ts), and a call's input never changes. Weak, so a call pruned from the conversation goes with it.
 */
const keys = new WeakMap<ToolCall, string>();

/** The call's name and its arguments with keys sorted and `path` normalised: equal for the same call. */
export function callKey(call: ToolCall): string {
  let key = keys.get(call);
  if (key === undefined) {
    key = keyOf(call);
    keys.set(call, key);
  }
  return key;
}

function keyOf(call: ToolCall): string {
  let args: unknown;
  try {
    args = call.input.trim() === '' ? {} : JSON.parse(call.input);
  } catch {
    return `${call.name} ${call.input.trim()}`;
  }
  return `${call.name} ${JSON.stringify(sortKeys(args))}`;
}

const shown = (call: ToolCall): string => `${call.name} ${clip(call.input, 120)}`;

/** The calls the guard looks back at: enough for A→B→A→B. */
const WINDOW = 4;

/**
 * Watches the run's calls in order and words a note when they start going round in circles. It keeps the last
 * few calls and the length of the current run of identical ones, never the whole run's calls: a long run would
 * otherwise hold every call (a write's whole content included) after pruning and compaction dropped it.
 */
export class RepetitionGuard {
  private readonly recent: { key: string; call: ToolCall }[] = [];
  /** How many calls in a row, up to the last one, share its key. */
  private run = 0;

  /** How many calls the guard holds (at most WINDOW, however long the run). */
  get held(): number {
    return this.recent.length;
  }

  /** Records one turn's calls; returns the note for the next request, if they repeat. */
  afterTurn(calls: readonly ToolCall[]): string | undefined {
    for (const call of calls) {
      const key = callKey(call);
      this.run = this.recent.at(-1)?.key === key ? this.run + 1 : 1;
      this.recent.push({ key, call });
      if (this.recent.length > WINDOW) this.recent.shift();
    }
    const last = this.recent.at(-1);
    if (!last) return undefined;
    if (this.run >= 3) {
      const instead = INSTEAD[last.call.name] ?? INSTEAD.default;
      return `[Keel: you have made the same call ${this.run} times in a row (${shown(last.call)}). Repeating it will not help: ${instead}.]`;
    }
    const [a, b, c, d] = this.recent;
    if (d && a!.key === c!.key && b!.key === d.key && a!.key !== b!.key) {
      return `[Keel: you are alternating between the same two calls (${shown(a!.call)} and ${shown(b!.call)}) without progress. Stop and rethink: ${INSTEAD.default}.]`;
    }
    return undefined;
  }
}
