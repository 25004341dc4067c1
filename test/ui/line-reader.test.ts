// LineReader: approval questions (ask) and questions after a turn (question) are answered only by a line typed after them; prompts, history and writes above a prompt.
import { PassThrough } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { LineReader } from '../../src/ui/line-reader.js';

let reader: LineReader | undefined;
afterEach(() => reader?.close());

function setup(interactive = false) {
  const input = new PassThrough();
  const output = new PassThrough({ encoding: 'utf8' });
  let written = '';
  output.on('data', (chunk: string) => (written += chunk));
  reader = new LineReader(input, output, interactive);
  return { input, output, reader, written: () => written };
}

describe('LineReader.ask', () => {
  test('ignores a line that arrived before the question and takes the next one', async () => {
    const { input, reader } = setup();
    input.write('y\n');
    await tick();
    const answer = reader.ask('allow? ', new AbortController().signal);
    input.write('n\n');
    expect(await answer).toBe('n');
  });

  test('on a terminal, ignores a half-typed line from before the question', async () => {
    const { input, reader } = setup(true);
    input.write('y');
    await tick();
    const answer = reader.ask('allow? ', new AbortController().signal);
    input.write('n\r');
    expect(await answer).toBe('n');
  });

  test('writes the question even when input is not a terminal', async () => {
    const { input, reader, written } = setup();
    const answer = reader.ask('allow execute_command: touch x? [y/N] ', new AbortController().signal);
    input.write('yes\n');
    expect(await answer).toBe('yes');
    expect(written()).toBe('allow execute_command: touch x? [y/N] ');
  });

  test('resolves null when the signal aborts while the question waits, and the next read still works', async () => {
    const { input, reader } = setup();
    const controller = new AbortController();
    const answer = reader.ask('allow? ', controller.signal);
    controller.abort();
    expect(await answer).toBeNull();
    // The aborted question no longer holds the reader: the next line goes to the next read.
    input.write('next message\n');
    expect(await reader.read('› ')).toBe('next message');
  });

  test('resolves null at once for an already aborted signal', async () => {
    const { reader } = setup();
    expect(await reader.ask('allow? ', AbortSignal.abort())).toBeNull();
  });

  test('resolves null at end of input', async () => {
    const { input, reader } = setup();
    const answer = reader.ask('allow? ', new AbortController().signal);
    input.end();
    expect(await answer).toBeNull();
  });

  test('read still returns lines queued while nobody was reading', async () => {
    const { input, reader } = setup();
    input.write('first\nsecond\n');
    await tick();
    expect(await reader.read('› ')).toBe('first');
    expect(await reader.read('› ')).toBe('second');
  });
});

