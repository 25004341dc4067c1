// Java types as written (no language service): the project's member types (a field's, a method's return, inherited
// ones too), a type's simple name, and what a JDK container's element accessors return (`ArrayList<Element>.get`).
import type { CodeIndex } from './code-index.js';
import { sourceLines, topLevelParts } from './source-text.js';

/**
 * A Java class member's declared type (a field's, a method's return) as written, type arguments too (`ArrayList<Element>`),
 * by class and member name; undefined if unknown.
 */
export interface JavaMemberType {
  (owner: string, member: string): string | undefined;
  /**
   * A project interface's one abstract method, the method a lambda given as that interface is: its parameters'
   * types as written, and the interface's type parameters (`JsonDeserializer<T>`); undefined if not one.
   */
  lambdaParameters?(type: string): { parameters: string[]; typeParameters: string[] } | undefined;
  /**
   * A project class's type parameters and the types it extends or implements as written (jsoup's
   * `Nodes<T extends Node> extends ArrayList<T>`: `T`, `ArrayList<T>`).
   */
  heritage?(type: string): { parameters: string[]; supertypes: string[] };
}

/**
 * A class's or an interface's declaration read from its signature: the type parameters after its name
 * (`Nodes<T extends Node>`: T) and the types it extends or implements, as written (`ArrayList<T>`).
 */
export function javaHeritage(
  signature: string,
  name: string,
): { parameters: string[]; supertypes: string[] } {
  const named = new RegExp(`\\b(?:class|interface|record|enum)\\s+${name}\\b\\s*`).exec(signature);
  let at = named ? named.index + named[0].length : 0;
  let parameters: string[] = [];
  if (named && signature[at] === '<') {
    const from = at + 1;
    for (let depth = 0; at < signature.length; at++) {
      depth += signature[at] === '<' ? 1 : signature[at] === '>' ? -1 : 0;
      if (depth === 0) break;
    }
    parameters = topLevelParts(signature.slice(from, at)).map((p) => p.split(/\s/)[0]!);
    at += 1;
  }
  const heritage = /\b(?:extends|implements)\s+([^{]*)/.exec(signature.slice(at))?.[1] ?? '';
  const supertypes = topLevelParts(heritage.replace(/\b(?:extends|implements)\b/g, ',')).filter(
    (t) => t !== '',
  );
  return { parameters, supertypes };
}

/** The member types of the index's Java classes, read from their signatures (`private final CodeBlock javadoc`). */
export function javaMemberTypes(index: CodeIndex): JavaMemberType {
  /** Per `Class.member`, where it is declared: the file and line its type is read from when first asked. */
  let places: Map<string, { path: string; line: number }> | undefined;
  const types = new Map<string, string | undefined>();
  const linesOf = sourceLines(index.root);
  /** Per class, the classes and interfaces it extends or implements, by simple name; and as written (javaHeritage). */
  const parents = new Map<string, string[]>();
  const heritages = new Map<string, { parameters: string[]; supertypes: string[] }>();
  const functional = new Map<string, ReturnType<typeof functionalMethod>>();
  const parentsOf = (name: string) => parents.get(name) ?? [];
  /** The places and the parents, read from the index when first needed. */
  const load = (): Map<string, { path: string; line: number }> => {
    if (!places) {
      places = new Map();
      for (const [file, tags] of index.files) {
        if (tags.language !== 'java') continue;
        for (const d of tags.definitions) {
          if (d.kind === 'class' || d.kind === 'interface') {
            const heritage = javaHeritage(d.signature, d.name);
            heritages.set(d.name, heritage);
            parents.set(
              d.name,
              heritage.supertypes.map((t) => simpleType(t) ?? t),
            );
          }
          if (d.container && (d.kind === 'field' || d.kind === 'method')) {
            const at = `${d.container}.${d.name}`;
            if (!places.has(at)) places.set(at, { path: file, line: d.line });
          }
        }
      }
    }
    return places;
  };
  const memberType: JavaMemberType = (owner, member) => {
    const key = `${owner}.${member}`;
    if (types.has(key)) return types.get(key);
    const places = load();
    // Declared here, or inherited: the nearest superclass declaring it (HtmlTreeBuilder.currentElement is
    // TreeBuilder's).
    let place = places.get(key);
    if (!place) {
      const seen = new Set<string>([owner]);
      for (let level = parentsOf(owner); !place && level.length > 0; ) {
        const next: string[] = [];
        for (const parent of level) {
          if (seen.has(parent)) continue;
          seen.add(parent);
          place ??= places.get(`${parent}.${member}`);
          next.push(...parentsOf(parent));
        }
        level = next;
      }
    }
    let type: string | undefined;
    if (place) {
      const text = linesOf(place.path);
      // The declaration up to the name: `private final CodeBlock.Builder javadoc = …`; from its first line, which
      // may hold only an annotation (`@Override` above `public @Nullable Element first()`).
      const line = text.slice(place.line - 1, place.line + 4).join('\n');
      const before = line
        .slice(0, line.search(new RegExp(`\\b${member}\\b`)))
        .replace(/@\w+(\([^)]*\))?/g, '');
      type = lastTypeText(before);
    }
    types.set(key, type);
    return type;
  };
  memberType.lambdaParameters = (type) => {
    if (!functional.has(type)) functional.set(type, functionalMethod(index, linesOf, type));
    return functional.get(type);
  };
  memberType.heritage = (type) => {
    load();
    return heritages.get(type) ?? { parameters: [], supertypes: [] };
  };
  return memberType;
}

