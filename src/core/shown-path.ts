// A path as Keel lists it to the model or the user: a name holding a line break or another control character is
// quoted with JSON escapes (`"a\nb"`, as git and `ls -b` do), so one line is one path; tools take the quoted form
// back (listedPath).

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** `path` as a listing shows it: as it is, or quoted with escapes when it holds a control character. */
export function shownPath(path: string): string {
  return CONTROL.test(path) ? JSON.stringify(path) : path;
}

/**
 * The path a listing's quoted form stands for (`"a\nb"` → a, line break, b), or undefined when `text` is no such
 * form: only a quoted string whose unquoted path holds a control character, which is the only kind shownPath quotes.
 */
export function listedPath(text: string): string | undefined {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return undefined;
  try {
    const path: unknown = JSON.parse(text);
    return typeof path === 'string' && CONTROL.test(path) ? path : undefined;
  } catch {
    return undefined;
  }
}
