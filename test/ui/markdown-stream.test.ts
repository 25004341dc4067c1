// The streaming Markdown renderer: each block styled, the same output however the text is cut into deltas, and
// nothing the model writes acting as a terminal escape.
import { describe, expect, it } from 'vitest';
import { createMarkdownStream, renderInline } from '../../src/ui/markdown-stream.js';
import { createStyle } from '../../src/ui/style.js';

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
  it('renders the same whatever the cut: mid-fence, mid-table, mid-emphasis, one character at a time', () => {
    const whole = render([doc]).out;
    for (let i = 1; i < doc.length; i++) expect(render([doc.slice(0, i), doc.slice(i)]).out).toBe(whole);
    expect(render([...doc]).out).toBe(whole);
    // Three-way cuts inside the fence's backticks, the table's separator and a `**`.
    const cuts = [doc.indexOf('``') + 1, doc.indexOf('|:--') + 2, doc.indexOf('**b') + 1].sort(
      (a, b) => a - b,
    );
    const [a, b, c] = cuts;
    expect(render([doc.slice(0, a), doc.slice(a, b), doc.slice(b, c), doc.slice(c)]).out).toBe(whole);
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

  it('writes a table row only once the table ends, and a paragraph line as soon as it ends', () => {
    expect(render(['| a | b |\n|---|---|\n| 1 | 2 |\n']).beforeEnd).toBe('');
    expect(render(['first line\nsecond li']).beforeEnd).toBe('first line\n');
  });

  it('highlights a fenced code block when it closes, with its language, and shows an unclosed one at the end', () => {
    const open = render(['```python\ndef f():\n    return 1\n']);
    expect(open.beforeEnd).toBe('');
    expect(open.out).toContain('\x1b[35mdef\x1b[39m');
    expect(open.out).toContain('python');
    const unknown = render(['```nosuchlang\nplain <text> & more\n```\n'], plain).out;
    expect(unknown).toContain('│ plain <text> & more');
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
