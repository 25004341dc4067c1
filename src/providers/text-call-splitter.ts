// Splits a streamed reply into the text the user reads and the tool calls written in it (text protocol): holds
// back only what may still turn out to be a call (`<tool_call>` tags, JSON fences at a line start, a `{` outside
// inline code).
import { type CallSource, classifyJson, type TextCall } from './text-call-shape.js';

export type { TextCall };

export interface SplitOutput {
  /** Text safe to show now: no call is in it or can start in it. */
  text: string;
  calls: TextCall[];
}

const openTag = '<tool_call>';
const closeTag = '</tool_call>';
/** Fence info strings that may hold a call; any other fence is ordinary code, shown as it streams. */
const callFences = new Set(['', 'json', 'jsonc', 'json5', 'tool_call', 'tool_code', 'tool']);

interface Candidate {
  at: number;
  source: CallSource;
}

export class ToolCallSplitter {
  /** Text received and not yet shown or consumed. */
  private buffer = '';
  /** Whether buffer[0] starts a line (spaces before it allowed). */
  private lineStart = true;
  /** Inside an ordinary fenced code block, where nothing is a call. */
  private inFence = false;
  /** A call was just consumed: the line break or spaces after it are dropped so no gap is left where it stood. */
  private afterCall = false;
  /** Backticks shown so far on the current line: when odd, what follows is inside inline code. */
  private lineTicks = 0;

  constructor(private readonly tools: ReadonlySet<string>) {}

  push(delta: string): SplitOutput {
    this.buffer += delta;
    return this.drain(false);
  }

  /** The reply ended: what is still held is decided now (an unclosed `<tool_call>` is still a call). */
  end(): SplitOutput {
    return this.drain(true);
  }

  private drain(final: boolean): SplitOutput {
    const out: SplitOutput = { text: '', calls: [] };
    const release = (length: number) => {
      let piece = this.buffer.slice(0, length);
      this.consume(length);
      if (this.afterCall) {
        // The line break after a call, or the spaces before the rest of its line ("I will call {…} now.").
        piece = piece.replace(/^[ \t]*\n+|^[ \t]+(?=\S)/, '');
        if (piece.trim() !== '') this.afterCall = false;
        else piece = '';
      }
      out.text += piece;
    };
    for (;;) {
      if (this.inFence) {
        const close = fenceLine(this.buffer, this.lineStart, 0);
        if (close === -1) {
          release(final ? this.buffer.length : heldLineStart(this.buffer, this.lineStart));
          return out;
        }
        release(close + 3);
        this.inFence = false;
        continue;
      }
      const candidate = this.nextCandidate();
      const hold = final ? this.buffer.length : partialStart(this.buffer, this.lineStart);
      if (!candidate || candidate.at >= hold) {
        release(hold);
        return out;
      }
      release(candidate.at);
      const step = this.complete(candidate.source, final);
      if (step === 'wait') return out;
      if (step.kind === 'text') {
        release(step.length);
        if (step.opensFence) this.inFence = true;
        continue;
      }
      out.calls.push(...step.calls);
      this.consume(step.length);
      this.afterCall = true;
      this.lineStart = true;
    }
  }

  private consume(length: number): void {
    if (length === 0) return;
    // Spaces after a line start keep it one: a fence or `{` may still follow them.
    const consumed = this.buffer.slice(0, length);
    const newline = consumed.lastIndexOf('\n');
    this.lineStart = (newline !== -1 || this.lineStart) && /^[ \t]*$/.test(consumed.slice(newline + 1));
    this.lineTicks = (newline === -1 ? this.lineTicks : 0) + ticks(consumed.slice(newline + 1));
    this.buffer = this.buffer.slice(length);
  }

  /**
   * The earliest place a call may begin: an opening tag anywhere, a fence at the start of a line, a `{` anywhere
   * but in inline code (`bare` at a line's start, else `inline`).
   */
  private nextCandidate(): Candidate | undefined {
    const found: Candidate[] = [];
    let tag = this.buffer.indexOf(openTag);
    // `<tool_call>` quoted in backticks is prose about the syntax, not a call.
    while (tag > 0 && this.buffer[tag - 1] === '`') tag = this.buffer.indexOf(openTag, tag + 1);
    if (tag !== -1) found.push({ at: tag, source: 'tag' });
    const fence = fenceLine(this.buffer, this.lineStart, 0);
    if (fence !== -1) found.push({ at: fence, source: 'fence' });
    for (let brace = this.buffer.indexOf('{'); brace !== -1; brace = this.buffer.indexOf('{', brace + 1)) {
      const lineBegin = this.buffer.lastIndexOf('\n', brace - 1) + 1;
      const before = this.buffer.slice(lineBegin, brace);
      const carried = lineBegin === 0 ? this.lineTicks : 0;
      if ((carried + ticks(before)) % 2 === 1) continue;
      const atLineStart = (lineBegin > 0 || this.lineStart) && /^[ \t]*$/.test(before);
      found.push({ at: brace, source: atLineStart ? 'bare' : 'inline' });
      break;
    }
    return found.sort((a, b) => a.at - b.at)[0];
  }

