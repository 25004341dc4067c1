// Renders Markdown for a colour terminal as it streams in: a paragraph, heading, list item or quote as it arrives
// (its unfinished line drawn in place until it ends, live-line.ts); a code block (highlighted) and a table (aligned)
// when they close. Text is sanitized before it is styled, so nothing the model writes can act as a terminal escape.
import { highlightCode } from './highlight.js';
import { createLiveLine } from './live-line.js';
import { sanitize } from './sanitize.js';
import type { Style } from './style.js';
import { wrapLine } from './wrap.js';

export interface MarkdownStreamOptions {
  write: (text: string) => void;
  style: Style;
  /** Terminal columns, for rules and tables, and where lines wrap. */
  width: number;
  /** The terminal's columns now: once they are no longer `width` (resized), a line is no longer redrawn in place. */
  columns?: () => number;
}

export interface MarkdownStream {
  push(delta: string): void;
  /** Renders what is still held (a last line without its newline, an unclosed code block or table). */
  end(): void;
  /** Takes the unfinished line off the screen before something else is written; the next push draws it again. */
  lift(): void;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(\s*)([-*+])\s+(.*)$/;
const NUMBERED = /^(\s*)(\d{1,9}[.)])\s+(.*)$/;
const TASK = /^\[([ xX])\]\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const TABLE_ROW = /^\s*\|.*\|?\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;
/** The start of a line that may still turn out a code fence, a table row or a rule: it is not shown until it ends. */
const UNDECIDED = /^\s*(`{0,2}|~{0,2}|\|.*|`{3,}.*|~{3,}.*|([-*_])(\s*\2)*\s*)$/;

/** Inline Markdown of one line: code spans, bold, italic, strike-through, links. */
export function renderInline(text: string, style: Style): string {
  // Code spans first, kept out of the other rules by placeholders (private-use characters sanitize leaves alone).
  const spans: string[] = [];
  let out = text.replace(/(`+)(.+?)\1/g, (_, _ticks: string, code: string) => {
    spans.push(style.cyan(code.trim() === '' ? code : code.replace(/^ (.*) $/, '$1')));
    return `\uE000${spans.length - 1}\uE001`;
  });
  out = out
    .replace(/\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g, (_, label: string, url: string) =>
      label === url ? style.underline(url) : `${style.underline(label)} ${style.dim(`(${url})`)}`,
    )
    .replace(/<(https?:\/\/[^>\s]+)>/g, (_, url: string) => style.underline(url))
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, (_, _m: string, inner: string) => style.bold(inner))
    .replace(
      /(^|[^\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?!\*)/g,
      (_, pre: string, inner: string) => `${pre}${style.italic(inner)}`,
    )
    .replace(
      /(^|[^\w])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w])/g,
      (_, pre: string, inner: string) => `${pre}${style.italic(inner)}`,
    )
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, (_, inner: string) => style.dim(inner));
  return out.replace(/\uE000(\d+)\uE001/g, (_, i: string) => spans[Number(i)] ?? '');
}

/** What could close a span opened before it, each after a space (a code span's closer is added per backtick run). */
const CLOSERS = ['x**', 'x__', 'x*', 'x_', 'x~~', 'x](u)', 'x")', '"x")'];

/**
 * Whether `text` leaves no inline span open that text after it (past a space) could close: then how it renders is
 * final. Each closer is tried: a span it closes restyles what is already there.
 */
export function inlineSettled(text: string, style: Style): boolean {
  const shown = renderInline(text, style);
  const ticks = new Set(text.match(/`+/g) ?? []);
  return [...CLOSERS, ...[...ticks].map((run) => `x${run}`)].every((closer) =>
    renderInline(`${text} ${closer}`, style).startsWith(shown),
  );
}

/** The cells of a table row: `| a | b |` → ['a', 'b']. Escaped pipes stay in their cell. */
function cells(row: string): string[] {
  const inner = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** Visible width: the length without ANSI sequences. */
function visible(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: measuring around our own escapes.
  return [...text.replace(/\x1b\[[0-9;]*m/g, '')].length;
}

/**
 * Column widths that fit `room`: the widest column gives up a column at a time; undefined when even columns of
 * MIN_CELL could not fit (the table is then left as wide as it is).
 */
const MIN_CELL = 4;
export function fitWidths(natural: number[], room: number): number[] | undefined {
  const widths = [...natural];
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > room) {
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= MIN_CELL) return undefined;
    widths[widest] = (widths[widest] ?? 0) - 1;
    total -= 1;
  }
  return widths;
}

