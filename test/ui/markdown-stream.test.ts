// The streaming Markdown renderer: each block styled, the same screen however the text is cut into deltas, a line
// shown as it arrives (its final rows written, the rest redrawn in place), and nothing the model writes acting as a
// terminal escape.
import { describe, expect, it } from 'vitest';
import { createMarkdownStream, inlineSettled, renderInline } from '../../src/ui/markdown-stream.js';
import { createStyle } from '../../src/ui/style.js';
import { terminalScreen } from '../support/terminal-screen.js';

const colour = createStyle(true);
const plain = createStyle(false);

/** Renders `deltas` one push each, then end(); returns what was written, and what was written before end(). */
function render(deltas: string[], style = colour) {
  let out = '';
  const md = createMarkdownStream({ write: (t) => (out += t), style, width: 40 });
  for (const d of deltas) md.push(d);
  const beforeEnd = out;
  md.end();
  return { out, beforeEnd };
}

const doc = [
  '# Title',
  '',
  'Some **bold**, *italic*, `code` and a [link](https://example.com).',
  '',
  '- one',
  '- [x] two',
  '  1. nested',
  '> quoted *words*',
  '',
  '| name | size |',
  '|:-----|-----:|',
  '| a.ts | 12 |',
  '| long-name.ts | 3 |',
  '',
  '```ts',
  'const x: number = 1; // note',
  '```',
  '---',
  'last line',
].join('\n');

