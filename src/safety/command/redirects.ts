// A redirection of a bash command as command analysis reads it: its operator, file descriptor and target word, a
// here-document's or here-string's text; words written after a target (`cat > out a.txt`) are handed back.
import type { Node } from 'web-tree-sitter';
import type { IssueKind, Redirect, WordValue } from './simple-command.js';

/** What reading a redirection needs of the analyzer: its issues, and its reading of words. */
export interface WordReader {
  issue(kind: IssueKind, node: Node): void;
  scanWords(node: Node): void;
  word(node: Node): WordValue;
}

/** The redirections `node` makes; words after a target that are really arguments go to `extra`. */
export function readRedirect(node: Node, extra: Node[], reader: WordReader): Redirect[] {
  if (node.type === 'heredoc_redirect') {
    reader.issue('heredoc', node);
    const body = node.namedChildren.find((c) => c.type === 'heredoc_body');
    if (body) reader.scanWords(body);
    const quoted = /^['"\\]/.test(node.namedChildren.find((c) => c.type === 'heredoc_start')?.text ?? '');
    const literal = quoted || (body?.namedChildren.length ?? 0) === 0;
    // `cat <<EOF > ~/.bashrc`: redirections written after the delimiter belong to the command too.
    const more = node.namedChildren
      .filter((c) => c.type.endsWith('_redirect'))
      .flatMap((c) => readRedirect(c, extra, reader));
    return [{ operator: '<<', target: body?.text ?? '', literal }, ...more];
  }
  if (node.type === 'herestring_redirect') {
    reader.issue('heredoc', node);
    const words = node.namedChildren.map((c) => reader.word(c));
    return [
      {
        operator: '<<<',
        target: words.map((w) => w.value).join(' '),
        literal: words.every((w) => w.literal),
      },
    ];
  }
  if (node.type !== 'file_redirect') {
    reader.issue('unsupported_syntax', node);
    return [];
  }
  let fd: string | undefined;
  let operator = '';
  let target: WordValue | undefined;
  for (const child of node.children) {
    if (child.type === 'file_descriptor') fd = child.text;
    else if (!child.isNamed) operator += child.text;
    else if (target === undefined) target = reader.word(child);
    else extra.push(child);
  }
  return [{ operator, fd, target: target?.value ?? '', literal: target?.literal ?? true }];
}
