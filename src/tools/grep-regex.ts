// The Rust regex syntax rg reads, as a JavaScript RegExp for grep's fallback: the common forms translated (a leading
// `(?i)`, `(?P<name>`, `\p{…}` as JavaScript names it, `[[:digit:]]`, `\x{…}`, `\A` `\z`, `\<` `\>`, escaped
// punctuation), and what has no JavaScript form named in the error, so the model can rewrite it.

/** A translated pattern, or why it cannot be searched without rg. */
export type JsRegex = { regex: RegExp } | { error: string };

const unsupported = (what: string, instead: string): { error: string } => ({
  error:
    `grep is searching without ripgrep here (its binary cannot run), in JavaScript regex syntax: ` +
    `${what} has no JavaScript form; ${instead}`,
});

/** POSIX classes (ASCII, as Rust reads them) as JavaScript class contents. */
const POSIX: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\x2F:-@\\x5B-\\x60\\x7B-~',
  space: '\\t\\n\\x0B\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** Rust's word-boundary assertions beyond `\b`. */
const BOUNDARIES: Readonly<Record<string, string>> = {
  '\\<': '\\b(?=\\w)',
  '\\>': '\\b(?<=\\w)',
  '\\b{start}': '\\b(?=\\w)',
  '\\b{end}': '\\b(?<=\\w)',
  '\\b{start-half}': '(?<!\\w)',
  '\\b{end-half}': '(?!\\w)',
};

/** `(?i)`, `(?is)`, `(?-i)`: flags for the rest of the pattern, which JavaScript takes only as the RegExp's own. */
const LEADING_FLAGS = /^\(\?(?=[a-zA-Z-]*[a-zA-Z])([a-zA-Z]*)(?:-([a-zA-Z]*))?\)/;

/** Characters a JavaScript `u` pattern lets be escaped as themselves. */
const JS_ESCAPABLE = new Set('^$\\.*+?()[]{}|/');

const hex = (char: string): string => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;

const compiles = (source: string): boolean => {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
};

/**
 * A Unicode property as JavaScript names it: Rust also takes a script without `Script=` (`\p{Greek}`), `:` for
 * `=`, and any case (`\p{greek}`, `\p{lu}`).
 */
