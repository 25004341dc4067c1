// What Keel makes of each line of an Ollama /api/chat stream before the provider's schema sees it (ollamaChunk):
// loose servers' lines mended, lines that are no chat chunk named.
import { describe, expect, it } from 'vitest';
import { ollamaChunk } from '../../src/providers/ollama-fetch.js';

const line = (message: object, extra: object = {}) => ({
  model: 'm',
  created_at: 't',
  done: false,
  message: { role: 'assistant', content: '', ...message },
  ...extra,
});

describe('ollamaChunk', () => {
  it.each([
    ['a full chunk passes as it is', line({ content: 'hi' }), line({ content: 'hi' })],
    [
      'missing metadata and role filled in',
      { done: false, message: { content: 'hi' } },
      {
        model: '',
        created_at: expect.any(String),
        done: false,
        message: { role: 'assistant', content: 'hi' },
      },
    ],
    [
      'a final line without done_reason gets stop',
      line({}, { done: true }),
      line({}, { done: true, done_reason: 'stop' }),
    ],
    [
      'nulls for absent fields dropped',
      line(
        { thinking: null, tool_calls: null },
        { done_reason: null, eval_count: null, prompt_eval_count: 12 },
      ),
      line({}, { prompt_eval_count: 12 }),
    ],
    [
      'arguments as JSON text parsed, a null id dropped',
      line({ tool_calls: [{ id: null, function: { name: 'glob', arguments: '{"pattern":"*.ts"}' } }] }),
      line({ tool_calls: [{ function: { name: 'glob', arguments: { pattern: '*.ts' } } }] }),
    ],
    [
      'absent or empty arguments are none',
      line({
        tool_calls: [{ id: 'c1', function: { name: 'a' } }, { function: { name: 'b', arguments: ' ' } }],
      }),
      line({
        tool_calls: [
          { id: 'c1', function: { name: 'a', arguments: {} } },
          { function: { name: 'b', arguments: {} } },
        ],
      }),
    ],
  ])('%s', (_, input, expected) => {
    expect(JSON.parse(JSON.stringify(ollamaChunk(input)))).toEqual(expected);
  });

  it.each([
    [
      'a generate-style line',
      { response: 'x', done: true },
      'a response line is not an Ollama chat chunk (no done or message)',
    ],
    [
      'no done',
      { message: { content: 'x' } },
      'a response line is not an Ollama chat chunk (no done or message)',
    ],
    ['not an object', [1, 2], 'a response line is not an Ollama chat chunk (no done or message)'],
    [
      'a call without a name',
      line({ tool_calls: [{ function: { arguments: {} } }] }),
      'a tool call in the response has no function name',
    ],
    [
      'arguments that are not JSON',
      line({ tool_calls: [{ function: { name: 'glob', arguments: '{pattern' } }] }),
      'the arguments of the tool call glob are not JSON',
    ],
    [
      'arguments that are a list',
      line({ tool_calls: [{ function: { name: 'glob', arguments: [1] } }] }),
      'the arguments of the tool call glob are not a JSON object',
    ],
  ])('names %s', (_, input, message) => {
    expect(ollamaChunk(input)).toBe(message);
  });
});
