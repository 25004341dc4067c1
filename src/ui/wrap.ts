// Word wrapping for the terminal: lines broken at spaces to fit the width, never inside a word unless the word
// alone is wider than the line; colour escapes take no room and continuation lines keep the line's indent.
// No library for this is installed (wrap-ansi would do); this is the small part of it Keel needs.

// biome-ignore lint/suspicious/noControlCharactersInRegex: our own SGR escapes are measured around.
const SGR = /\x1b\[[0-9;]*m/g;

/** Terminal columns a text takes: its characters without the colour escapes. */
export function visibleWidth(text: string): number {
  return [...text.replace(SGR, '')].length;
}

/** Below this a terminal is too narrow to wrap sensibly: lines are left to the terminal. */
const MIN_WIDTH = 20;

/** `word` in pieces of `first` visible characters, then of `rest`, its escapes kept in place. */
function hardBreak(word: string, first: number, rest: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let count = 0;
  let limit = Math.max(1, first);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escapes stay whole.
  for (const part of word.split(/(\x1b\[[0-9;]*m)/)) {
    if (part.startsWith('\x1b')) {
      piece += part;
      continue;
    }
    for (const char of part) {
      if (count === limit) {
        pieces.push(piece);
        piece = '';
        count = 0;
        limit = rest;
      }
      piece += char;
      count += 1;
    }
  }
  pieces.push(piece);
  return pieces;
}

/** One line (no newline in it) wrapped to `width`; continuation lines start with `indent` (default: the line's own). */
export function wrapLine(line: string, width: number, indent?: string): string {
  if (width < MIN_WIDTH || visibleWidth(line) <= width) return line;
  const lead = /^ */.exec(line)?.[0] ?? '';
  const hanging = indent ?? lead;
  const room = Math.max(MIN_WIDTH / 2, width - visibleWidth(hanging));
  // Words at even places, the spaces between them at odd ones.
  const parts = line.slice(lead.length).split(/( +)/);
  const lines: string[] = [];
  let current = lead;
  let column = lead.length;
  for (let i = 0; i < parts.length; i += 2) {
    const space = i === 0 ? '' : (parts[i - 1] ?? '');
    const word = parts[i] ?? '';
    const size = visibleWidth(word);
    if (column + space.length + size <= width) {
      current += space + word;
      column += space.length + size;
      continue;
    }
    if (size === 0) continue; // spaces past the edge
    if (i > 0) {
      lines.push(current);
      current = hanging;
      column = visibleWidth(hanging);
    }
    // A word wider than a line is cut: the only break there is.
    const pieces = column + size <= width ? [word] : hardBreak(word, width - column, room);
    for (const piece of pieces.slice(0, -1)) {
      lines.push(current + piece);
      current = hanging;
    }
    current += pieces.at(-1)!;
    column = visibleWidth(current);
  }
  lines.push(current);
  return lines.join('\n');
}

/** Each line of `text` wrapped to `width`, its line breaks kept. */
export function wrapText(text: string, width: number, indent?: string): string {
  return text
    .split('\n')
    .map((line) => wrapLine(line, width, indent))
    .join('\n');
}

/**
 * A stream whose complete lines are wrapped to the terminal's width at the time of writing; a piece without its
 * newline (streamed reasoning) passes as it is.
 */
export function wrappingStream(stream: NodeJS.WritableStream, columns: () => number): NodeJS.WritableStream {
  const write = (text: string) => {
    const end = text.lastIndexOf('\n');
    if (end === -1) return stream.write(text);
    return stream.write(wrapText(text.slice(0, end), columns()) + text.slice(end));
  };
  return { write } as unknown as NodeJS.WritableStream;
}

/** The stream's width when it is a terminal (text for it is wrapped to fit), else undefined (a pipe gets lines whole). */
export function terminalColumns(stream: NodeJS.WritableStream): number | undefined {
  const tty = stream as NodeJS.WriteStream;
  return tty.isTTY ? tty.columns || 80 : undefined;
}

/** `text` wrapped to `columns` when given (terminalColumns), else as it is. */
export const wrapFor = (text: string, columns: number | undefined, indent?: string): string =>
  columns === undefined ? text : wrapText(text, columns, indent);
