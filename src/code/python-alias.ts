// rename_symbol's keep_alias for Python: after a rename, the old name stays importable. The defining module binds
// it to the new one (`BasicAuth = BasicAuthentication` after the class), every `__all__` that lists one of the
// names lists both, and a package's `__init__.py` (or a module with `__all__`) importing the new name imports the
// old one beside it (`from .sessions import Client, Session`).
import { type AstNode, parseSource } from './ast-grep.js';
import { LANGUAGES } from './languages.js';
import { allEntries, stringValue } from './python-names.js';

const DEFINITIONS = new Set(['class_definition', 'function_definition']);

interface Insert {
  at: number;
  text: string;
}

const python = () => LANGUAGES.find((l) => l.id === 'python')!;

/** The statement defining `name` at the top level or in a class (its decorators with it), or undefined. */
function definitionOf(root: AstNode, name: string): AstNode | undefined {
  for (const node of root.findAll({ rule: { any: [...DEFINITIONS].map((kind) => ({ kind })) } })) {
    if (node.field('name')?.text() !== name) continue;
    const scope = node.ancestors().find((a) => DEFINITIONS.has(a.kind()));
    if (scope !== undefined && scope.kind() !== 'class_definition') continue;
    return node.parent()?.kind() === 'decorated_definition' ? node.parent()! : node;
  }
  // `NAME = …` at the top level.
  return root
    .children()
    .find((s) => s.kind() === 'expression_statement' && s.namedChildren()[0]?.field('left')?.text() === name);
}

/** Insert `text` as another entry after `entry` of a list: on a line of its own when the entry has one. */
function entryAfter(source: string, entry: AstNode, text: string): Insert {
  const end = entry.range().end.index;
  const lineStart = source.lastIndexOf('\n', entry.range().start.index - 1) + 1;
  const indent = source.slice(lineStart, entry.range().start.index);
  const rest = /^[ \t]*(,?)[ \t]*(?=\n)/.exec(source.slice(end));
  if (indent.trim() !== '' || !rest) return { at: end, text: `, ${text}` };
  // The last entry without a trailing comma: one goes before the new line (two strings would be one).
  return rest[1]
    ? { at: end + rest[0].length, text: `\n${indent}${text},` }
    : { at: end, text: `,\n${indent}${text}` };
}

/**
 * `source` (the file at `path`, already renamed) with the old name kept importable: defined there when
 * `defining`; undefined when nothing needed adding.
 */
export function keepPythonAlias(
  source: string,
  path: string,
  oldName: string,
  newName: string,
  defining: boolean,
): string | undefined {
  const root = parseSource(python(), source);
  const inserts: Insert[] = [];
  if (defining) {
    const definition = definitionOf(root, newName);
    const bound = new RegExp(`^[ \\t]*${oldName}[ \\t]*=[ \\t]*${newName}[ \\t]*$`, 'm').test(source);
    if (definition && !bound) {
      const { start, end } = definition.range();
      const indent = ' '.repeat(start.column);
      const gap = start.column === 0 ? '\n\n\n' : '\n\n';
      inserts.push({ at: end.index, text: `${gap}${indent}${oldName} = ${newName}` });
    }
  }
  const entries = allEntries(root);
  const named = (name: string) => entries.find((e) => stringValue(e) === name);
  const listedNew = named(newName);
  const listedOld = named(oldName);
  if (listedNew && !listedOld) {
    const quote = listedNew.text().at(-1)!;
    inserts.push(entryAfter(source, listedNew, `${quote}${oldName}${quote}`));
  } else if (listedOld && !listedNew) {
    const quote = listedOld.text().at(-1)!;
    inserts.push(entryAfter(source, listedOld, `${quote}${newName}${quote}`));
  }
  // A package's API (or a module whose `__all__` gives the name): what it imports under the new name, it gives
  // under the old too.
  if (/(^|\/)__init__\.pyi?$/.test(path) || listedNew || listedOld)
    for (const statement of root.children()) {
      if (statement.kind() !== 'import_from_statement') continue;
      const module = statement.field('module_name');
      const names = statement
        .namedChildren()
        .filter(
          (c) =>
            c.kind() === 'dotted_name' && !(module && c.range().start.index === module.range().start.index),
        );
      const imported = names.find((n) => n.text() === newName);
      if (imported && !names.some((n) => n.text() === oldName))
        inserts.push(entryAfter(source, imported, oldName));
    }
  if (inserts.length === 0) return undefined;
  let result = source;
  for (const insert of inserts.sort((a, b) => b.at - a.at))
    result = result.slice(0, insert.at) + insert.text + result.slice(insert.at);
  return result;
}