/** Plain text in lines of at most `width` characters, broken at spaces, a longer word cut. */
function wrapPlain(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/ +/).filter(Boolean)) {
    let rest = [...word];
    if (current && [...current].length + 1 + rest.length <= width) {
      current += ` ${word}`;
      continue;
    }
    if (current) lines.push(current);
    while (rest.length > width) {
      lines.push(rest.slice(0, width).join(''));
      rest = rest.slice(width);
    }
    current = rest.join('');
  }
  lines.push(current);
  return lines;
}

function renderTable(rows: string[], style: Style, width: number): string {
  const [head = '', , ...body] = rows;
  const aligns = cells(rows[1] ?? '').map((c) =>
    c.startsWith(':') && c.endsWith(':') ? 'center' : c.endsWith(':') ? 'right' : 'left',
  );
  const table = [cells(head).map((c) => style.bold(renderInline(c, style)))].concat(
    body.map((r) => cells(r).map((c) => renderInline(c, style))),
  );
  const columns = Math.max(...table.map((r) => r.length));
  const natural = Array.from({ length: columns }, (_, i) =>
    Math.max(1, ...table.map((r) => visible(r[i] ?? ''))),
  );
  // Wider than the terminal: the widest columns narrow and their cells wrap, rather than the terminal breaking rows.
  const widths = fitWidths(natural, width - 3 * (columns - 1)) ?? natural;
  const pad = (text: string, i: number) => {
    const room = (widths[i] ?? 0) - visible(text);
    if (aligns[i] === 'right') return ' '.repeat(room) + text;
    if (aligns[i] === 'center')
      return ' '.repeat(Math.floor(room / 2)) + text + ' '.repeat(Math.ceil(room / 2));
    return text + ' '.repeat(room);
  };
  // A cell that must wrap loses its inline styling (a header stays bold): each of its lines is styled whole.
  const cellLines = (text: string, i: number, header: boolean): string[] => {
    const w = widths[i] ?? 0;
    if (visible(text) <= w) return [text];
    // biome-ignore lint/suspicious/noControlCharactersInRegex: our own escapes are taken out.
    const lines = wrapPlain(text.replace(/\x1b\[[0-9;]*m/g, ''), w);
    return header ? lines.map((l) => style.bold(l)) : lines;
  };
  const line = (r: string[], header = false) => {
    const parts = widths.map((_, i) => cellLines(r[i] ?? '', i, header));
    const height = Math.max(...parts.map((p) => p.length));
    return Array.from({ length: height }, (_, k) =>
      widths.map((_, i) => pad(parts[i]?.[k] ?? '', i)).join(style.dim(' │ ')),
    ).join('\n');
  };
  const rule = style.dim(widths.map((w) => '─'.repeat(w)).join('─┼─'));
  const out = [line(table[0] ?? [], true), rule, ...table.slice(1).map((r) => line(r))];
  return `${out.join('\n')}\n`;
}

function renderCode(lines: string[], lang: string, indent: string, style: Style, width: number): string {
  const code = lines.map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l)).join('\n');
  const shown = highlightCode(code, lang, style) ?? code;
  const label = style.dim(`┌─${lang ? ` ${lang}` : ''}`);
  // A line wider than the terminal goes on under the gutter, not at the terminal's first column.
  const gutter = `${style.dim('│')} `;
  const body = shown
    .split('\n')
    .map((l) => wrapLine(`${gutter}${l}`, width, gutter))
    .join('\n');
  return `${label}\n${body}\n${style.dim('└─')}\n`;
}

