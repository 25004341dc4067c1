// A project-wide rename: every reference find_references sees, rewritten; object shorthands keep their key.
import type { CodeIndex } from './code-index.js';
import { goReceiverType } from './go-references.js';
import { javaFamily } from './java-references.js';
import { type LocalBinding, localBindingIn } from './local-binding.js';
import { escapeRegex, type Occurrence } from './occurrences.js';
import { findProjectReferences } from './references.js';
import { definitionsOf } from './symbol-definitions.js';

export interface RenamedFile {
  path: string;
  before: string;
  after: string;
  count: number;
}

/** A name-based rename: the files' new texts, the uses it left undecided, the local binding it was limited to. */
export interface RenamePlan {
  files: RenamedFile[];
  /** Uses of a member of the name whose receiver's type could not be read (FileReferences.undecided). */
  undecided: { path: string; line: number }[];
  local?: LocalBinding & { path: string };
}

export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Methods of the Go standard library's interfaces, with the interface a type has by defining them. */
const GO_INTERFACE_METHODS = new Map(
  Object.entries({
    ServeHTTP: "net/http's Handler",
    String: "fmt's Stringer",
    GoString: "fmt's GoStringer",
    Format: "fmt's Formatter",
    Error: 'the error interface',
    Unwrap: "errors' wrapping",
    Is: "errors.Is's",
    As: "errors.As's",
    Read: "io's Reader",
    Write: "io's Writer",
    Close: "io's Closer",
    Seek: "io's Seeker",
    ReadFrom: "io's ReaderFrom",
    WriteTo: "io's WriterTo",
    Len: "sort's Interface",
    Less: "sort's Interface",
    Swap: "sort's Interface",
    MarshalJSON: "encoding/json's Marshaler",
    UnmarshalJSON: "encoding/json's Unmarshaler",
    MarshalText: "encoding's TextMarshaler",
    UnmarshalText: "encoding's TextUnmarshaler",
    Scan: "database/sql's Scanner",
    Value: "database/sql/driver's Valuer",
    Deadline: "context's Context",
    Done: "context's Context",
    Err: "context's Context",
  }),
);

/** The new content of every file that mentions `name`; an error message when the rename cannot be done. */
export async function planRename(
  index: CodeIndex,
  name: string,
  newName: string,
  definedIn: string | undefined,
  signal?: AbortSignal,
  /** The line of `definedIn` holding the definition, when the model gave one. */
  line?: number,
  column?: number,
): Promise<RenamePlan | string> {
  if (!IDENTIFIER.test(newName)) return `${newName} is not a valid identifier`;
  if (newName === name) return 'the new name is the same as the old one';
  const local =
    definedIn !== undefined && line !== undefined
      ? await localBindingIn(index, name, definedIn, line, column)
      : undefined;
  if (local && definedIn !== undefined) return renameLocal(local, definedIn, name, newName);
  const defs = definitionsOf(index, name, definedIn, line);
  if (defs.length === 0)
    return `no definition of ${name}${definedIn ? ` in ${definedIn}` : ''}; try search_code`;
  // Go satisfies interfaces by method name alone: a method the standard library's interfaces name, renamed,
  // silently stops its types being one (mux's Router an http.Handler), which a rename by name cannot see.
  const goInterface = GO_INTERFACE_METHODS.get(name);
  if (goInterface && defs.every((d) => d.path.endsWith('.go') && d.def.kind === 'method'))
    return `${name} is the method ${goInterface} names: renamed, the types defining it would stop being one, which a rename by name cannot check (no gopls here); rename it by hand where that is wanted`;
  const files = await findProjectReferences(index, name, definedIn, signal, line, column);
  // A definition of the new name in a file the rename changes would take its uses: one at the top level, or a
  // nested type (gson's MapTypeAdapterFactory.Adapter, had TypeAdapter become Adapter).
  const TYPES = new Set(['class', 'interface', 'enum', 'type']);
  // A method renamed onto a name a class it changes already has (jsoup's Node.attr → Element.attribute) would
  // overload or clash: refused, as a Java build would fail or call the other one.
  const methods = defs.every((d) => d.def.kind === 'method' && d.def.container !== undefined);
  // Go's methods are named without their type here: it is read off the receiver (`func (r *Route) Host`).
  const renamesMethods = defs.every((d) => d.def.kind === 'method');
  const goReceivers = new Set(
    defs.filter((d) => d.path.endsWith('.go')).map((d) => goReceiverType(d.def.signature) ?? ''),
  );
  const family = methods
    ? javaFamily(index, [...new Set(defs.map((d) => d.def.container!))])
    : new Set<string>();
  // Every Java file for a method (a subclass declaring the new name need not call the old one), else the files
  // the rename changes.
  const checked = new Set([
    ...files.map((f) => f.path),
    ...(methods ? [...index.files.keys()].filter((p) => p.endsWith('.java')) : []),
  ]);
  for (const file of checked) {
    const changed = files.some((f) => f.path === file);
    const taken = index.files.get(file)?.definitions.find(
      (d) =>
        d.name === newName &&
        // A method's new name is taken by another method of its classes; a function of that name lives beside it
        // (gin's render.WriteJSON and a Context.WriteJSON).
        ((changed &&
          (renamesMethods ? !d.container && TYPES.has(d.kind) : !d.container || TYPES.has(d.kind))) ||
          (methods && d.kind === 'method' && d.container !== undefined && family.has(d.container)) ||
          (renamesMethods && d.kind === 'method' && goReceivers.has(goReceiverType(d.signature) ?? '\0'))),
    );
    if (taken)
      return `${newName} is already defined in ${file}${taken.container ? ` (${taken.container}.${newName})` : ''}; pick another name`;
  }
  const renamed = files
    .filter((file) => file.occurrences.length > 0)
    .map((file) => renamedFile(file.path, file.source, file.occurrences, name, newName));
  const undecided = files.flatMap((file) => file.undecided.map((o) => ({ path: file.path, line: o.line })));
  return { files: renamed, undecided };
}

/** One file's text with the occurrences renamed; a shorthand (`{ name }`) keeps its key. */
function renamedFile(
  file: string,
  source: string,
  occurrences: readonly Occurrence[],
  name: string,
  newName: string,
): RenamedFile {
  let after = '';
  let at = 0;
  for (const o of [...occurrences].sort((a, b) => a.start - b.start)) {
    after += source.slice(at, o.start) + (o.shorthand ? `${name}: ${newName}` : newName);
    at = o.end;
  }
  after += source.slice(at);
  return { path: file, before: source, after, count: occurrences.length };
}

/** A local binding renamed in its scope; refused when the new name is already used there (it would be captured). */
function renameLocal(
  local: LocalBinding & { source: string },
  file: string,
  name: string,
  newName: string,
): RenamePlan | string {
  const { source, ...binding } = local;
  const scope = source.slice(...local.scope);
  if (new RegExp(`(?<![\\w$])${escapeRegex(newName)}(?![\\w$])`).test(scope))
    return `${newName} is already used in the scope of the local ${name} (${file}:${local.from}-${local.to}); pick another name`;
  return {
    files: [renamedFile(file, source, local.occurrences, name, newName)],
    undecided: [],
    local: { ...binding, path: file },
  };
}