/** Terminal output without its cursor-movement and erase sequences. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the terminal's escape sequences is the point
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

describe('LineReader.read', () => {
  test('on a terminal, history recall redraws the line with the same prompt glyph', async () => {
    const { input, reader, written } = setup(true);
    const first = reader.read('› ');
    input.write('first message\r');
    expect(await first).toBe('first message');
    const second = reader.read('› ');
    const before = written().length;
    // Up arrow: readline recalls the previous line and redraws it.
    input.write('\x1b[A');
    await tick();
    const redrawn = plain(written().slice(before));
    expect(redrawn).toBe('› first message');
    input.write('\r');
    expect(await second).toBe('first message');
  });

  test('an approval question on a terminal keeps its own prompt after history recall', async () => {
    const { input, reader, written } = setup(true);
    const first = reader.read('› ');
    input.write('earlier\r');
    await first;
    const answer = reader.ask('run: touch x\nallow? [y/N] ', new AbortController().signal);
    await tick();
    const shown = plain(written().slice(written().indexOf('earlier')));
    // No chat prompt left standing before the question.
    expect(shown).toContain('run: touch x\nallow? [y/N] ');
    expect(shown).not.toContain('›');
    const before = written().length;
    input.write('\x1b[A');
    await tick();
    expect(plain(written().slice(before))).toBe('allow? [y/N] earlier');
    input.write('\x15n\r');
    expect(await answer).toBe('n');
  });
});

describe('LineReader.above', () => {
  test('on a terminal, writes above a waiting prompt and draws the prompt again with what was typed', async () => {
    const { input, output, reader, written } = setup(true);
    const line = reader.read('› ');
    input.write('half');
    await tick();
    const before = written().length;
    reader.above(() => output.write('warning\n'));
    await tick();
    const shown = plain(written().slice(before));
    expect(shown.endsWith('warning\n› half')).toBe(true);
    input.write('\r');
    expect(await line).toBe('half');
  });

  test('writes at once, the prompt untouched, when no prompt waits', async () => {
    const { reader, written } = setup(true);
    const before = written().length;
    let wrote = false;
    reader.above(() => {
      wrote = true;
    });
    await tick();
    expect(wrote).toBe(true);
    expect(written().slice(before)).toBe('');
  });
});

describe('LineReader.close', () => {
  test('with erase, wipes a prompt still waiting and ends the read with null', async () => {
    const { reader, written } = setup(true);
    const line = reader.read('› ');
    await tick();
    const before = written().length;
    reader.close(true);
    expect(await line).toBeNull();
    // Back to the start of the prompt's line, and everything from there cleared.
    expect(written().slice(before).startsWith('\r\x1b[J')).toBe(true);
  });
});

describe('LineReader.question', () => {
  test('on a terminal, a line entered before the question does not answer it and stays the next message', async () => {
    const { input, reader } = setup(true);
    // Typed ahead while the turn ran, then the turn ends with a question.
    input.write('/output\r');
    await tick();
    const answer = reader.question('execute it? ');
    input.write('s\r');
    expect(await answer).toBe('s');
    expect(await reader.read('› ')).toBe('/output');
  });

  test('on a terminal, shows its prompt with what was half-typed before it', async () => {
    const { input, reader, written } = setup(true);
    input.write('a');
    await tick();
    const before = written().length;
    const answer = reader.question('execute it? ');
    await tick();
    expect(plain(written().slice(before))).toBe('execute it? a');
    input.write('\r');
    expect(await answer).toBe('a');
  });

  test('from piped input, the next line answers, queued or not', async () => {
    const { input, reader } = setup();
    input.write('y\n');
    await tick();
    expect(await reader.question('commit? ')).toBe('y');
  });

  test('resolves null at end of input', async () => {
    const { input, reader } = setup(true);
    const answer = reader.question('execute it? ');
    input.end();
    expect(await answer).toBeNull();
  });
});

describe('LineReader between prompts (a turn running)', () => {
  /** A terminal 20 columns wide, so that a long typed line wraps; Tab completion on, as in the chat. */
  function narrow() {
    const input = new PassThrough();
    const output = Object.assign(new PassThrough({ encoding: 'utf8' }), { columns: 20 });
    let written = '';
    output.on('data', (chunk: string) => (written += chunk));
    reader = new LineReader(input, output, true, { completer: async (line) => [[], line] });
    return { input, output, reader, written: () => written };
  }

  test('keys typed while no prompt is up are not echoed among the output, and show at the next prompt', async () => {
    const { input, reader, written } = setup(true);
    const before = written().length;
    input.write('/out');
    await tick();
    expect(written().slice(before)).toBe('');
    const line = reader.read('› ');
    await tick();
    expect(plain(written().slice(before))).toBe('› /out');
    input.write('put\r');
    expect(await line).toBe('/output');
  });

  test('a line entered while no prompt is up is shown at the prompt that takes it, not when typed', async () => {
    const { input, output, reader, written } = setup(true);
    const before = written().length;
    input.write('/output\r');
    await tick();
    output.write('Done.\n');
    expect(written().slice(before)).toBe('Done.\n');
    expect(await reader.read('› ')).toBe('/output');
    expect(written().slice(before)).toBe('Done.\n› /output\n');
  });

  /** A cursor-up sequence: readline moving up over rows above the cursor. */
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the terminal's escape sequences is the point
  const cursorUp = /\x1b\[\d*A/;

  test('text written above a prompt whose line wraps clears every row of it and is not overwritten by the redraw', async () => {
    const { input, output, reader, written } = narrow();
    const line = reader.read('› ');
    for (const key of 'y'.repeat(45)) input.write(key);
    await tick();
    const before = written().length;
    reader.above(() => output.write('warning: late\n'));
    await tick();
    const shown = written().slice(before);
    // Up to the prompt's first row (the line takes three), cleared from there; then the warning, then the prompt.
    expect(shown.startsWith('\x1b[2A\r\x1b[J')).toBe(true);
    const after = shown.slice(shown.indexOf('warning: late\n'));
    expect(after).not.toMatch(cursorUp);
    expect(plain(after)).toBe(`warning: late\n› ${'y'.repeat(45)}`);
    input.write('\r');
    expect(await line).toBe('y'.repeat(45));
  });

  test('the prompt drawn after a long line typed unseen does not move up over the output written meanwhile', async () => {
    const { input, output, reader, written } = narrow();
    // Key by key, as typed: readline redraws the line each time it wraps onto another row.
    for (const key of 'x'.repeat(45)) input.write(key);
    await tick();
    output.write('output of execute_command:\n1\n2\n3\n');
    const before = written().length;
    const line = reader.read('› ');
    await tick();
    // No cursor-up sequence: the lines above stay; the line is drawn from where the output ended.
    expect(written().slice(before)).not.toMatch(cursorUp);
    expect(plain(written().slice(before))).toBe(`› ${'x'.repeat(45)}`);
    input.write('\r');
    expect(await line).toBe('x'.repeat(45));
  });
});