export function createMarkdownStream(options: MarkdownStreamOptions): MarkdownStream {
  const { write, style } = options;
  let pending = '';
  let fence: { marker: string; indent: string; lang: string; lines: string[] } | undefined;
  let table: string[] | undefined;

  const flushTable = () => {
    if (!table) return;
    const rows = table;
    table = undefined;
    if (rows.length >= 2 && TABLE_SEPARATOR.test(rows[1] ?? ''))
      write(renderTable(rows, style, options.width));
    else for (const row of rows) write(`${renderInline(row, style)}\n`);
  };

  const line = (unsafe: string) => {
    // sanitize() leaves Markdown's characters alone and is idempotent, so it may go first.
    const raw = sanitize(unsafe);
    if (fence) {
      const close = FENCE.exec(raw);
      // Closed by the same character, at least as many of it, and nothing after.
      const marker = close?.[2] ?? '';
      if (marker[0] === fence.marker[0] && marker.length >= fence.marker.length && !close?.[3]) {
        write(renderCode(fence.lines, fence.lang, fence.indent, style, options.width));
        fence = undefined;
      } else fence.lines.push(raw);
      return;
    }
    if (table) {
      // The second row decides whether this is a table at all.
      if (TABLE_ROW.test(raw) && (table.length !== 1 || TABLE_SEPARATOR.test(raw))) {
        table.push(raw);
        return;
      }
      flushTable();
    }
    const open = FENCE.exec(raw);
    if (open) {
      fence = { marker: open[2] ?? '```', indent: open[1] ?? '', lang: open[3] ?? '', lines: [] };
      return;
    }
    if (TABLE_ROW.test(raw) && raw.trim().startsWith('|')) {
      table = [raw];
      return;
    }
    live.finish(raw);
  };

  /** Where a wrapped line's continuation starts: under a list item's text, after a quote's bar. */
  const continuation = (text: string): string | undefined => {
    const item = BULLET.exec(text) ?? NUMBERED.exec(text);
    if (item) return ' '.repeat((item[1] ?? '').length + (item[2] ?? '').length + 1);
    if (QUOTE.test(text)) return `${style.dim('│')} `;
    return undefined;
  };

  /** The line as the terminal shows it: styled, wrapped. */
  const layout = (text: string) => wrapLine(renderLine(text), options.width, continuation(text));
  const live = createLiveLine({
    write,
    width: options.width,
    ...(options.columns ? { columns: options.columns } : {}),
    layout,
    settled: (text) => inlineSettled(text, style),
  });

  const renderLine = (text: string): string => {
    const heading = HEADING.exec(text);
    if (heading) {
      const level = heading[1]?.length ?? 1;
      const title = renderInline(heading[2] ?? '', style);
      return level <= 2 ? style.bold(style.underline(title)) : style.bold(title);
    }
    if (RULE.test(text)) return style.dim('─'.repeat(Math.max(3, Math.min(options.width, 80))));
    const quote = QUOTE.exec(text);
    if (quote) return `${style.dim('│')} ${style.italic(renderInline(quote[1] ?? '', style))}`;
    const bullet = BULLET.exec(text);
    if (bullet) {
      const task = TASK.exec(bullet[3] ?? '');
      if (task) {
        const done = task[1] !== ' ';
        return `${bullet[1]}${done ? style.green('☑') : '☐'} ${renderInline(task[2] ?? '', style)}`;
      }
      return `${bullet[1]}${style.cyan('•')} ${renderInline(bullet[3] ?? '', style)}`;
    }
    const numbered = NUMBERED.exec(text);
    if (numbered)
      return `${numbered[1]}${style.cyan(numbered[2] ?? '')} ${renderInline(numbered[3] ?? '', style)}`;
    return renderInline(text, style);
  };

  return {
    push(delta) {
      pending += delta;
      for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
        line(pending.slice(0, nl).replace(/\r$/, ''));
        pending = pending.slice(nl + 1);
      }
      // The line still arriving, once it is plain Markdown text (a fence or table waits for its end).
      const raw = sanitize(pending.replace(/\r$/, ''));
      if (!fence && !table && !UNDECIDED.test(raw)) live.update(raw);
    },
    end() {
      if (pending) line(pending);
      pending = '';
      if (fence) {
        // An answer that ends inside a code block: show the code anyway.
        write(renderCode(fence.lines, fence.lang, fence.indent, style, options.width));
        fence = undefined;
      }
      flushTable();
    },
    lift: () => live.lift(),
  };
}
