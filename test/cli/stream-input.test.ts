// What one stdin line of `keel run --input-format stream-json` asks for: a table of lines and their meaning.
import { describe, expect, it } from 'vitest';
import { parseStreamInput } from '../../src/cli/stream-input.js';

describe('parseStreamInput', () => {
  it.each([
    ['{"type":"user","message":{"role":"user","content":"hi"}}', { kind: 'user', text: 'hi' }],
    [
      '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}',
      { kind: 'user', text: 'a\n\nb' },
    ],
    ['{"type":"user","message":"plain"}', { kind: 'user', text: 'plain' }],
    [
      '{"type":"approval","id":"c1","decision":"once"}',
      { kind: 'approval', id: 'c1', answer: { decision: 'once' } },
    ],
    [
      '{"type":"approval","id":"c1","decision":"allow"}',
      { kind: 'approval', id: 'c1', answer: { decision: 'once' } },
    ],
    [
      '{"type":"approval","id":"c1","decision":"always"}',
      { kind: 'approval', id: 'c1', answer: { decision: 'always' } },
    ],
    [
      '{"type":"approval","id":"c1","decision":"deny","feedback":"use make"}',
      { kind: 'approval', id: 'c1', answer: { decision: 'deny', feedback: 'use make' } },
    ],
    [
      '{"type":"approval","id":"c1","decision":"edit","edited":"ls"}',
      { kind: 'approval', id: 'c1', answer: { decision: 'edit', edited: 'ls' } },
    ],
    ['{"type":"cancel"}', { kind: 'cancel' }],
    ['{"type":"control_request","request_id":"r1","request":{"subtype":"interrupt"}}', { kind: 'cancel' }],
  ])('reads %s', (line, expected) => {
    expect(parseStreamInput(line)).toEqual(expected);
  });

  it.each([
    ['not json', 'not JSON'],
    ['[1]', 'not a JSON object'],
    ['{"type":"user","message":{"role":"user","content":[{"type":"image"}]}}', 'text blocks only'],
    ['{"type":"user","message":{"role":"user","content":"  "}}', 'empty'],
    ['{"type":"approval","decision":"once"}', '"id"'],
    ['{"type":"approval","id":"c1","decision":"maybe"}', 'once, always, deny or edit'],
    ['{"type":"approval","id":"c1","decision":"edit"}', '"edited"'],
    ['{"type":"control_request","request":{"subtype":"set_model"}}', 'interrupt'],
    ['{"type":"assistant"}', 'unknown type "assistant"'],
  ])('refuses %s, saying why', (line, problem) => {
    const input = parseStreamInput(line);
    expect(input.kind).toBe('invalid');
    expect(input.kind === 'invalid' && input.problem).toContain(problem);
  });
});
