// Omission placeholders ("// ... rest of code", "(rest of methods ...)") in edit_file's new_string: a model that
// writes one would replace real code with it, so edit_file refuses them unless old_string has the same line.

// Comment and bracket wrappers taken off a line before its words are read: `// x`, `# x`, `/* x */`, `(x)`.
const WRAPPERS: readonly RegExp[] = [
  /^\{\/\*(.*)\*\/\}$/s, // JSX: {/* ... */}
  /^\/\*+(.*?)\*+\/$/s,
  /^<!--(.*)-->$/s,
  /^(?:\/\/+|#+|--|;+|%+|\*)(.*)$/s,
  /^\((.*)\)$/s,
  /^\[(.*)\]$/s,
];

/**
 * What a placeholder says, on its whole line once wrappers and ellipses are taken off. Case-insensitive; a phrase
 * must be the whole text so that real comments ("other methods are in utils.ts") are not taken for placeholders.
 */
const PHRASES: readonly RegExp[] = [
  // rest of code, rest of the file unchanged, the remainder of methods
  /^(?:the )?(?:rest|remainder)(?: of (?:the )?[\w ]{0,40})?$/,
  // existing code here, unchanged methods, other functions omitted, previous implementation as before
  /^(?:keep (?:the )?)?(?:existing|unchanged|remaining|previous|other|original|same|more|omitted)(?: \w+){0,2}?(?: (?:here|unchanged|omitted|as before|goes here|remains? (?:unchanged|the same)|stays? the same|(?:is )?not shown))?$/,
  // code unchanged, methods omitted, implementation as before
  /^(?:\w+ ){0,2}(?:code|methods?|functions?|implementation|body|content|logic|lines?|imports?|tests?|fields?|props|properties)(?: \w+)? (?:unchanged|omitted|as before|stays the same|remains? (?:unchanged|the same)|here)$/,
  /^(?:same as before|as before|unchanged|omitted|etc|and so on)$/,
];

// \u2026 (…) written as an escape: the bundle stays ASCII, which the launcher reads as latin1.
const ELLIPSIS = /\.{3,}|\u2026/g;

/** Without an ellipsis, a phrase counts only when it names code: "# rest of the world" is a real comment. */
const CODE_WORDS =
  /\b(?:code|methods?|functions?|file|class(?:es)?|implementation|body|content|logic|components?|modules?|lines?|imports?|tests?|fields?|props|properties|unchanged|omitted|here|as before)\b/;

/** The line's words with wrappers and ellipses taken off, and whether it had a wrapper or an ellipsis at all. */
function unwrap(line: string): { words: string; wrapped: boolean; ellipsis: boolean } {
  let text = line.trim();
  let wrapped = false;
  for (let changed = true; changed; ) {
    changed = false;
    for (const wrapper of WRAPPERS) {
      const match = wrapper.exec(text);
      if (match) {
        text = (match[1] ?? '').trim();
        wrapped = true;
        changed = true;
      }
    }
  }
  const ellipsis = ELLIPSIS.test(text);
  ELLIPSIS.lastIndex = 0;
  const words = text
    .replace(ELLIPSIS, ' ')
    .replace(/[():,.]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  return { words, wrapped, ellipsis };
}

/** Python's stub body: `...` alone under a line ending with `:` is code (Ellipsis), not an omission. */
function isPythonStubBody(lines: readonly string[], index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const above = lines[i]!.trim();
    if (above !== '') return above.endsWith(':');
  }
  return false;
}

/**
 * Whether a line of new_string is an omission placeholder. A bare `...` counts only where the edit drops lines of
 * old_string (`dropsLines`): an ellipsis added to prose replaces nothing.
 */
export function isPlaceholderLine(lines: readonly string[], index: number, dropsLines = true): boolean {
  const line = lines[index]!;
  const { words, wrapped, ellipsis } = unwrap(line);
  if (words === '') {
    // `...` alone, or a comment holding only an ellipsis: `// ...`, `<!-- ... -->`.
    if (!ellipsis) return false;
    return wrapped || (dropsLines && !isPythonStubBody(lines, index));
  }
  // Without a wrapper only the bracketed or ellipsis forms count: "rest of code" bare may be prose in a text file.
  if (!wrapped && !ellipsis) return false;
  return PHRASES.some((phrase) => phrase.test(words)) && (ellipsis || CODE_WORDS.test(words));
}

/** Placeholder lines of new_string that old_string does not have, trimmed, in order. */
export function newPlaceholders(oldText: string, newText: string): string[] {
  const oldLines = new Set(oldText.split('\n').map((line) => line.trim()));
  const lines = newText.split('\n');
  const kept = new Set(lines.map((line) => line.trim()));
  const dropsLines = [...oldLines].some((line) => line !== '' && !kept.has(line));
  const found: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (oldLines.has(line.trim())) continue;
    if (isPlaceholderLine(lines, i, dropsLines)) found.push(line.trim());
  }
  return found;
}
