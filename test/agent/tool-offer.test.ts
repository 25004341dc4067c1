// Which built-in tools a request offers: the basic ones always, groups as the messages and calls need them.
import { describe, expect, it } from 'vitest';
import { classifyIntent } from '../../src/agent/intent.js';
import { ToolOffer } from '../../src/agent/tool-offer.js';
import type { ToolSpec } from '../../src/core/model.js';
import { createRegistry, defaultTools } from '../../src/tools/registry.js';

const all = createRegistry(defaultTools()).specs();
const mcp: ToolSpec = { name: 'docs__search', description: 'x', inputSchema: { type: 'object' } };
const basic = ['list_files', 'read_file', 'write_file', 'execute_command', 'edit_file', 'glob', 'grep'];

function offered(...messages: string[]): string[] {
  const offer = new ToolOffer();
  for (const m of messages) offer.message(m, classifyIntent(m));
  return offer.select([...all, mcp]).map((s) => s.name);
}

describe('ToolOffer', () => {
  it.each([
    'computeTotal returns wrong totals for a Cart. Show me how Cart uses it.',
    'Before I change its signature, show me every place that calls MathUtil.computeTotal.',
  ])('%s → the code tools: a symbol is named', (message) => {
    expect(offered(message)).toContain('find_references');
    expect(offered(message)).toContain('inspect_symbol');
  });

  it.each([
    'Fix the crash in src/parser.ts',
    'Search src/ for the function that parses flags and fix the crash in it',
  ])('%s → no web tools', (message) => {
    expect(offered(message)).not.toContain('web_fetch');
  });

  it.each([
    ['Fix the crash in src/parser.ts', [...basic]],
    ['Explain how `runLoop` works', [...basic, 'get_codebase_map', 'find_references', 'rename_symbol']],
    ['Implement a REST API with users and sessions', [...basic, 'todo_write']],
    ['Move src/util.ts into lib/', [...basic, 'move_path', 'create_directory']],
    [
      'Rename parseArgs to parseArguments everywhere',
      [...basic, 'move_path', 'rename_symbol', 'find_references'],
    ],
    [
      'Run the tests and start the dev server in the background',
      [...basic, 'command_output', 'kill_command'],
    ],
    ['Fix the type errors in src/a.ts', [...basic, 'get_diagnostics']],
    ['Fix src/db.ts for the API in https://example.com/changes', [...basic, 'web_fetch', 'web_search']],
    ['Fix the crash in src/parser.ts; check the docs online', [...basic, 'web_fetch', 'web_search']],
  ])('%s → the basic tools plus what it calls for', (message, expected) => {
    const names = offered(message);
    for (const name of expected) expect(names, name).toContain(name);
    expect(names).toContain('docs__search');
  });

  it('offers only the basic tools (and other servers’) for a one-file fix', () => {
    expect(offered('Fix the crash in src/parser.ts')).toEqual([
      'list_files',
      'read_file',
      'write_file',
      'execute_command',
      'edit_file',
      'glob',
      'grep',
      // ask_user is no group's: always offered, short.
      'ask_user',
      'docs__search',
    ]);
  });

  it('offers no todo list for a message that names two files (read one, write the other)', () => {
    const names = offered('Read notes.txt and write NOTES_UPPER.txt with its text in upper case.');
    expect(names).not.toContain('todo_write');
    expect(names).not.toContain('create_directory');
    expect(offered('Update a.ts, b.ts and c.ts to the new API')).toContain('todo_write');
  });

  it('offers every tool when the message cannot be read with confidence', () => {
    expect(offered('hello')).toHaveLength(all.length + 1);
  });

  it('keeps a group once offered, and lets the group of a tool the model used join', () => {
    const offer = new ToolOffer();
    offer.message('Explain how `runLoop` works', classifyIntent('Explain how `runLoop` works'));
    offer.message('Fix the crash in a.ts', classifyIntent('Fix the crash in a.ts'));
    expect(offer.select(all).map((s) => s.name)).toContain('find_references');
    expect(offer.select(all).map((s) => s.name)).not.toContain('move_path');
    offer.used('move_path', '{"from":"a","to":"b"}');
    offer.used('execute_command', '{"command":"npm run dev","background": true}');
    const names = offer.select(all).map((s) => s.name);
    expect(names).toContain('copy_path');
    expect(names).toContain('command_output');
  });

  it('keeps the registry order, so the same groups give the same bytes', () => {
    const names = offered('Implement a REST API with users and sessions');
    const order = all.map((s) => s.name).filter((n) => names.includes(n));
    expect(names.filter((n) => n !== 'docs__search')).toEqual(order);
  });
});

describe('ToolOffer in a conversation', () => {
  it('keeps the offer for a later message it cannot read ("thanks")', () => {
    const offer = new ToolOffer();
    offer.message('Fix the crash in a.ts', classifyIntent('Fix the crash in a.ts'));
    offer.message('thanks', classifyIntent('thanks'));
    expect(offer.select(all).map((s) => s.name)).toEqual([...basic, 'ask_user']);
  });
});
