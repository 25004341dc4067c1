// The hidden API-key prompt: what was typed before it showed is dropped, a key that cannot be one is refused with
// the reason and asked again at a terminal (a usage error when piped). A fake terminal stands for stdin.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { apiKeyProblem, readApiKey } from '../../src/cli/auth-command.js';
import { readSecret, type SecretIo } from '../../src/cli/secret-input.js';

/**
 * stdin as a terminal holding `typedAhead` (typed before any question), and stderr answering each prompt ending in
 * `: ` with the next of `answers`, as a person reading it would.
 */
function terminal(typedAhead: string, answers: string[], isTTY = true) {
  const modes: boolean[] = [];
  const input = Object.assign(new PassThrough(), {
    isTTY,
    setRawMode: (raw: boolean) => void modes.push(raw),
  });
  if (typedAhead) input.write(typedAhead);
  let shown = '';
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      shown += chunk.toString();
      if (shown.endsWith(': ') && answers.length > 0) setTimeout(() => input.write(answers.shift()), 5);
      done();
    },
  });
  const io: SecretIo = { input, output };
  return { io, modes, shown: () => shown, input };
}

describe('readSecret at a terminal', () => {
  it('drops what was typed before the prompt showed and reads what was typed after', async () => {
    const t = terminal('hello there\r', ['sk-typed\r']);
    expect(await readSecret('API key: ', t.io)).toBe('sk-typed');
    expect(t.shown()).toBe('API key: \n');
    // Raw while reading, the terminal given back in cooked mode.
    expect(t.modes.at(-1)).toBe(false);
  });
});

describe('readApiKey', () => {
  it('refuses a key with a space or none at all, saying why, and asks again', async () => {
    const t = terminal('hello there\r', ['sk bad\r', '\r', 'sk-good\r']);
    expect(await readApiKey('openai', t.io)).toBe('sk-good');
    expect(t.shown()).toBe(
      [
        'API key for openai (OPENAI_API_KEY): ',
        'that is not an API key: it has spaces in it; paste the openai key alone (Ctrl-C stops)',
        'API key for openai (OPENAI_API_KEY): ',
        'no key was given; paste the openai key alone (Ctrl-C stops)',
        'API key for openai (OPENAI_API_KEY): ',
        '',
      ].join('\n'),
    );
  });

  it('piped, a key that cannot be one is a usage error naming the way to pipe it', async () => {
    for (const [text, message] of [
      ['sk with space\n', 'that is not an API key: it has spaces in it (for openai)'],
      ['\n', 'no API key given for openai'],
    ]) {
      const t = terminal('', [], false);
      t.input.end(text);
      await expect(readApiKey('openai', t.io)).rejects.toMatchObject({
        message,
        exitCode: 2,
        hint: expect.stringContaining('| keel auth login openai'),
      });
    }
  });
});

describe('apiKeyProblem', () => {
  it.each([
    ['sk-proj-abc_123', undefined],
    ['AIzaSyD-xyz', undefined],
    ['', 'no key was given'],
    ['hello there', 'that is not an API key: it has spaces in it'],
    ['sk-a\tb', 'that is not an API key: it has spaces in it'],
    ['sk-a\u001b[A', 'that is not an API key: it has control characters in it (an arrow key, Esc)'],
  ])('%j: %s', (key, problem) => {
    expect(apiKeyProblem(key)).toBe(problem);
  });
});
