// The command template of a config-defined tool: split into argv once by the bash parser; each {{param}} one
// slot of one word; shell syntax refused. Values fill the slots as whole argv elements, never re-parsed.
import { describe, expect, it } from 'vitest';
import { parseCommandTemplate } from '../../src/extend/command-template.js';
import { fillTemplate, shellQuote } from '../../src/extend/custom-args.js';

describe('parseCommandTemplate', () => {
  it('splits quoted words and keeps a placeholder inside a word as one slot of that word', async () => {
    const words = await parseCommandTemplate(`rg --json "-e" '{{q}}' --glob={{g}}x "a b"`, ['q', 'g']);
    expect(words).toEqual([
      [{ text: 'rg' }],
      [{ text: '--json' }],
      [{ text: '-e' }],
      [{ param: 'q' }],
      [{ text: '--glob=' }, { param: 'g' }, { text: 'x' }],
      [{ text: 'a b' }],
    ]);
  });

  it.each([
    ['echo {{a}} | sh', 'one plain command'],
    ['echo {{a}}; rm -rf x', 'one plain command'],
    ['echo $HOME {{a}}', 'shell syntax'],
    ['echo $(id) {{a}}', 'shell syntax'],
    ['echo {{a}} > out', 'redirections'],
    ['X=1 echo {{a}}', 'shell syntax'],
    ['ls *.ts {{a}}', 'glob'],
    ['{{a}} --help', 'the program itself'],
    ['echo {{b}}', '{{b}} names no parameter'],
    ['echo {{a b}}', 'not of the form'],
  ])('refuses %s', async (template, message) => {
    await expect(parseCommandTemplate(template, ['a'])).rejects.toThrow(message);
  });
});

describe('fillTemplate and shellQuote', () => {
  it('fills each slot with the whole value and drops words of absent optional parameters', async () => {
    const words = await parseCommandTemplate('grep -n --max-count={{n}} {{pattern}} src', ['n', 'pattern']);
    const argv = fillTemplate(words, new Map([['pattern', "'; rm -rf / #\n$(id)"]]));
    expect(argv).toEqual(['grep', '-n', "'; rm -rf / #\n$(id)", 'src']);
  });

  it('quotes argv so that bash reads back exactly the same words', async () => {
    const argv = ['node', 'a b', "it's", '$(id)', '`x`', 'new\nline', '', '--x=1'];
    const words = await parseCommandTemplate(shellQuote(argv), []);
    expect(words.map((w) => w.map((p) => ('text' in p ? p.text : '')).join(''))).toEqual(argv.map((a) => a));
  });
});
