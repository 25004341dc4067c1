// Finds a line continuation right after `$` that bash joins into an expansion the parser sees as plain text
// (`$\<newline>(cmd)` runs cmd), telling it apart from the harmless quoted and escaped forms.
import type { Node } from 'web-tree-sitter';

/**
 * Whether `$`, backslash, newline appears where bash joins it into an expansion: not inside single quotes, not
 * after an escaping backslash (`\\$`), not as the second `$` of `$$`.
 */
export function hiddenContinuation(source: string, root: Node): boolean {
  for (const match of source.matchAll(/\$\\\n/g)) {
    const at = match.index;
    const leaf = root.descendantForIndex(at, at + 1);
    if (!leaf) return true;
    let quoted = false;
    for (let n: Node | null = leaf; n; n = n.parent) quoted ||= n.type === 'raw_string';
    if (quoted) continue;
    const expansion = leaf.type === 'special_variable_name' ? leaf.parent : leaf;
    if (expansion?.type === 'simple_expansion' && expansion.text === '$$' && expansion.endIndex === at + 1)
      continue;
    const before = source.slice(leaf.startIndex, at).match(/\\*$/)?.[0].length ?? 0;
    if (['string_content', 'word'].includes(leaf.type) && before % 2 === 1) continue;
    return true;
  }
  return false;
}
