// Cutting text for display: the one place that shortens a string and marks the cut.

/** `text` cut to at most `max` characters, the last being `…` when anything was cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}

/** `text` on one line (runs of white space become one space), cut to `max` characters. */
export function clipLine(text: string, max: number): string {
  return clip(text.replace(/\s+/g, ' ').trim(), max);
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, never splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  return Buffer.from(text)
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
}

/** The longest suffix of `text` whose UTF-8 encoding fits in `maxBytes`, never splitting a character. */
export function utf8Suffix(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= maxBytes) return text;
  return bytes
    .subarray(bytes.length - maxBytes)
    .toString('utf8')
    .replace(/^\uFFFD+/, '');
}

/** `12,345`: thousands grouped with commas, without Intl (loading locale data costs start-up time). */
export function groupDigits(n: number): string {
  const [whole, fraction] = String(n).split('.');
  const grouped = (whole ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** Levenshtein distance of two strings, or 3 when their lengths differ by more than 2 (then no closer). */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** True when `prefix` fails to parse for a reason other than stopping early. */
function failsBeforeEnd(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return false;
  } catch (error) {
    const position = /at position (\d+)/.exec((error as Error).message)?.[1];
    return position !== undefined
      ? Number(position) < prefix.length
      : !/Unexpected end/.test((error as Error).message);
  }
}

/** The offset of a JSON syntax error: from the message, or (Node 20 omits it for unexpected tokens) by search. */
function jsonErrorOffset(message: string, text: string): number {
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return Number(position);
  if (/Unexpected end/.test(message)) return text.length;
  // Every prefix shorter than the bad character parses or merely ends early, so the first that fails is found
  // by bisection.
  let low = 1;
  let high = text.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (failsBeforeEnd(text.slice(0, middle))) high = middle;
    else low = middle + 1;
  }
  return low - 1;
}

/** Where JSON.parse failed on `text` (1-based line and column) and why, without Node's excerpt of the text. */
export function jsonSyntaxProblem(
  text: string,
  error: unknown,
): { line: number; column: number; reason: string } {
  const message = error instanceof Error ? error.message : String(error);
  const before = text.slice(0, jsonErrorOffset(message, text)).split('\n');
  const reason = message.replace(/ in JSON at position \d+[\s\S]*$/, '').replace(/, (\.\.\.)?"[\s\S]*$/, '');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1, reason };
}
