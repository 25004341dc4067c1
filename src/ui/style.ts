// Minimal ANSI styling for the terminal renderer; off when the stream is not a TTY or NO_COLOR is set.

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

export function createStyle(enabled: boolean): Style {
  if (!enabled) {
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
  return {
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
}

/** Colour: on a TTY that is not TERM=dumb (a dumb terminal shows escape codes as text), unless NO_COLOR or FORCE_COLOR. */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR) return true;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

/**
 * A terminal that shows more than colour (Markdown's structure, a spinner): a TTY that is not TERM=dumb. NO_COLOR
 * turns colour off, nothing else (no-color.org): headings, lists and tables are still drawn, only without colour.
 */
export function richTerminal(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): boolean {
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}