function property(name: string, negated: boolean): string | undefined {
  const title = (words: string) =>
    words.replace(/[A-Za-z]+/g, (w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase()).replace(/[ -]/g, '_');
  const [key, value] = name.trim().split(/[:=]/, 2) as [string, string | undefined];
  const candidates =
    value === undefined
      ? [key, `Script=${key}`, title(key), `Script=${title(key)}`]
      : [`${key}=${value}`, `${key}=${title(value)}`, `${key.toLowerCase()}=${title(value)}`];
  for (const candidate of candidates) {
    const source = `\\${negated ? 'P' : 'p'}{${candidate}}`;
    if (compiles(source)) return source;
  }
  return undefined;
}

/** The escape at `pattern[at]` (a backslash) in JavaScript, and how many characters of the pattern it took. */
function jsEscape(
  pattern: string,
  at: number,
  inClass: boolean,
): { text: string; length: number } | { error: string } {
  const next = pattern[at + 1];
  if (next === undefined) return { text: '\\', length: 1 };
  const rest = pattern.slice(at);
  if (!inClass)
    for (const [rust, js] of Object.entries(BOUNDARIES))
      if (rest.startsWith(rust)) return { text: js, length: rust.length };
  if (next === 'x' || next === 'u' || next === 'U') {
    const braced = /^\\[xuU]\{([0-9A-Fa-f]+)\}/.exec(rest);
    if (braced) return { text: `\\u{${braced[1]}}`, length: braced[0].length };
    const long = /^\\U([0-9A-Fa-f]{8})/.exec(rest);
    if (long) return { text: `\\u{${long[1]}}`, length: long[0].length };
  }
  if (next === 'p' || next === 'P') {
    const named = /^\\[pP](?:\{([^}]*)\}|([A-Za-z]))/.exec(rest);
    if (!named) return { text: rest.slice(0, 2), length: 2 };
    const name = named[1] ?? named[2]!;
    const js = property(name, next === 'P');
    if (js === undefined)
      return unsupported(
        `the Unicode class ${named[0]}`,
        'name a property JavaScript knows, as \\p{Lu} or \\p{Script=Greek}',
      );
    return { text: js, length: named[0].length };
  }
  if (!inClass && next === 'A') return { text: '^', length: 2 };
  if (!inClass && next === 'z') return { text: '$', length: 2 };
  if (next === 'a') return { text: '\\x07', length: 2 };
  // Rust lets any ASCII punctuation be escaped; JavaScript's `u` patterns only their own syntax characters.
  if (/[!-/:-@[-`{-~ ]/.test(next) && !JS_ESCAPABLE.has(next) && !(inClass && next === '-'))
    return { text: hex(next), length: 2 };
  return { text: rest.slice(0, 2), length: 2 };
}

/**
 * The pattern as a JavaScript RegExp with the `u` flag (Unicode classes, as Rust's), matched against one line at a
 * time; `(?i)` and other flags at its very start become the RegExp's flags.
 */
export function jsRegex(pattern: string, caseInsensitive: boolean): JsRegex {
  const flags = new Set(['u', ...(caseInsensitive ? ['i'] : [])]);
  let source = pattern;
  for (let lead = LEADING_FLAGS.exec(source); lead; lead = LEADING_FLAGS.exec(source)) {
    for (const [set, on] of [
      [lead[1] ?? '', true],
      [lead[2] ?? '', false],
    ] as const)
      for (const flag of set) {
        if (flag === 'i' || flag === 's') {
          if (on) flags.add(flag);
          else flags.delete(flag);
        } else if (flag !== 'm' && flag !== 'u')
          // `m` changes nothing when each line is matched alone; `u` is on.
          return unsupported(`the inline flag ${on ? '' : '-'}${flag} in ${lead[0]}`, 'leave it out');
        else if (flag === 'u' && !on) return unsupported(`${lead[0]} (ASCII-only classes)`, 'leave it out');
      }
    source = source.slice(lead[0].length);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; ) {
    const c = source[i]!;
    if (c === '\\') {
      const escaped = jsEscape(source, i, inClass);
      if ('error' in escaped) return escaped;
      out += escaped.text;
      i += escaped.length;
    } else if (inClass) {
      if (c === '[') {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(source.slice(i));
        if (!posix)
          return unsupported('a class inside a class ([a[bc]])', 'write its characters in one class');
        const chars = POSIX[posix[2]!];
        if (posix[1] || chars === undefined)
          return unsupported(`the class ${posix[0]}`, 'write its characters, as [0-9] for [:digit:]');
        out += chars;
        i += posix[0].length;
        continue;
      }
      if ((c === '&' || c === '-' || c === '~') && source[i + 1] === c)
        return unsupported(`the class operation ${c}${c}`, 'list the characters the class should hold');
      if (c === ']') inClass = false;
      out += c;
      i++;
    } else if (c === '[') {
      inClass = true;
      out += '[';
      i++;
      if (source[i] === '^') {
        out += '^';
        i++;
      }
      // Rust reads a `]` first in a class as itself; JavaScript as the end of an empty class.
      if (source[i] === ']') {
        out += '\\]';
        i++;
      }
    } else if (c === '{' || c === '}') {
      // A repetition `{n,m}` as it is; Rust reads a `}` alone as itself, JavaScript's `u` patterns refuse it.
      const close = c === '{' ? source.indexOf('}', i) : -1;
      const end = close === -1 ? i + 1 : close + 1;
      out += c === '}' ? '\\}' : source.slice(i, end);
      i = end;
    } else if (c === '(' && source.startsWith('(?P<', i)) {
      out += '(?<';
      i += 4;
    } else if (
      c === '(' &&
      /^\(\?[a-zA-Z]*-?[a-zA-Z]*[:)]/.test(source.slice(i)) &&
      !source.startsWith('(?:', i)
    ) {
      return unsupported(
        'an inline flag after the start of the pattern',
        'put (?i) at its very start, or set case_insensitive',
      );
    } else {
      out += c;
      i++;
    }
  }
  try {
    return { regex: new RegExp(out, [...flags].join('')) };
  } catch (error) {
    return { error: `invalid regex: ${error instanceof Error ? error.message : String(error)}` };
  }
}