describe('LineReader.typedAhead', () => {
  test('names the lines queued and the line being typed while no prompt is up, nothing at a prompt', async () => {
    const { input, reader } = setup(true);
    expect(reader.typedAhead()).toBe('');
    input.write('/output\r');
    await tick();
    input.write('and  then');
    await tick();
    expect(reader.typedAhead()).toBe(' · 1 line queued · typed: and then');
    // The queued line is taken (no prompt drawn for it): the half-typed one still waits unseen.
    expect(await reader.read('› ')).toBe('/output');
    expect(reader.typedAhead()).toBe(' · typed: and then');
    // A prompt is up: what is typed shows there, not on the spinner's line.
    const next = reader.read('› ');
    expect(reader.typedAhead()).toBe('');
    input.write('\r');
    expect(await next).toBe('and  then');
  });

  test('says nothing when input is not a terminal', async () => {
    const { input, reader } = setup();
    input.write('queued\n');
    await tick();
    expect(reader.typedAhead()).toBe('');
  });
});

describe('LineReader Tab completion', () => {
  /** A terminal with the chat's slash command completion over a few names. */
  function completing() {
    const input = new PassThrough();
    const output = Object.assign(new PassThrough({ encoding: 'utf8' }), { columns: 80 });
    let written = '';
    output.on('data', (chunk: string) => (written += chunk));
    const names = ['/commit', '/compact', '/cost', '/help'];
    reader = new LineReader(input, output, true, {
      completer: async (line) => {
        const matches = names.filter((name) => name.startsWith(line));
        return [matches.length === 1 ? [`${matches[0]} `] : matches, line];
      },
    });
    return { input, reader, written: () => written };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  const listed = /\/commit +\/compact +\/cost/;

  test.each([
    ['one key at a time', ['/co', '\t', '\t']],
    ['Tab Tab read at once', ['/co', '\t\t']],
    ['the prefix and Tab Tab read at once', ['/co\t\t']],
  ])('an ambiguous prefix: the second Tab lists the candidates (%s)', async (_, chunks) => {
    const { input, reader, written } = completing();
    const line = reader.read('› ');
    for (const chunk of chunks) {
      input.write(chunk);
      await settle();
    }
    expect(plain(written())).toMatch(listed);
    input.write('\r');
    expect(await line).toBe('/co');
  });

  test.each([
    ['one key at a time', ['/comp', '\t', '\t']],
    ['Tab Tab read at once', ['/comp', '\t\t']],
  ])('one candidate is completed once, however many Tabs (%s)', async (_, chunks) => {
    const { input, reader } = completing();
    const line = reader.read('› ');
    for (const chunk of chunks) {
      input.write(chunk);
      await settle();
    }
    input.write('\r');
    expect(await line).toBe('/compact ');
  });

  test('the first Tab completes the common prefix, the second lists what shares it', async () => {
    const { input, reader, written } = completing();
    const line = reader.read('› ');
    input.write('/c');
    await settle();
    input.write('\t');
    await settle();
    expect(plain(written())).not.toMatch(listed);
    input.write('\t');
    await settle();
    expect(plain(written())).toMatch(listed);
    input.write('m\t');
    await settle();
    input.write('\r');
    expect(await line).toBe('/com');
  });

  test('a Tab inside a bracketed paste is text, not a completion', async () => {
    const { input, reader, written } = completing();
    const line = reader.read('› ');
    input.write('\x1b[200~/co\tx\x1b[201~');
    await settle();
    input.write('\r');
    expect(await line).toBe('/co\tx');
    expect(plain(written())).not.toMatch(listed);
  });
});

describe('LineReader when the terminal goes away', () => {
  test('a terminal that fails with EIO (its window closed) ends the input, as Ctrl-D does, instead of crashing', async () => {
    // A closed terminal: reading gives end of input, and switching raw mode back fails, as node's tty reports it.
    const input = Object.assign(new PassThrough(), {
      isTTY: true,
      isRaw: true,
      setRawMode(this: PassThrough, on: boolean) {
        if (!on) this.emit('error', Object.assign(new Error('setRawMode EIO'), { code: 'EIO' }));
        return this;
      },
    });
    const output = new PassThrough({ encoding: 'utf8' });
    reader = new LineReader(input, output, true);
    const message = reader.readMessage('› ');
    input.end();
    expect(await message).toBeNull();
    expect(await reader.read('› ')).toBeNull();
  });
});

describe('LineReader Esc', () => {
  test('Esc while no prompt is up (a turn runs) or at a question calls the busy handler; at the message prompt it does not', async () => {
    const { input, reader } = setup(true);
    let stops = 0;
    reader.onEscapeWhileBusy(() => {
      stops += 1;
    });
    // A lone Esc is told from the start of a key sequence by readline's short wait.
    const esc = async () => {
      input.write('\x1b');
      await new Promise((resolve) => setTimeout(resolve, 600));
    };
    await esc();
    expect(stops).toBe(1);
    const controller = new AbortController();
    const answer = reader.ask('allow? [y/N] ', controller.signal);
    await esc();
    expect(stops).toBe(2);
    controller.abort();
    expect(await answer).toBeNull();
    const line = reader.readMessage('› ');
    await esc();
    expect(stops).toBe(2);
    input.write('x\r');
    expect(await line).toBe('x');
  });
});
