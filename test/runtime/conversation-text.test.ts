// The text the code map takes its mentions from: what was said, and the values of tool-call arguments, never
// their keys (every call of the code tool has an `action` key, and a file defining `action` is no mention).
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import { conversationText } from '../../src/runtime/conversation.js';

const call = (input: string): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ id: 'c1', name: 'code', input }],
});

describe('conversationText', () => {
  it.each([
    ['keys and the action left out', '{"action":"get_codebase_map"}', ''],
    [
      'values kept, nested and listed',
      '{"action":"find_references","name":"traverseNode","path":"src/a.ts","line":12,"paths":["b.py"],"o":{"q":"x"}}',
      'traverseNode\nsrc/a.ts\n12\nb.py\nx',
    ],
    ['text that is no JSON kept whole', '{"path": "src/a.ts"', '{"path": "src/a.ts"'],
  ])('%s', (_, input, expected) => {
    expect(conversationText([call(input)])).toBe(`\n${expected}`);
  });

  it('takes what the user and the model said', () => {
    const messages: Message[] = [
      { role: 'user', content: 'fix parseArgs' },
      { role: 'assistant', content: 'looking at cli.ts' },
    ];
    expect(conversationText(messages)).toBe('fix parseArgs\nlooking at cli.ts');
  });
});
