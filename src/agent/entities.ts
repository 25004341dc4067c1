// The paths and symbols a user's message names: the intent classifier's entities, and what tells a path from a phrase.

/** Top-level folders that make `src/parser` a path rather than a phrase like `and/or`. */
const SOURCE_DIRS = new Set([
  'src',
  'lib',
  'test',
  'tests',
  'app',
  'pkg',
  'cmd',
  'docs',
  'internal',
  'scripts',
  'bin',
]);
/** A symbol: backticked, called (`parse()`), camelCase, PascalCase with an inner capital, or snake_case. */
const SYMBOLS = [
  /`([^`\s]+)`/g,
  /\b([A-Za-z_$][\w$]*)\(\)/g,
  /\b([a-z]+[A-Z][\w$]*)\b/g,
  /\b([A-Z][a-z0-9]+[A-Z][\w$]*)\b/g,
  /\b([a-z][a-z0-9]*_[a-z0-9_]+)\b/g,
];

export function isPath(token: string): boolean {
  if (token === '' || /^https?:/.test(token) || /^[\d./-]+$/.test(token)) return false;
  if (token.includes('/')) {
    // `and/or`, `read/write`: two plain words are a phrase unless the first is a usual source folder.
    const plain = /^[A-Za-z]+\/[A-Za-z]+$/.test(token);
    return !plain || SOURCE_DIRS.has(token.split('/')[0]!.toLowerCase());
  }
  // A name with a file extension of letters: `a.ts`, `Makefile.am`; not `e.g` or `i.e`.
  return /^[\w@-]+(\.[\w-]+)*\.[A-Za-z]\w{0,7}$/.test(token) && !/^(e\.g|i\.e|etc|vs)$/i.test(token);
}

/** A word of a message without the quotes, brackets and punctuation around it: `(src/a.ts),` is `src/a.ts`. */
export const bareWord = (raw: string): string =>
  raw.replace(/^[`'"(<[]+/, '').replace(/[`'")\]>,:;!?.]+$/, '');

/** Paths first, then symbols, each once. */
export function extractEntities(message: string): string[] {
  const found = new Set<string>();
  for (const raw of message.split(/\s+/)) {
    const token = bareWord(raw);
    if (isPath(token)) found.add(token);
  }
  for (const pattern of SYMBOLS) {
    for (const match of message.matchAll(pattern)) {
      const token = match[1]!;
      if (![...found].some((f) => f.includes(token))) found.add(token);
    }
  }
  return [...found].slice(0, 20);
}