  /** Reads the candidate at the buffer's start to its end: a call (or broken one), text, or not complete yet. */
  private complete(
    source: CallSource,
    final: boolean,
  ):
    | 'wait'
    | { kind: 'text'; length: number; opensFence?: boolean }
    | { kind: 'calls'; length: number; calls: TextCall[] } {
    const b = this.buffer;
    if (source === 'tag') {
      const close = b.indexOf(closeTag, openTag.length);
      if (close === -1 && !final) return 'wait';
      const end = close === -1 ? b.length : close + closeTag.length;
      const inner = stripFence(b.slice(openTag.length, close === -1 ? b.length : close));
      const calls = classifyJson(inner, 'tag', this.tools, b.slice(0, end).trim()) ?? [];
      return { kind: 'calls', length: end, calls };
    }
    if (source === 'fence') {
      const newline = b.indexOf('\n');
      if (newline === -1) return final ? { kind: 'text', length: b.length } : 'wait';
      const info = b.slice(3, newline).trim().toLowerCase();
      if (!callFences.has(info)) return { kind: 'text', length: newline + 1, opensFence: true };
      const close = fenceLine(b, true, newline + 1);
      if (close === -1 && !final) return 'wait';
      const end = close === -1 ? b.length : close + 3;
      const body = b.slice(newline + 1, close === -1 ? b.length : close);
      const calls = classifyJson(body, 'fence', this.tools, b.slice(0, end));
      return calls ? { kind: 'calls', length: end, calls } : { kind: 'text', length: end };
    }
    const close = objectEnd(b);
    if (close === 'not-json') return { kind: 'text', length: 1 };
    if (close === -1 && !final) return 'wait';
    const end = close === -1 ? b.length : close;
    const calls = classifyJson(b.slice(0, end), source, this.tools, b.slice(0, end));
    return calls ? { kind: 'calls', length: end, calls } : { kind: 'text', length: end };
  }
}

/** The calls and the remaining text of a whole reply. */
export function splitToolCalls(reply: string, tools: ReadonlySet<string>): SplitOutput {
  const splitter = new ToolCallSplitter(tools);
  const first = splitter.push(reply);
  const last = splitter.end();
  return { text: first.text + last.text, calls: [...first.calls, ...last.calls] };
}

/** Index of a closing ``` at the start of a line at or after `from`, or -1. */
function fenceLine(text: string, lineStart: boolean, from: number): number {
  const fence = /(^|\n)[ \t]*```/g;
  fence.lastIndex = from;
  for (let match = fence.exec(text); match; match = fence.exec(text)) {
    if (match.index === 0 && match[1] === '' && !(from > 0 || lineStart)) continue;
    return match.index + match[0].length - 3;
  }
  return -1;
}

/**
 * How much of the buffer can be shown while a call may still start at its end: a prefix of `<tool_call>`, or a
 * last line of only spaces and backticks (a fence or `{` may follow) is held.
 */
function partialStart(text: string, lineStart: boolean): number {
  for (let n = Math.min(openTag.length - 1, text.length); n > 0; n--) {
    if (openTag.startsWith(text.slice(text.length - n))) return text.length - n;
  }
  return heldLineStart(text, lineStart);
}

/** The start of a last, unfinished line that is blank or only backticks so far; else the buffer's length. */
function heldLineStart(text: string, lineStart: boolean): number {
  const lastNewline = text.lastIndexOf('\n');
  const start = lastNewline + 1;
  if (lastNewline === -1 && !lineStart) return text.length;
  return /^[ \t]*`{0,2}$/.test(text.slice(start)) ? start : text.length;
}

/** The end (exclusive) of the JSON object opening the text, -1 if not closed yet, `not-json` if it cannot be one. */
function objectEnd(text: string): number | 'not-json' {
  const afterBrace = text.slice(1).match(/^\s*(\S)/);
  if (afterBrace && afterBrace[1] !== '"' && afterBrace[1] !== '}') return 'not-json';
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** How many backticks `text` holds. */
function ticks(text: string): number {
  let count = 0;
  for (const c of text) if (c === '`') count++;
  return count;
}

/** A `<tool_call>` body wrapped in a code fence, as some models write it. */
function stripFence(body: string): string {
  const fenced = /^\s*```[\w-]*[ \t]*\n?([\s\S]*?)\n?[ \t]*```\s*$/.exec(body);
  return fenced ? fenced[1]! : body;
}
