// Rust types as written (no rust-analyzer): a type's simple name through references and smart pointers, the trait an
// `impl` implements, and the project's member types (methods' return types, struct fields) read as asked.
import type { CodeIndex } from './code-index.js';
import { sourceLines, topLevelParts } from './source-text.js';

/** Wrappers a method call sees through (auto-deref): `Box<Record>` calls Record's methods. */
const DEREF = new Set(['Box', 'Rc', 'Arc', 'Cow', 'ManuallyDrop']);

/**
 * A member's declared type (a method's return, a struct field's), by type and member ('' for a free function); of
 * the type defined in `file` when it defines one of that name (once_cell has five `OnceCell`s).
 */
export type RustMemberType = (owner: string, member: string, file?: string) => string | undefined;

/** The simple name of a Rust type as written: `&'a mut Box<RecordBuilder<'a>>` → `RecordBuilder`. */
export function rustSimpleType(text: string | undefined): string | undefined {
  let t = text?.trim();
  for (let i = 0; t && i < 6; i++) {
    t = t
      .replace(/^&\s*('\w+\s+)?/, '')
      .replace(/^(mut|dyn|impl)\s+/, '')
      .trim();
    const generic = /^([\w:]+?)(?:::)?\s*<([\s\S]*)>$/.exec(t);
    const base = (generic?.[1] ?? t).split('::').pop()!;
    if (generic && DEREF.has(base)) {
      t = generic[2]!.split(',')[0]!;
      continue;
    }
    return /^[A-Za-z_]\w*$/.test(base) ? base : undefined;
  }
  return undefined;
}

/** `impl<…> Trait<…> for Type {`: the trait and the type, as written. */
export const RUST_TRAIT_IMPL =
  /^\s*(?:unsafe\s+)?impl\s*(?:<(?:[^<>]|<[^<>]*>)*>)?\s*([\w:]+(?:<(?:[^<>]|<[^<>]*>)*>)?)\s+for\s+([^{]+?)\s*(?:where\b[^{]*)?\{/gm;

/**
 * The trait an `impl … for` block holding the definition at `line` (1-based) of `source` implements, read off the
 * nearest `impl` line above it: `impl<T, const N: usize> ExactSizeIterator for IntoIter<T, N> {` → ExactSizeIterator.
 */
export function rustImplTrait(source: string, line: number): string | undefined {
  const lines = source.split('\n');
  for (let i = line - 2; i >= 0; i--) {
    const text = lines[i]!;
    if (!/^\s*(?:unsafe\s+)?impl\b/.test(text)) continue;
    const header = text.replace(/^\s*(?:unsafe\s+)?impl\s*(?:<(?:[^<>]|<[^<>]*>)*>)?/, '');
    const trait = /^\s*([\w:]+(?:<(?:[^<>]|<[^<>]*>)*>)?)\s+for\s/.exec(header)?.[1];
    return trait ? rustSimpleType(trait) : undefined;
  }
  return undefined;
}

/** The project's Rust member types, read from method signatures and struct declarations as asked. */
export function rustMemberTypes(index: CodeIndex): RustMemberType {
  const known = new Map<string, string | undefined>();
  /** Per `Type.member`, the files defining it with the type each gives. */
  let methods: Map<string, { path: string; type: string }[]> | undefined;
  let structs: Map<string, { path: string; line: number; endLine: number }[]> | undefined;
  const linesOf = sourceLines(index.root);
  const pick = <T extends { path: string }>(list: T[] | undefined, file: string | undefined) =>
    list?.find((entry) => entry.path === file) ?? list?.[0];
  return (owner, member, file) => {
    const key = `${owner}.${member}`;
    const memo = `${key}\0${file ?? ''}`;
    if (known.has(memo)) return known.get(memo);
    if (!methods || !structs) {
      methods = new Map();
      structs = new Map();
      for (const [path, tags] of index.files) {
        if (tags.language !== 'rust') continue;
        for (const d of tags.definitions) {
          if (d.kind === 'class') {
            const list = structs.get(d.name) ?? [];
            list.push({ path, line: d.line, endLine: d.endLine ?? d.line });
            structs.set(d.name, list);
          }
          if (d.kind === 'method' || d.kind === 'function') {
            const returns = /->\s*([^{]+?)\s*(?:where\b|\{|$)/.exec(d.signature)?.[1];
            if (!returns) continue;
            const at = `${d.container ?? ''}.${d.name}`;
            const list = methods.get(at) ?? [];
            list.push({ path, type: returns.replace(/\bSelf\b/g, d.container ?? 'Self') });
            methods.set(at, list);
          }
        }
      }
    }
    let type = pick(methods.get(key), file)?.type;
    // Same-named structs (in one file too): the first, the file's own first, that has the field.
    const candidates = [...(structs.get(owner) ?? [])].sort(
      (a, b) => Number(b.path === file) - Number(a.path === file),
    );
    for (const struct of type === undefined ? candidates : []) {
      if (type !== undefined) break;
      const body = linesOf(struct.path)
        .slice(struct.line - 1, struct.endLine)
        .join('\n');
      // A tuple struct's field by its place: `struct OnceCell<T>(Imp<T>);`.
      if (/^\d+$/.test(member)) {
        const fields = /\((.*)\)\s*(?:where\b[^;]*)?;/s.exec(body)?.[1];
        type =
          fields === undefined
            ? undefined
            : topLevelParts(fields)[Number(member)]?.replace(/^pub(\([^)]*\))?\s+/, '');
      } else type = new RegExp(`(?:^|[{,\\s])${member}\\s*:\\s*([^,}\\n]+)`).exec(body)?.[1]?.trim();
    }
    known.set(memo, type);
    return type;
  };
}
