// An .editorconfig read as editors read it (editorconfig.org's specification): its sections in order, each a glob
// over paths below the file's folder, later matching sections overriding earlier ones. What settings a given file
// gets, for `keel init`'s conventions and organize_imports' line width.

export interface EditorConfig {
  /** `root = true`: no .editorconfig above this one applies. */
  root: boolean;
  sections: { glob: string; props: Record<string, string> }[];
}

/** Values the specification reads case-insensitively; others (a custom key's) are kept as written. */
const KNOWN = new Set([
  'indent_style',
  'indent_size',
  'tab_width',
  'end_of_line',
  'charset',
  'trim_trailing_whitespace',
  'insert_final_newline',
  'max_line_length',
  'root',
]);

/** The file's preamble (`root`) and sections; comment lines start with `#` or `;`, keys are case-insensitive. */
export function parseEditorConfig(text: string): EditorConfig {
  const config: EditorConfig = { root: false, sections: [] };
  let section: EditorConfig['sections'][number] | undefined;
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n|\r/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      section = { glob: line.slice(1, -1), props: {} };
      config.sections.push(section);
      continue;
    }
    const equals = line.indexOf('=');
    if (equals <= 0) continue;
    const key = line.slice(0, equals).trim().toLowerCase();
    // A ` ;` or ` #` starts a comment, as the reference cores read it.
    let value = line
      .slice(equals + 1)
      .replace(/\s[;#].*$/, '')
      .trim();
    if (KNOWN.has(key)) value = value.toLowerCase();
    if (section) section.props[key] = value;
    else if (key === 'root') config.root = value === 'true';
  }
  return config;
}

const escapeRegex = (char: string): string => char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** The index of the `}` closing the `{` at `open`, nested braces and escapes skipped; -1 when none does. */
function closingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === '\\') i++;
    else if (glob[i] === '{') depth++;
    else if (glob[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** `a,b{c,d},e` → its top-level alternatives, escaped commas and nested braces kept. */
function alternatives(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '\\') i++;
    else if (inner[i] === '{') depth++;
    else if (inner[i] === '}') depth--;
    else if (inner[i] === ',' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts;
}

/** The `]` closing the class opened at `open`, after any `!` or `^`, escapes skipped; -1 when none does. */
function closingBracket(glob: string, open: number): number {
  for (let i = open + 1; i < glob.length; i++) {
    if (glob[i] === '\\') i++;
    else if (glob[i] === ']') return i;
  }
  return -1;
}

/** A section glob as regex source; `{n..m}` ranges become capture groups, their bounds pushed to `ranges`. */
function translate(glob: string, ranges: [number, number][]): string {
  let out = '';
  for (let i = 0; i < glob.length; ) {
    const c = glob[i]!;
    if (c === '\\') {
      out += i + 1 < glob.length ? escapeRegex(glob[i + 1]!) : '\\\\';
      i += 2;
    } else if (c === '*') {
      const star2 = glob[i + 1] === '*';
      out += star2 ? '.*' : '[^/]*';
      i += star2 ? 2 : 1;
    } else if (c === '?') {
      out += '[^/]';
      i++;
    } else if (c === '/' && glob.startsWith('/**/', i)) {
      out += '(?:/|/.*/)';
      i += 4;
    } else if (c === '[') {
      const close = closingBracket(glob, i);
      // A class holding a slash is no class: the brackets are themselves.
      if (close === -1 || glob.slice(i, close).includes('/')) {
        out += '\\[';
        i++;
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      let chars = '';
      for (let j = 0; j < body.length; j++) {
        // An escaped character is itself; an unescaped `-` makes a range.
        const escaped = body[j] === '\\' && j + 1 < body.length;
        const ch = escaped ? body[++j]! : body[j]!;
        chars += (ch === '-' && !escaped) || /\w/.test(ch) ? ch : `\\${ch}`;
      }
      out += `[${negated ? '^' : ''}${chars}]`;
      i = close + 1;
    } else if (c === '{') {
      const close = closingBrace(glob, i);
      if (close === -1) {
        out += '\\{';
        i++;
        continue;
      }
      const inner = glob.slice(i + 1, close);
      const range = /^([+-]?\d+)\.\.([+-]?\d+)$/.exec(inner);
      const parts = alternatives(inner);
      if (range) {
        ranges.push([Number(range[1]), Number(range[2])]);
        out += '([+-]?\\d+)';
      } else if (parts.length === 1) out += `\\{${translate(inner, ranges)}\\}`;
      else out += `(?:${parts.map((part) => translate(part, ranges)).join('|')})`;
      i = close + 1;
    } else {
      out += escapeRegex(c);
      i++;
    }
  }
  return out;
}

/**
 * Whether a section's glob matches `relative`, a `/`-separated path from the .editorconfig's folder: a glob with a
 * slash is anchored there (a leading one dropped), one without matches a name at any depth.
 */
export function sectionMatches(glob: string, relative: string): boolean {
  const anchored = glob.includes('/');
  const ranges: [number, number][] = [];
  const body = translate(anchored && glob.startsWith('/') ? glob.slice(1) : glob, ranges);
  const match = new RegExp(`^${anchored ? '' : '(?:.*/)?'}${body}$`, 's').exec(relative);
  if (!match) return false;
  // A range matches an integer in it, written without a leading zero.
  return ranges.every(([low, high], i) => {
    const text = match[i + 1]!;
    const value = Number(text);
    return !/^[+-]?0\d/.test(text) && value >= Math.min(low, high) && value <= Math.max(low, high);
  });
}

/** The settings `relative` gets: every matching section's, later ones overriding; `unset` takes a setting away. */
export function editorConfigFor(config: EditorConfig, relative: string): Record<string, string> {
  const props: Record<string, string> = {};
  for (const section of config.sections) {
    if (!sectionMatches(section.glob, relative)) continue;
    for (const [key, value] of Object.entries(section.props)) {
      if (value === 'unset') delete props[key];
      else props[key] = value;
    }
  }
  return props;
}
