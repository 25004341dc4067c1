// Rust by name (no rust-analyzer): where a variable is declared where it is used (a parameter, the nearest `let`
// before it, a `for` loop's pattern), and the type that declaration gives it, through tuple patterns and the
// elements an iteration yields (`for (input, expected) in tests` over `[(Level, &str)]`). rust-references.ts asks.
import type { AstNode } from './ast-grep.js';
import { topLevelParts } from './source-text.js';

/** A step from a value to what a pattern binds: an iteration's element, or a tuple's field by place. */
type Step = 'element' | number;

/** A variable's declaration: its type as written, or the value it is given; then the steps down to it. */
interface Bound {
  type?: string;
  value?: AstNode;
  steps: Step[];
}

/** The type of an expression as written where it can be read (rust-references.ts' typeText). */
export type RustTypeOf = (expr: AstNode, depth: number) => string | undefined;

/** How deep a type is followed through variables, calls and fields: a builder's chain of a dozen calls. */
export const MAX_DEPTH = 40;

/** The steps from a pattern down to the variable `name` it binds (`(input, expected)` → [0]); undefined if none. */
function stepsTo(pattern: AstNode, name: string): Step[] | undefined {
  switch (pattern.kind()) {
    case 'identifier':
      return pattern.text() === name ? [] : undefined;
    case 'mut_pattern':
    case 'ref_pattern':
    case 'reference_pattern': {
      const inner = pattern.namedChildren().at(-1);
      return inner ? stepsTo(inner, name) : undefined;
    }
    case 'tuple_pattern': {
      const parts = pattern.namedChildren();
      for (let i = 0; i < parts.length; i++) {
        const below = stepsTo(parts[i]!, name);
        if (below) return [i, ...below];
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The declaration of `name` in scope where `from` is: a `let` before it in an enclosing block, a `for`'s pattern, a parameter. */
function boundAt(from: AstNode, name: string): Bound | undefined {
  const at = from.range().start.index;
  for (const scope of from.ancestors()) {
    if (scope.kind() === 'block') {
      let found: Bound | undefined;
      for (const statement of scope.children()) {
        if (statement.kind() !== 'let_declaration' || statement.range().end.index > at) continue;
        const pattern = statement.field('pattern');
        const steps = pattern ? stepsTo(pattern, name) : undefined;
        if (!steps) continue;
        const type = statement.field('type')?.text();
        const value = statement.field('value') ?? undefined;
        found = type ? { type, steps } : value ? { value, steps } : { steps };
      }
      if (found) return found;
    }
    if (scope.kind() === 'for_expression') {
      const body = scope.field('body');
      const pattern = scope.field('pattern');
      const steps = pattern && body && body.range().start.index <= at ? stepsTo(pattern, name) : undefined;
      const value = scope.field('value');
      if (steps) return value ? { value, steps: ['element', ...steps] } : { steps };
    }
    if (scope.kind() === 'function_item' || scope.kind() === 'closure_expression') {
      for (const param of scope.field('parameters')?.namedChildren() ?? []) {
        // A closure's untyped parameter (`|x| …`) is a pattern itself.
        const pattern = param.kind() === 'parameter' ? param.field('pattern') : param;
        const steps = pattern ? stepsTo(pattern, name) : undefined;
        if (steps) {
          const type = param.field('type')?.text();
          return type ? { type, steps } : { steps };
        }
      }
      if (scope.kind() === 'function_item') return undefined;
    }
  }
  return undefined;
}

/** `&'a mut T` → `T`. */
const unref = (type: string) =>
  type
    .trim()
    .replace(/^(?:&\s*(?:'\w+\s+)?(?:mut\s+)?)+/, '')
    .trim();

/** Containers an iteration yields the elements of (their first type argument), and maps, which yield pairs. */
const SEQUENCES =
  /^(?:[\w:]*::)?(?:Vec|VecDeque|LinkedList|HashSet|BTreeSet|BinaryHeap|Option|Iter|IterMut|IntoIter)\s*<([\s\S]*)>$/;
const MAPS = /^(?:[\w:]*::)?(?:HashMap|BTreeMap)\s*<([\s\S]*)>$/;

/** What a step takes out of a type as written: an array's, a slice's or a collection's element; a tuple's field. */
function stepType(type: string, step: Step): string | undefined {
  const t = unref(type);
  if (step !== 'element') {
    if (!t.startsWith('(') || !t.endsWith(')')) return undefined;
    return topLevelParts(t.slice(1, -1))[step];
  }
  if (t.startsWith('[') && t.endsWith(']')) {
    // `[T; N]`: the element before the length.
    const inner = t.slice(1, -1);
    let depth = 0;
    for (let i = 0; i < inner.length; i++) {
      const c = inner[i];
      if ('<([{'.includes(c!)) depth++;
      else if ('>)]}'.includes(c!)) depth--;
      else if (c === ';' && depth === 0) return inner.slice(0, i).trim();
    }
    return inner.trim();
  }
  const sequence = SEQUENCES.exec(t)?.[1];
  if (sequence !== undefined) return topLevelParts(sequence)[0];
  const map = MAPS.exec(t)?.[1];
  if (map !== undefined) return `(${topLevelParts(map).slice(0, 2).join(', ')})`;
  return undefined;
}

const typeAfter = (type: string, steps: readonly Step[]): string | undefined => {
  let t: string | undefined = type;
  for (const step of steps) t = t === undefined ? undefined : stepType(t, step);
  return t;
};

/** Methods whose iteration yields the receiver's elements (`tests.iter()`). */
const ITERATORS = new Set(['iter', 'iter_mut', 'into_iter', 'drain']);

/** The type of what `steps` take out of `expr`'s value: through variables, references, array and tuple literals. */
function valueType(expr: AstNode, steps: Step[], typeOf: RustTypeOf, depth: number): string | undefined {
  let node = expr;
  let rest = steps;
  for (; depth <= MAX_DEPTH; depth++) {
    if (rest.length === 0) return typeOf(node, depth);
    const [step] = rest;
    const kind = node.kind();
    let next: AstNode | undefined;
    if (kind === 'reference_expression' || kind === 'parenthesized_expression')
      next = node.field('value') ?? node.namedChildren().at(-1);
    else if (kind === 'identifier') {
      const bound = boundAt(node, node.text());
      if (!bound) return undefined;
      if (bound.type !== undefined) return typeAfter(bound.type, [...bound.steps, ...rest]);
      if (!bound.value) return undefined;
      rest = [...bound.steps, ...rest];
      next = bound.value;
    } else if (kind === 'array_expression' && step === 'element') {
      next = node.namedChildren()[0];
      rest = rest.slice(1);
    } else if (kind === 'tuple_expression' && typeof step === 'number') {
      next = node.namedChildren()[step];
      rest = rest.slice(1);
    } else if (kind === 'call_expression' && step === 'element') {
      const fn = node.field('function');
      const method = fn?.kind() === 'field_expression' ? fn.field('field')?.text() : undefined;
      if (method && ITERATORS.has(method)) next = fn!.field('value') ?? undefined;
    }
    if (!next) {
      const type = typeOf(node, depth);
      return type === undefined ? undefined : typeAfter(type, rest);
    }
    node = next;
  }
  return undefined;
}

/**
 * The type text `name` is declared with where `from` uses it: a parameter's, the nearest `let`'s (its annotation,
 * else its value's), a `for` loop's element; through the tuple patterns that bind it.
 */
export function rustDeclaredType(
  from: AstNode,
  name: string,
  typeOf: RustTypeOf,
  depth: number,
): string | undefined {
  const bound = boundAt(from, name);
  if (!bound) return undefined;
  if (bound.type !== undefined) return typeAfter(bound.type, bound.steps);
  return bound.value ? valueType(bound.value, bound.steps, typeOf, depth + 1) : undefined;
}
