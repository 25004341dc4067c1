// `keel run --input-format stream-json`: what one JSON line on stdin asks for — a user message (Claude Code's
// `{"type":"user","message":{"role":"user","content":...}}`), an answer to an `approval_requested` event, or a cancel
// of the current turn (also Claude Code's interrupt control request).
import type { ApprovalAnswer } from '../core/approval.js';

export type StreamInput =
  | { kind: 'user'; text: string }
  | { kind: 'approval'; id: string; answer: ApprovalAnswer }
  | { kind: 'cancel' }
  | { kind: 'invalid'; problem: string };

const invalid = (problem: string): StreamInput => ({ kind: 'invalid', problem });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A message's text: a string, or content blocks of which only text ones are taken. */
function messageText(message: unknown): string | undefined {
  const content = isObject(message) ? message.content : message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter(
    (block) => isObject(block) && block.type === 'text' && typeof block.text === 'string',
  );
  if (texts.length !== content.length) return undefined;
  return texts.map((block) => block.text as string).join('\n\n');
}

function approval(line: Record<string, unknown>): StreamInput {
  const { id, decision, feedback, edited } = line;
  if (typeof id !== 'string' || id === '')
    return invalid('an approval needs the "id" of the approval_requested event');
  switch (decision) {
    case 'once':
    case 'allow':
      return { kind: 'approval', id, answer: { decision: 'once' } };
    case 'always':
      return { kind: 'approval', id, answer: { decision: 'always' } };
    case 'deny':
      return {
        kind: 'approval',
        id,
        answer: { decision: 'deny', ...(typeof feedback === 'string' && feedback ? { feedback } : {}) },
      };
    case 'edit':
      if (typeof edited !== 'string') return invalid('an "edit" approval needs the "edited" text');
      return { kind: 'approval', id, answer: { decision: 'edit', edited } };
    default:
      return invalid('an approval\'s "decision" is once, always, deny or edit');
  }
}

export function parseStreamInput(text: string): StreamInput {
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    return invalid('not JSON');
  }
  if (!isObject(line)) return invalid('not a JSON object');
  switch (line.type) {
    case 'user': {
      const message = messageText(line.message);
      if (message === undefined)
        return invalid(
          'a user line needs "message": {"role": "user", "content": "<text>"} (text blocks only)',
        );
      if (!message.trim()) return invalid('the user message is empty');
      return { kind: 'user', text: message };
    }
    case 'approval':
      return approval(line);
    case 'cancel':
      return { kind: 'cancel' };
    case 'control_request':
      if (isObject(line.request) && line.request.subtype === 'interrupt') return { kind: 'cancel' };
      return invalid('the only control request is {"subtype": "interrupt"}');
    default:
      return invalid(`unknown type ${JSON.stringify(line.type)}: use user, approval or cancel`);
  }
}
