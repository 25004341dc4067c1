// The near-misses edit_file tolerates in old_string, as data: typographic dashes and quotes for ASCII, over-escaped
// sequences, whitespace at the edges and inside a line. Each is low-risk: the match must still be unique.

/** Typographic characters and the ASCII a model types for them; one UTF-16 unit each, so offsets stay valid. */
const TYPOGRAPHIC: Record<string, string> = {
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '-', // figure dash
  '\u2013': '-', // en dash
  '\u2014': '-', // em dash
  '\u2015': '-', // horizontal bar
  '\u2212': '-', // minus sign
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u00A0': ' ', // no-break space
  '\u202F': ' ', // narrow no-break space
};

const TYPOGRAPHIC_CHARS = new RegExp(`[${Object.keys(TYPOGRAPHIC).join('')}]`, 'g');

/** The text with typographic dashes, quotes and no-break spaces as ASCII; the same length, offset for offset. */
export function asciiPunctuation(text: string): string {
  return text.replace(TYPOGRAPHIC_CHARS, (ch) => TYPOGRAPHIC[ch] ?? ch);
}

export const hasTypographic = (text: string): boolean => asciiPunctuation(text) !== text;

/** Escape sequences a model over-escapes (it writes the JSON or source escape instead of the character). */
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', '"': '"', "'": "'", '`': '`', '\\': '\\' };

/** One level of escaping taken off, left to right: `\"` → `"`, `\n` → a line break, `\\n` → `\n`. */
export function unescapeOnce(text: string): string {
  return text.replace(/\\([nt"'`\\])/g, (_, ch: string) => ESCAPES[ch] ?? ch);
}

/** Whitespace runs as one space, none next to punctuation: `f( a,  b )` and `f(a, b)` are the same line. */
export function canonicalLine(line: string): string {
  return asciiPunctuation(line)
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/ ?([^\w ]) ?/g, '$1');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A pattern for old_string without its edge whitespace, in which any run of spaces and tabs may differ in length
 * (and be absent next to punctuation), while line breaks must be there, as many as written.
 */
export function fragmentPattern(fragment: string): RegExp | undefined {
  const text = fragment.trim();
  if (text === '') return undefined;
  const tokens = text.match(/\w+|[^\w\s]|\s+/g) ?? [];
  let source = '';
  let previous = '';
  for (const [i, token] of tokens.entries()) {
    if (/^\s+$/.test(token)) {
      const breaks = token.split('\n').length - 1;
      source += breaks > 0 ? `[ \\t]*(?:\\n[ \\t]*){${breaks}}` : '[ \\t]+';
      previous = token;
      continue;
    }
    // Around punctuation the file may have spaces the model left out.
    if (i > 0 && !/^\s+$/.test(previous) && (/^\W/.test(token) || /\W$/.test(previous))) source += '[ \\t]*';
    source += escapeRegExp(token);
    previous = token;
  }
  return new RegExp(source, 'g');
}

/** new_string with the edge whitespace taken off where old_string had edge whitespace taken off. */
export function trimLikeOld(oldText: string, newText: string): string {
  let text = newText;
  if (/^\s/.test(oldText)) text = text.trimStart();
  if (/\s$/.test(oldText)) text = text.trimEnd();
  return text;
}