/** The parameters of a Java interface's one abstract method, read from its declaration (see JavaMemberType). */
function functionalMethod(
  index: CodeIndex,
  linesOf: (path: string) => string[],
  type: string,
): { parameters: string[]; typeParameters: string[] } | undefined {
  for (const [file, tags] of index.files) {
    if (tags.language !== 'java') continue;
    const face = tags.definitions.find((d) => d.kind === 'interface' && d.name === type);
    if (!face) continue;
    const abstract = tags.definitions.filter(
      (d) => d.kind === 'method' && d.container === type && !/\b(default|static|private)\b/.test(d.signature),
    );
    if (abstract.length !== 1) return undefined;
    const method = abstract[0]!;
    const text = linesOf(file)
      .slice(method.line - 1, method.endLine ?? method.line)
      .join(' ');
    const params = new RegExp(`\\b${method.name}\\s*\\(([^)]*)\\)`).exec(text)?.[1]?.trim();
    if (params === undefined) return undefined;
    const parameters = (params === '' ? [] : topLevelParts(params)).map((p) =>
      p
        .replace(/@\w+(\([^)]*\))?\s*/g, '')
        .replace(/\bfinal\s+/, '')
        .replace(/\s*[A-Za-z_$][\w$]*\s*$/, '')
        .trim(),
    );
    const typeParameters = javaHeritage(face.signature, type).parameters;
    return { parameters, typeParameters };
  }
  return undefined;
}

/** A Java type as written → its simple name: `Map.Entry<K, V>[]` → `Entry`. */
export const simpleType = (text: string | undefined): string | undefined =>
  text
    ?.replace(/<[\s\S]*$/, '')
    .replace(/\[\]/g, '')
    .split('.')
    .pop()
    ?.trim() || undefined;

/** The type written last in `text`, type arguments and all (`private final ArrayList<Element> ` → `ArrayList<Element>`). */
function lastTypeText(text: string): string | undefined {
  let end = text.trimEnd().replace(/(\[\])+$/, '');
  let at = end.length;
  if (end.endsWith('>')) {
    let depth = 0;
    for (at = end.length - 1; at >= 0; at--) {
      if (end[at] === '>') depth++;
      else if (end[at] === '<' && --depth === 0) break;
    }
    if (at < 0) return undefined;
  }
  const name = /[A-Za-z_$][\w$.]*$/.exec(end.slice(0, at))?.[0];
  if (!name) return undefined;
  end = end.slice(at - name.length);
  return end;
}