describe('createMarkdownStream', () => {
  it('shows the same whatever the cut: mid-fence, mid-table, mid-emphasis, one character at a time', () => {
    const shown = (deltas: string[]) => terminalScreen(render(deltas).out);
    const whole = shown([doc]);
    for (let i = 1; i < doc.length; i++) expect(shown([doc.slice(0, i), doc.slice(i)])).toBe(whole);
    expect(shown([...doc])).toBe(whole);
    // Three-way cuts inside the fence's backticks, the table's separator and a `**`.
    const cuts = [doc.indexOf('``') + 1, doc.indexOf('|:--') + 2, doc.indexOf('**b') + 1].sort(
      (a, b) => a - b,
    );
    const [a, b, c] = cuts;
    expect(shown([doc.slice(0, a), doc.slice(a, b), doc.slice(b, c), doc.slice(c)])).toBe(whole);
  });

  it('styles headings, emphasis, code spans, lists, quotes and links, with no Markdown markers left', () => {
    const { out } = render([doc]);
    expect(out).toContain('\x1b[1m\x1b[4mTitle\x1b[24m\x1b[22m');
    expect(out).toContain('\x1b[1mbold\x1b[22m');
    expect(out).toContain('\x1b[3mitalic\x1b[23m');
    expect(out).toContain('\x1b[36mcode\x1b[39m');
    // At 40 columns the link's address wraps to the next line, at the space before it.
    expect(out).toContain('\x1b[4mlink\x1b[24m\n\x1b[2m(https://example.com)\x1b[22m');
    const text = render([doc], plain).out;
    expect(text).not.toMatch(/\*\*|```|^#/m);
    expect(text).toContain('• one');
    expect(text).toContain('☑ two');
    expect(text).toContain('  1. nested');
    expect(text).toContain('│ quoted words');
  });

  it('aligns a table when it closes, by the separator row', () => {
    const { out } = render(
      ['| name | size |\n|:-----|-----:|\n| a.ts | 12 |\n| long-name.ts | 3 |\n\n'],
      plain,
    );
    expect(out).toBe(
      [
        'name         │ size',
        '─────────────┼─────',
        'a.ts         │   12',
        'long-name.ts │    3',
        '',
        '',
      ].join('\n'),
    );
  });

  it('writes a table only once it ends, and holds a line that may still open a fence or a table or be a rule', () => {
    expect(render(['| a | b |\n|---|---|\n| 1 | 2 |\n']).beforeEnd).toBe('');
    for (const start of ['', '  ', '`', '``', '```ts', '~~', '| a |', '- ', '--', '* * '])
      expect(render([`first line\n${start}`], plain).beforeEnd, start).toBe('first line\n');
    // A paragraph after a table waits for the table, which its end closes.
    expect(render(['| a | b |\n|---|---|\nnext wo']).beforeEnd).toBe('');
  });

  it('highlights a fenced code block when it closes, with its language, and shows an unclosed one at the end', () => {
    const open = render(['```python\ndef f():\n    return 1\n']);
    expect(open.beforeEnd).toBe('');
    expect(open.out).toContain('\x1b[35mdef\x1b[39m');
    expect(open.out).toContain('python');
    const unknown = render(['```nosuchlang\nplain <text> & more\n```\n'], plain).out;
    expect(unknown).toContain('│ plain <text> & more');
  });

  it('narrows a table wider than the terminal, wrapping its widest cells inside their columns', () => {
    const table =
      '| option | meaning | default |\n|---|---|---|\n| --provider | which provider the model is asked through | ollama |\n';
    const { out } = render([table], plain);
    const lines = out.trimEnd().split('\n');
    expect(lines.map((l) => l.trimEnd())).toEqual([
      'option     │ meaning           │ default',
      '───────────┼───────────────────┼────────',
      '--provider │ which provider    │ ollama',
      '           │ the model is      │',
      '           │ asked through     │',
    ]);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
  });

  it('goes on under the gutter where a code line is wider than the terminal', () => {
    const { out } = render(['```\nresult = compute(first_argument, second_argument, third)\n```\n'], plain);
    expect(out).toBe('┌─\n│ result = compute(first_argument,\n│ second_argument, third)\n└─\n');
  });

  it('leaves Markdown inside a code block alone', () => {
    const { out } = render(['```\n# not a heading\n**not bold**\n```\n'], plain);
    expect(out).toContain('│ # not a heading\n│ **not bold**');
  });

  it('escapes control characters from the model instead of letting them act', () => {
    const { out } = render(['# \x1b]52;c;ZXZpbA==\x07 title\n```sh\necho \x1b[2J\n```\n']);
    expect(out).not.toContain('\x1b]');
    expect(out).not.toContain('\x1b[2J');
    expect(out).toContain('\\x1b');
  });
});

describe('renderInline', () => {
  it('keeps code spans literal and leaves a lone asterisk or snake_case alone', () => {
    expect(renderInline('`**x**` and a * b and snake_case_name', plain)).toBe(
      '**x** and a * b and snake_case_name',
    );
  });
});

describe('wrapping the answer', () => {
  it('wraps paragraphs and list items at word boundaries, continuation lines under the item text', () => {
    const out: string[] = [];
    const md = createMarkdownStream({ write: (t) => out.push(t), style: createStyle(false), width: 24 });
    md.push('Alpha bravo charlie delta echo foxtrot\n- golf hotel india juliett kilo\n');
    md.end();
    expect(out.join('')).toBe(
      'Alpha bravo charlie\ndelta echo foxtrot\n• golf hotel india\n  juliett kilo\n',
    );
  });
});

describe('a line shown as it arrives', () => {
  /** Pushes each delta; after each, what was written by it and the screen so far. */
  function stream(deltas: string[], width = 24, style = plain) {
    let out = '';
    const md = createMarkdownStream({ write: (t) => (out += t), style, width });
    const steps = deltas.map((delta) => {
      const before = out.length;
      md.push(delta);
      return { wrote: out.slice(before), screen: terminalScreen(out, width) };
    });
    md.end();
    return { steps, screen: terminalScreen(out, width), out, md };
  }
  const words = (text: string) => text.match(/\S+\s*/g) ?? [];
  const whole = (text: string, width = 24, style = plain) => {
    let out = '';
    const md = createMarkdownStream({ write: (t) => (out += t), style, width });
    md.push(text);
    md.end();
    return terminalScreen(out, width);
  };

  it('draws a paragraph without its newline at once, and writes each wrapped row for good once the next one starts', () => {
    const { steps, screen } = stream(words('Alpha bravo charlie delta echo foxtrot juliett'));
    expect(steps.map((s) => s.screen)).toEqual([
      'Alpha',
      'Alpha bravo',
      'Alpha bravo charlie',
      'Alpha bravo charlie\ndelta',
      'Alpha bravo charlie\ndelta echo',
      'Alpha bravo charlie\ndelta echo foxtrot',
      'Alpha bravo charlie\ndelta echo foxtrot\njuliett',
    ]);
    expect(steps[0]!.wrote).toBe('Alpha ');
    // A row is final once the word after it is: written with its newline, the rows below drawn again.
    expect(steps[3]!.wrote).toBe('\r\x1b[JAlpha bravo charlie\ndelta ');
    expect(steps[4]!.wrote).toBe('\r\x1b[Jdelta echo ');
    // A word that starts past the edge is drawn on the next row; its row above is final only when that word is.
    expect(steps[6]!.wrote).toBe('\r\x1b[Jdelta echo foxtrot\njuliett');
    expect(screen).toBe('Alpha bravo charlie\ndelta echo foxtrot\njuliett');
  });

  it('styles a span once it closes, across a wrap point, and never writes a row for good before', () => {
    const text = 'Some **bold words that run past the edge** and on';
    const { steps, screen, out } = stream(words(text), 24, colour);
    expect(screen).toBe(whole(text, 24, colour));
    expect(screen).toContain('{1}bold words that');
    // While open, the span shows as typed, on rows redrawn in place: the screen's last rows are redrawn from the
    // first row holding the open marker.
    expect(steps[5]!.screen).toBe('Some **bold words that\nrun past');
    expect(steps[5]!.wrote).toBe('\r\x1b[1A\x1b[JSome **bold words that\nrun past ');
    expect(out).not.toContain('\x1b[2A');
  });

  it('shows an unclosed span as typed at the end, and a stray marker holds only the rows after it', () => {
    const text = `First some words, then we call _private helpers ${'and more words '.repeat(12)}end`;
    const { steps, screen } = stream(words(text));
    expect(screen).toBe(whole(text));
    const rows = screen.split('\n');
    expect(rows[1]).toBe('we call _private helpers');
    // The row before the marker is final, the rows from it are redrawn, six at most, while the rest streams.
    const last = steps.at(-1)!;
    expect(last.screen).toBe(rows.slice(0, 7).join('\n'));
    expect(last.wrote).toBe('');
    const redrawn = steps.map((s) => s.wrote).filter(Boolean);
    expect(redrawn.at(-1)?.startsWith('\r\x1b[5A\x1b[Jwe call _private helpers\n')).toBe(true);
  });

  it('shows the same whatever the cut when spans cross wrap points', () => {
    const text = [
      'A paragraph with **bold text across the wrap point**, some `code that wraps too`, a [link label](https://example.com/x) and *italic words here* then ~~struck~~ end.',
      '- an item with **bold words** that wraps around the edge',
      '> quoted *words that wrap* past the edge',
    ].join('\n');
    const expected = whole(text, 24, colour);
    expect(stream([...text], 24, colour).screen).toBe(expected);
    for (let i = 1; i < text.length; i += 3)
      expect(stream([text.slice(0, i), text.slice(i)], 24, colour).screen, `cut at ${i}`).toBe(expected);
  });

  it('shows headings, list items and quotes as they arrive, rows under the item text', () => {
    for (const text of [
      '# A heading that is long enough to wrap',
      '- an item that is long enough to wrap twice over',
      '> a quote that is long enough to wrap around',
    ]) {
      const { steps, screen } = stream(words(text), 24, colour);
      expect(screen, text).toBe(whole(text, 24, colour));
      expect(steps.at(-1)!.screen, text).toBe(screen);
    }
  });

  it('redraws a line taken off the screen (a note printed there) at the next delta', () => {
    let out = '';
    const md = createMarkdownStream({ write: (t) => (out += t), style: plain, width: 24 });
    md.push('half a line');
    md.lift();
    out += 'note\n';
    md.push(' more');
    md.end();
    expect(terminalScreen(out)).toBe('note\nhalf a line more');
  });

  it('once the terminal is resized, leaves what it drew and writes the rest of the line below it', () => {
    let out = '';
    let columns = 24;
    const md = createMarkdownStream({
      write: (t) => (out += t),
      style: plain,
      width: 24,
      columns: () => columns,
    });
    md.push('Alpha bravo charlie delta ');
    expect(terminalScreen(out)).toBe('Alpha bravo charlie\ndelta');
    columns = 30;
    const before = out.length;
    md.push('echo foxtrot juliett kilo');
    md.end();
    // No redraw that could miss rows the terminal rewrapped: the line goes on from the row it left.
    expect(out.slice(before)).toBe('\ndelta echo foxtrot\njuliett kilo\n');
  });

  it('holds a line that might be wider on the terminal than it counts (wide characters)', () => {
    expect(render(['日本語の文章'.repeat(5)], plain).beforeEnd).toBe('');
  });
});

describe('inlineSettled', () => {
  it.each<[string, boolean]>([
    ['plain words', true],
    ['some **bold** and `code` and a [link](https://x.y)', true],
    ['snake_case and a * b', true],
    ['some **bold', false],
    ['some __bold', false],
    ['a *lean', false],
    ['call _private', false],
    ['a `code', false],
    ['a ``double `tick', false],
    ['~~gone', false],
    ['[a label', false],
    ['[a](https://x.y "a title', false],
    ['[a](https://x.y', false],
  ])('%s → %s', (text, settled) => {
    expect(inlineSettled(text, colour)).toBe(settled);
  });
});
