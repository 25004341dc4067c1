// A project-wide rename: every reference find_references sees, rewritten; object shorthands keep their key.
import type { CodeIndex } from './code-index.js';
import { definitionsOf, findProjectReferences } from './references.js';

export interface RenamedFile {
  path: string;
  before: string;
  after: string;
  count: number;
}

export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The new content of every file that mentions `name`; an error message when the rename cannot be done. */
export async function planRename(
  index: CodeIndex,
  name: string,
  newName: string,
  definedIn: string | undefined,
  signal?: AbortSignal,
): Promise<RenamedFile[] | string> {
  if (!IDENTIFIER.test(newName)) return `${newName} is not a valid identifier`;
  if (newName === name) return 'the new name is the same as the old one';
  const defs = definitionsOf(index, name, definedIn);
  if (defs.length === 0)
    return `no definition of ${name}${definedIn ? ` in ${definedIn}` : ''}; try search_code`;
  const files = await findProjectReferences(index, name, definedIn, signal);
  // A definition of the new name in a file the rename changes would take its uses: one at the top level, or a
  // nested type (gson's MapTypeAdapterFactory.Adapter, had TypeAdapter become Adapter).
  const TYPES = new Set(['class', 'interface', 'enum', 'type']);
  for (const f of files) {
    const taken = index.files
      .get(f.path)
      ?.definitions.find((d) => d.name === newName && (!d.container || TYPES.has(d.kind)));
    if (taken)
      return `${newName} is already defined in ${f.path}${taken.container ? ` (${taken.container}.${newName})` : ''}; pick another name`;
  }
  const renamed: RenamedFile[] = [];
  for (const file of files) {
    if (file.occurrences.length === 0) continue;
    let after = '';
    let at = 0;
    for (const o of [...file.occurrences].sort((a, b) => a.start - b.start)) {
      after += file.source.slice(at, o.start) + (o.shorthand ? `${name}: ${newName}` : newName);
      at = o.end;
    }
    after += file.source.slice(at);
    renamed.push({ path: file.path, before: file.source, after, count: file.occurrences.length });
  }
  return renamed;
}