/** The type arguments of a type as written, top level only: `Map<String, List<Node>>` → `String`, `List<Node>`. */
function typeArguments(text: string): string[] {
  const open = text.indexOf('<');
  return open < 0 || !text.endsWith('>') ? [] : topLevelParts(text.slice(open + 1, -1));
}

/** The JDK's containers by how many type arguments they take, and which of them their element accessors return. */
const ONE_ELEMENT = new Set(
  (
    'List ArrayList LinkedList Vector Stack Deque ArrayDeque Queue PriorityQueue Collection Iterable Set SortedSet ' +
    'NavigableSet TreeSet HashSet LinkedHashSet Optional Iterator ListIterator Supplier AtomicReference ThreadLocal ' +
    'Future CompletableFuture Callable Reference WeakReference SoftReference BlockingQueue LinkedBlockingQueue ' +
    'ArrayBlockingQueue ConcurrentLinkedQueue ConcurrentLinkedDeque CopyOnWriteArrayList'
  ).split(' '),
);
const ELEMENT_METHODS = new Set(
  (
    'get getFirst getLast peek peekFirst peekLast pop poll pollFirst pollLast element first last next previous ' +
    'removeFirst removeLast elementAt firstElement lastElement orElse orElseThrow orElseGet join take call floor ' +
    'ceiling lower higher getAcquire getPlain'
  ).split(' '),
);
const TWO_ELEMENTS = new Set(
  'Map HashMap TreeMap LinkedHashMap SortedMap NavigableMap ConcurrentHashMap ConcurrentMap EnumMap IdentityHashMap WeakHashMap'.split(
    ' ',
  ),
);
const VALUE_METHODS = new Set(
  'get getOrDefault remove put putIfAbsent replace compute computeIfAbsent computeIfPresent merge'.split(' '),
);
const KEY_METHODS = new Set('firstKey lastKey floorKey ceilingKey lowerKey higherKey'.split(' '));

/**
 * What an element accessor returns on a type as written: a JDK container's (elementType), or one a project class
 * extends (jsoup's `Elements extends Nodes<Element>`, `Nodes<T> extends ArrayList<T>`: `get` gives an Element).
 */
export function inheritedElementType(
  memberType: JavaMemberType,
  container: string,
  method: string,
  depth = 0,
): string | undefined {
  const direct = elementType(container, method);
  const type = simpleType(container);
  if (direct || !type || depth > 6 || !memberType.heritage) return direct;
  const { parameters, supertypes } = memberType.heritage(type);
  const args = typeArguments(container);
  for (const supertype of supertypes) {
    const bound = parameters.reduce(
      (text, p, i) => (args[i] ? text.replace(new RegExp(`\\b${escapeWord(p)}\\b`, 'g'), args[i]!) : text),
      supertype,
    );
    const found = inheritedElementType(memberType, bound, method, depth + 1);
    if (found) return found;
  }
  return undefined;
}

const escapeWord = (word: string) => word.replace(/[$]/g, '\\$');

/**
 * What an element accessor of a JDK container returns (`stack.get(i)` of an `ArrayList<Element>`: `Element`), or
 * undefined: not such a call, or a type variable (`T`) or wildcard whose class is not written here.
 */
export function elementType(container: string, method: string): string | undefined {
  const args = typeArguments(container);
  const kind = simpleType(container);
  if (!kind) return undefined;
  let arg: string | undefined;
  if (ONE_ELEMENT.has(kind) && args.length === 1 && ELEMENT_METHODS.has(method)) arg = args[0];
  else if (TWO_ELEMENTS.has(kind) && args.length === 2)
    arg = VALUE_METHODS.has(method) ? args[1] : KEY_METHODS.has(method) ? args[0] : undefined;
  const bound = arg?.replace(/^\?\s+extends\s+/, '');
  if (!bound || bound.startsWith('?') || /^[A-Z][A-Z0-9]?$/.test(bound)) return undefined;
  return bound;
}
