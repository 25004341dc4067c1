// A Rust use tree's names (`std::{sync::{atomic::{AtomicBool, Ordering}, mpsc}, thread}`), each with the module
// path it comes from: what imports.ts makes one import per module of.

/** A name a use tree binds: as the module spells it (`*` for all of it), and its alias when it has one. */
export interface TreeName {
  name: string;
  alias?: string;
}

const named = (name: string, alias?: string): TreeName =>
  alias && alias !== name ? { name, alias } : { name };

/** The top-level items of a use group's inside, split at the commas outside nested braces. */
function groupItems(inside: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inside.length; i++) {
    const char = inside[i];
    if (char === '{') depth += 1;
    else if (char === '}') depth -= 1;
    else if (char === ',' && depth === 0) {
      items.push(inside.slice(start, i));
      start = i + 1;
    }
  }
  items.push(inside.slice(start));
  return items.map((item) => item.trim()).filter(Boolean);
}

/** Each name a Rust use tree binds, with the module path it comes from: `a::{b::{C, D as E}, self}`. */
export function useTree(path: string, prefix = ''): [string, TreeName][] {
  const join = (a: string, b: string) => (a && b ? `${a}::${b}` : a || b);
  const brace = path.indexOf('{');
  if (brace >= 0) {
    const base = join(prefix, path.slice(0, brace).trim().replace(/::$/, ''));
    const inside = path.slice(brace + 1, path.lastIndexOf('}'));
    return groupItems(inside).flatMap((item) => useTree(item, base));
  }
  const m = /^([\w:]+|\*)(?:\s+as\s+(\w+))?$/.exec(path.trim());
  if (!m) return [];
  const parts = m[1]!.split('::');
  const last = parts.pop()!;
  const module = join(prefix, parts.join('::'));
  // `self` in a group binds the module itself, by its last part.
  if (last === 'self') return [[module, named(module.split('::').pop()!, m[2])]];
  return [[module, last === '*' ? named('*') : named(last, m[2])]];
}
