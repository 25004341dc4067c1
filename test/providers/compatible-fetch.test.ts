// What Keel mends in an OpenAI-compatible server's response before the provider's schema sees it (mendCompatible).
import { describe, expect, it } from 'vitest';
import { mendCompatible } from '../../src/providers/compatible-fetch.js';

const call = (args: unknown) => ({
  index: 0,
  id: 'c1',
  type: 'function',
  function: { name: 'glob', arguments: args },
});

describe('mendCompatible', () => {
  it.each([
    [
      'a stream chunk passes as it is',
      { choices: [{ delta: { role: 'assistant', content: 'hi' } }] },
      false,
      undefined,
    ],
    [
      'object arguments in a stream chunk become JSON text',
      { choices: [{ delta: { tool_calls: [call({ pattern: '*.ts' })] } }] },
      true,
      { choices: [{ delta: { tool_calls: [call('{"pattern":"*.ts"}')] } }] },
    ],
    [
      'object arguments in a whole response become JSON text',
      { choices: [{ message: { role: 'assistant', content: null, tool_calls: [call({})] } }] },
      true,
      { choices: [{ message: { role: 'assistant', content: null, tool_calls: [call('{}')] } }] },
    ],
    ['text arguments are kept', { choices: [{ delta: { tool_calls: [call('{"a"')] } }] }, false, undefined],
    [
      'a role other than assistant is dropped',
      { choices: [{ delta: { role: 'model', content: 'hi' } }] },
      true,
      { choices: [{ delta: { content: 'hi' } }] },
    ],
    ['no choices: nothing to mend', { error: { message: 'x' } }, false, undefined],
    ['null', null, false, undefined],
  ])('%s', (_, input, changed, expected) => {
    const before = JSON.stringify(input);
    expect(mendCompatible(input)).toBe(changed);
    expect(input).toEqual(expected ?? JSON.parse(before));
  });
});
