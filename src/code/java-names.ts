// Java names by their syntax: a package's part of an import or package declaration, an import of another package's
// type, and the package or class a name is written qualified with. occurrences.ts asks these.
import type { AstNode } from './ast-grep.js';

/** A package's name in a Java import or package declaration (`select` in `import org.jsoup.select.Collector`). */
export function isJavaPackagePart(node: AstNode): boolean {
  const declaration = node
    .ancestors()
    .find((a) => a.kind() === 'import_declaration' || a.kind() === 'package_declaration');
  if (!declaration) return false;
  if (declaration.kind() === 'package_declaration') return true;
  // The last part is what is imported (`import static …Normalizer.lowerCase;`); a part before it that starts in
  // lower case is a package.
  return /^[a-z]/.test(node.text()) && !new RegExp(`\\.${node.text()}\\s*;\\s*$`).test(declaration.text());
}

/** Whether a Java file imports a type `name` from another package than `ours` (`import org.w3c.dom.Element;`). */
export function javaImportsOther(source: string, name: string, ours: string | undefined): boolean {
  for (const m of source.matchAll(/^\s*import\s+(?!static\b)([\w.]+)\s*;/gm)) {
    const parts = m[1]!.split('.');
    if (parts.at(-1) !== name) continue;
    const from = parts.slice(0, -1).join('.');
    if (ours === undefined || from !== ours) return true;
  }
  return false;
}

/**
 * The package a Java name is written qualified with (`org.jsoup.nodes` in `org.jsoup.nodes.Element`), or its
 * class (`Outer` in `Outer.Inner`); undefined for a name standing alone. Imports are read apart (isJavaPackagePart).
 */
export function javaQualifier(node: AstNode): string | undefined {
  const parent = node.parent();
  // In an import, the path before the name (`org.jsoup.nodes` in `import static org.jsoup.nodes.Document.X`).
  const declaration = node.ancestors().find((a) => a.kind() === 'import_declaration');
  if (declaration) {
    const before = declaration.text().slice(0, node.range().start.index - declaration.range().start.index);
    const path = before
      .replace(/^\s*import\s+(static\s+)?/, '')
      .replace(/\s+/g, '')
      .replace(/\.$/, '');
    return path === '' ? undefined : path;
  }
  if (!parent || !['scoped_type_identifier', 'scoped_identifier', 'field_access'].includes(parent.kind()))
    return undefined;
  const text = parent.text().replace(/\s+/g, '');
  if (!text.endsWith(`.${node.text()}`)) return undefined;
  const qualifier = text.slice(0, -node.text().length - 1);
  // Only a dotted path of names: `a.b().c` is an expression, not a qualifier.
  return /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(qualifier) ? qualifier : undefined;
}
