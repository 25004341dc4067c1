// The shapes of tree-sitter bash nodes command analysis walks: operators, control flow, here-document tails.
import type { Node } from 'web-tree-sitter';

export const OPERATORS = new Set([';', '&&', '||', '|', '|&', '&', '\n']);
export const CONTROL_FLOW = new Set([
  'if_statement',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
]);

/** The here-document's own parts: what is left (operators, commands, pipelines) follows the command. */
const HEREDOC_PARTS = new Set(['<<', '<<-', 'heredoc_start', 'heredoc_body', 'heredoc_end']);
export const heredocTails = (node: Node): Node[] =>
  node.children.filter((c) => !HEREDOC_PARTS.has(c.type) && !c.type.endsWith('_redirect'));

/** The simple command a redirection written after `body` belongs to (the last of a pipeline); none for a group. */
export function lastSimpleCommand(body: Node): Node | undefined {
  if (body.type === 'command' || body.type === 'declaration_command' || body.type === 'unset_command')
    return body;
  if (body.type === 'pipeline') {
    const last = body.namedChildren.at(-1);
    return last ? lastSimpleCommand(last) : undefined;
  }
  return undefined;
}
