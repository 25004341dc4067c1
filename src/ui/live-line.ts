// The line of a streamed answer that is still arriving (a paragraph, list item, quote or heading before its
// newline), shown as it grows: its wrapped rows are written for good once they are final, and the rows after them
// are drawn in place and redrawn (cursor back, erase below) at each update, as other terminal agents do. A row is
// final once the text up to a later word can no longer be restyled by what follows: an open span (`**bold` before
// its `**`) would change how its start looks, and so where the line wraps.

export interface LiveLineOptions {
  write(text: string): void;
  /** Terminal columns: the rows drawn in place must each fit in one, or the redraw would miss a wrapped part. */
  width: number;
  /**
   * The terminal's columns now. Resized, it has rewrapped what was drawn, which a redraw could no longer find: the
   * rows are then written only once final.
   */
  columns?: () => number;
  /** The line rendered and wrapped to the width, its rows joined by newlines. */
  layout(text: string): string;
  /**
   * Whether no text after `text` and a space could change how `text` renders (no inline span left open). Asked of the
   * text after an end already settled (from the space there): nothing after that end reaches back across it.
   */
  settled(text: string): boolean;
}

export interface LiveLine {
  /** The line so far, without its newline: the rows that became final are written, the rest drawn in place. */
  update(text: string): void;
  /** The line complete: what is drawn in place is replaced by its last rows, ending with a newline. */
  finish(text: string): void;
  /** Takes the rows drawn in place off the screen (something else is written there); the next update draws them again. */
  lift(): void;
}

/** At most this many rows are redrawn: the cursor can only go back up rows that are still on the screen. */
const LIVE_ROWS = 6;
/** A longer line (minified code, an encoded blob) is shown when it ends: each redraw lays the whole line out again. */
const LIVE_CHARS = 16_000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: our own SGR escapes are followed.
const SGR = /\x1b\[([0-9;]*)m/g;

/** The SGR sequences still in effect at the end of `text` (style.ts's pairs: each opener has its own closer). */
export function openStyles(text: string): string {
  const open = new Map<string, string>();
  for (const [, params = ''] of text.matchAll(SGR)) {
    for (const code of params.split(';')) {
      const n = Number(code || '0');
      if (n === 0) open.clear();
      else if (n === 22) for (const bold of ['1', '2']) open.delete(bold);
      else if (n === 23 || n === 24) open.delete(String(n - 20));
      else if (n === 39) open.delete('fg');
      else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) open.set('fg', String(n));
      else open.set(String(n), String(n));
    }
  }
  return [...open.values()].map((n) => `\x1b[${n}m`).join('');
}

/**
 * Columns a row may take at most: wide characters (CJK, emoji) count two and a tab eight, so a row that might wrap
 * on the terminal is never drawn in place.
 */
function columnsAtMost(row: string): number {
  let columns = 0;
  for (const char of row.replace(SGR, '')) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\t') columns += 8;
    else if ((code >= 0x1100 && code <= 0x115f) || (code >= 0x2600 && code <= 0x27bf) || code >= 0x2e80)
      columns += 2;
    else columns += 1;
  }
  return columns;
}

export function createLiveLine(options: LiveLineOptions): LiveLine {
  const { write, width } = options;
  let done = 0; // rows written for good
  let drawn = 0; // rows drawn in place below them
  let shown = ''; // what those rows say
  let checked = 0; // the text up to here was searched for a settled end
  let settledAt = 0; // the end of the longest settled text found
  let settledRows = -1; // its rows that are final (-1: not laid out yet)
  let resumed = { at: 0, styles: '' }; // the styles open at the start of row `at`

  const resized = () => (options.columns?.() ?? width) !== width;
  /**
   * Back to the first drawn row's start, everything below it erased. Once the terminal was resized its rows may
   * have been rewrapped: what was drawn stays, and the line goes on below it.
   */
  const erase = () => {
    if (drawn === 0) return '';
    if (resized()) return '\n';
    return `\r${drawn > 1 ? `\x1b[${drawn - 1}A` : ''}\x1b[J`;
  };
  /** Row `index` written after something else: the styles open at its start first. */
  const resume = (rows: string[], index: number) => {
    if (resumed.at > index) resumed = { at: 0, styles: '' };
    if (resumed.at < index)
      resumed = { at: index, styles: openStyles(resumed.styles + rows.slice(resumed.at, index).join('\n')) };
    return resumed.styles;
  };
  const reset = () => {
    done = drawn = checked = settledAt = 0;
    settledRows = -1;
    resumed = { at: 0, styles: '' };
    shown = '';
  };

  /** Text ending at a space is settled if nothing after can restyle it; the newest such end is searched first. */
  const findSettled = (text: string) => {
    for (
      let at = text.lastIndexOf(' ');
      at >= checked && at > settledAt;
      at = text.lastIndexOf(' ', at - 1)
    ) {
      if (!options.settled(text.slice(settledAt, at))) continue;
      settledAt = at;
      settledRows = -1;
      break;
    }
    checked = text.length;
  };
  /** The rows of the settled text but its last (which can still take more words): they are final. */
  const finalRows = (text: string) => {
    if (settledRows < 0) settledRows = options.layout(text.slice(0, settledAt)).split('\n').length - 1;
    return settledRows;
  };

  return {
    update(text) {
      if (text.length > LIVE_CHARS) return;
      const rows = options.layout(text).split('\n');
      findSettled(text);
      // Only a line of more rows than are written and drawn may have a row become final.
      const final =
        rows.length - 1 > done ? Math.max(done, Math.min(finalRows(text), rows.length - 1)) : done;
      const live = rows.slice(final, final + LIVE_ROWS);
      const fits = !resized() && live.every((row) => columnsAtMost(row) <= width);
      const next = fits ? live.join('\n') : '';
      if (final === done && next === shown) return;
      let out = erase();
      if (final > done) out += `${resume(rows, done)}${rows.slice(done, final).join('\n')}\n`;
      else if (next) out += resume(rows, done);
      out += next;
      // Styles a later row closes are closed here, so the next redraw starts from none.
      if (next && openStyles(resume(rows, final) + next)) out += '\x1b[0m';
      done = final;
      drawn = next ? live.length : 0;
      shown = next;
      if (out) write(out);
    },
    finish(text) {
      const rows = options.layout(text).split('\n');
      write(`${erase()}${resume(rows, done)}${rows.slice(done).join('\n')}\n`);
      reset();
    },
    lift() {
      if (drawn > 0) write(erase());
      drawn = 0;
      shown = '';
    },
  };
}
