// The names a source file exports, read from its text (no parse): enough to tell which names a change took away
// from a module, so the files that still use them can be checked by the language service, which has the last word.

const SCRIPT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const PYTHON = /\.pyi?$/;

const SCRIPT_DECLARATION =
  /^[ \t]*export[ \t]+(?:declare[ \t]+)?(?:default[ \t]+)?(?:async[ \t]+)?(?:abstract[ \t]+)?(?:function[ \t]*\*?|class|const|let|var|interface|type|enum|namespace)[ \t]+([A-Za-z_$][\w$]*)/gm;
const SCRIPT_LIST = /\bexport[ \t]+(?:type[ \t]+)?\{([^}]*)\}/g;
const COMMONJS = /^[ \t]*(?:module\.)?exports\.([A-Za-z_$][\w$]*)[ \t]*=/gm;
const PYTHON_TOP_LEVEL = /^(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)|^(\w+)[ \t]*(?::[^=\n]*)?=(?!=)/gm;

/** The names `text` (the file at `path`) exports: TS/JS exports, Python's top-level definitions; none otherwise. */
export function exportedNames(path: string, text: string): Set<string> {
  const names = new Set<string>();
  if (SCRIPT.test(path)) {
    for (const m of text.matchAll(SCRIPT_DECLARATION)) names.add(m[1]!);
    for (const m of text.matchAll(COMMONJS)) names.add(m[1]!);
    for (const m of text.matchAll(SCRIPT_LIST))
      for (const item of m[1]!.split(',')) {
        // `a`, `a as b`, `type a as b`: the name importers use is the last word.
        const name = item.trim().split(/\s+/).at(-1);
        if (name && name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name)) names.add(name);
      }
  } else if (PYTHON.test(path)) {
    for (const m of text.matchAll(PYTHON_TOP_LEVEL)) names.add((m[1] ?? m[2])!);
  }
  return names;
}

/** The names `before` exported and `after` no longer does. */
export function removedExports(path: string, before: string, after: string): string[] {
  const now = exportedNames(path, after);
  return [...exportedNames(path, before)].filter((name) => !now.has(name));
}

const escapeDollar = (name: string) => name.replace(/\$/g, '\\$');

/**
 * Whether `text` may still give importers `name` in a way exportedNames does not read: a re-export of everything
 * (`export * from`, `from m import *`), Python's module `__getattr__`, or the name bound anywhere in it (an import,
 * an assignment or a definition inside `try:` or `if TYPE_CHECKING:`, an `export` further on). Keel's own check
 * of importers reports an import as broken only when this says no.
 */
export function mayStillExport(path: string, text: string, name: string): boolean {
  const n = escapeDollar(name);
  if (SCRIPT.test(path))
    return (
      /\bexport\s*\*\s*from\b/.test(text) ||
      new RegExp(`\\bexport\\b[^;\\n]*[\\s{,*]${n}\\b`).test(text) ||
      new RegExp(`\\bexports\\s*=|\\bexports\\.${n}\\b|\\bexports\\[`).test(text)
    );
  if (PYTHON.test(path)) {
    // A docstring's example (`from pydantic import BaseModel, computed_field`) or a comment binds nothing.
    const code = withoutPythonStrings(text);
    return (
      /^[ \t]*from[ \t]+\S+[ \t]+import[ \t]+\*/m.test(code) ||
      /^(?:async[ \t]+)?def[ \t]+__getattr__\b/m.test(code) ||
      new RegExp(
        `^[ \\t]*(?:(?:async[ \\t]+)?def|class)[ \\t]+${n}\\b|^[ \\t]*${n}[ \\t]*(?::[^=\\n]*)?=(?!=)|\\bimport\\b[^\\n#]*\\b${n}\\b|\\bas[ \\t]+${n}\\b|^[ \\t]*${n}[ \\t]*[,)]?[ \\t]*$|,[ \\t]*${n}[ \\t]*[,)=]`,
        'm',
      ).test(code)
    );
  }
  return true;
}

/** A Python string (triple-quoted ones too, an unterminated one to the end) or a comment. */
const PYTHON_STRING_OR_COMMENT =
  /("""|''')[\s\S]*?(?:\1|$(?![\s\S]))|#[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g;

/** Python text with its strings and comments blanked, line breaks kept. */
export function withoutPythonStrings(text: string): string {
  return text.replace(PYTHON_STRING_OR_COMMENT, (match) => match.replace(/[^\n]/g, ' '));
}

/**
 * Where a Python module's `__all__` still lists one of `names` its text no longer binds (pydantic's fields.py after
 * `computed_field` was renamed): `from module import *` fails there. 1-based line and column of the string.
 */
export function staleAllEntries(
  path: string,
  text: string,
  names: readonly string[],
): { name: string; line: number; column: number }[] {
  if (!PYTHON.test(path) || names.length === 0) return [];
  const head = /^__all__[ \t]*(?::[^=\n]*)?=[ \t]*/m.exec(text);
  if (!head) return [];
  const start = head.index + head[0].length;
  let end = text.indexOf('\n', start);
  const open = text[start];
  if (open === '(' || open === '[') {
    const close = text.indexOf(open === '(' ? ')' : ']', start);
    end = close < 0 ? text.length : close;
  }
  if (end < 0) end = text.length;
  const found: { name: string; line: number; column: number }[] = [];
  for (const name of names) {
    const entry = new RegExp(`(['"])${escapeDollar(name)}\\1`).exec(text.slice(start, end));
    if (!entry || mayStillExport(path, text, name)) continue;
    const at = start + entry.index;
    const before = text.slice(0, at);
    found.push({ name, line: before.split('\n').length, column: at - before.lastIndexOf('\n') });
  }
  return found;
}
