// Minimal ANSI styling for the terminal renderer: colour at a colour terminal, bold/underline/dim/italic only under
// NO_COLOR, nothing when the stream is not a TTY or TERM=dumb.

export interface Style {
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  bold(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  magenta(text: string): string;
  blue(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;

/** What a stream is styled with: colours and attributes, attributes only (NO_COLOR at a terminal), or nothing. */
export type StyleLevel = 'color' | 'attributes' | 'none';

export function createStyle(level: boolean | StyleLevel): Style {
  if (level === false || level === 'none') {
    const same = (text: string) => text;
    return {
      dim: same,
      red: same,
      green: same,
      yellow: same,
      cyan: same,
      bold: same,
      italic: same,
      underline: same,
      magenta: same,
      blue: same,
    };
  }
  const styled = {
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    bold: wrap(1, 22),
    italic: wrap(3, 23),
    underline: wrap(4, 24),
    magenta: wrap(35, 39),
    blue: wrap(34, 39),
  };
  if (level !== 'attributes') return styled;
  // no-color.org asks only that no colour is added: bold, underline, dim and italic still mark headings and asides.
  const same = (text: string) => text;
  return { ...styled, red: same, green: same, yellow: same, cyan: same, magenta: same, blue: same };
}

/** Colour: on a TTY that is not TERM=dumb (a dumb terminal shows escape codes as text), unless NO_COLOR or FORCE_COLOR. */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR) return true;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

/**
 * How to style a stream: colour where colorEnabled says so; under NO_COLOR, at a terminal that shows escape codes as
 * styling (a TTY that is not TERM=dumb), bold, underline, dim and italic without colour; otherwise nothing.
 */
export function styleLevel(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): StyleLevel {
  if (colorEnabled(stream, env)) return 'color';
  return env.NO_COLOR && stream.isTTY && env.TERM !== 'dumb' ? 'attributes' : 'none';
}

/** The style for what is written to `stream` (see styleLevel). */
export function streamStyle(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Style {
  return createStyle(styleLevel(stream, env));
}

/**
 * A terminal that shows more than colour (Markdown's structure, a spinner): a TTY that is not TERM=dumb. NO_COLOR
 * turns colour off, nothing else (no-color.org): headings, lists and tables are still drawn, only without colour.
 */
export function richTerminal(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): boolean {
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}
