// The definitions a symbol's name means: `Class.member` split into owner and member, a member's owner (its
// container, or a Go method's receiver type), and the definitions of a name in the code index.
import type { CodeIndex } from './code-index.js';
import { goReceiverType } from './go-references.js';
import type { Definition } from './tags.js';

/** `Class.member` → the class and its member (the last two parts of a longer path); a plain name → itself. */
export function qualifiedName(name: string): { owner?: string; member: string } {
  const parts = name.split('.');
  if (parts.length < 2 || parts.some((p) => p === '')) return { member: name };
  return { owner: parts.at(-2)!, member: parts.at(-1)! };
}

/** The class, struct or type a definition is a member of: its container, or the receiver's type of a Go method. */
export function ownerOf(def: Definition): string | undefined {
  return def.container ?? (def.kind === 'method' ? goReceiverType(def.signature) : undefined);
}

/**
 * The definitions named `name` (in `inFile` when given); `Class.member` names the members of that class (struct,
 * impl, a Go method's receiver type) only. At `line`: see below.
 */
export function definitionsOf(index: CodeIndex, name: string, inFile?: string, line?: number) {
  const { owner, member } = qualifiedName(name);
  const found = [];
  for (const [file, tags] of index.files) {
    if (inFile !== undefined && file !== inFile) continue;
    for (const def of tags.definitions)
      if (def.name === member && (owner === undefined || ownerOf(def) === owner))
        found.push({ path: file, def });
  }
  // At a line: the definition there, and those of its type of that name (a Java method's overloads); none there,
  // all of them.
  const at =
    line === undefined
      ? undefined
      : found.find((d) => d.def.line <= line && line <= (d.def.endLine ?? d.def.line));
  // Go names a method's type only in its receiver (`func (c *Context) JSON`).
  return at
    ? found.filter(
        (d) =>
          d.def.container === at.def.container &&
          goReceiverType(d.def.signature) === goReceiverType(at.def.signature),
      )
    : found;
}
