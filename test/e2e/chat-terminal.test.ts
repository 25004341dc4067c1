// End to end in a real terminal (tmux): the chat's Markdown, spinner, slash commands, Tab completion, @files,
// pasted and continued input, Ctrl-C during a turn, modes (Shift+Tab, /mode) and kept approvals, and /exit,
// against the scripted model server.
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../support/e2e.js';
import type { ModelServer } from '../support/model-server.js';
import { hasTmux, startTerminal, type Terminal } from '../support/tmux.js';

const { server, workspace, track } = useE2E();
const everything = resolve(
  import.meta.dirname,
  '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

/** The last user message of a chat request (Ollama's wire). */
const lastUser = (s: ModelServer, index: number) => {
  const messages = (s.requests[index]!.body as { messages: { role: string; content: string }[] }).messages;
  return messages.filter((m) => m.role === 'user').at(-1)!.content;
};

/** An SGR sequence turning on `code` (1 bold, 31 red, 32 green, 35 magenta) right before `text`. */
const styled = (code: string, text: string) => new RegExp(`\\x1b\\[(?:[0-9]+;)*${code}(?:;[0-9]+)*m${text}`);

/** `keel chat` against the server in a terminal, its prompt shown. */
async function chat(s: ModelServer, ws: string, args: string[] = []): Promise<Terminal> {
  const term = await startTerminal(['chat', '--base-url', s.ollamaUrl, '--cwd', ws, ...args], { cwd: ws });
  track(term.close);
  await term.waitFor('› ');
  return term;
}

/** Waits (up to 10 s) for keel to exit. */
async function waitExit(term: Terminal): Promise<void> {
  for (let i = 0; i < 100 && !(await term.exited()); i++) await new Promise((r) => setTimeout(r, 100));
  expect(await term.exited(), 'keel is still running').toBe(true);
}

// Without tmux there is no terminal to drive; every other e2e test covers the chat through pipes.
describe.skipIf(!hasTmux())('keel chat in a terminal', () => {
  it('starts as keel "<message>", renders the streamed Markdown answer styled, then the status line, and /exit leaves', async () => {
    const s = await server({
      chunkText: true,
      script: [
        {
          text: '# Plan\n\nUse **bold** words and `code`.\n\n```ts\nconst answer: number = 42;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
          usage: { input: 120, output: 30 },
        },
      ],
    });
    const ws = await workspace();
    // `keel "hello"`: the chat, with that first message sent as if typed.
    const term = await startTerminal(['hello', '--base-url', s.ollamaUrl, '--cwd', ws], { cwd: ws });
    track(term.close);
    const shown = await term.waitFor('in / 30 out', { escapes: true });
    expect(lastUser(s, 0)).toBe('hello');
    expect(await term.screen()).toContain('› hello');
    if (process.env.SHOW_SCREEN) console.log(shown);
    // Styled, not raw: no Markdown markers left, the heading bold, the code block's keyword coloured.
    const plain = await term.screen();
    expect(plain).not.toContain('**bold**');
    expect(plain).not.toContain('```');
    expect(plain).not.toContain('# Plan');
    expect(shown).toMatch(styled('1', 'Plan'));
    expect(shown).toMatch(styled('1', 'bold'));
    expect(shown).toMatch(styled('35', 'const'));
    expect(plain).toMatch(/a +│ b/);
    expect(plain).toMatch(/ollama\/\S+ · context \d+% of \S+ · 120 in \/ 30 out/);
    await term.type('/exit');
    await term.keys('Enter');
    await waitExit(term);
  });

  it('shows a spinner while the model is silent; Ctrl-C cancels the turn and the next message works', async () => {
    const s = await server([{ hang: true }, { text: 'second answer' }]);
    const term = await chat(s, await workspace());
    await term.type('first');
    await term.keys('Enter');
    await term.waitFor((screen) => /thinking \d+\.\ds/.test(screen));
    // The spinner shows before the request arrives; interrupted earlier, the hang would answer the next message.
    for (let i = 0; i < 100 && s.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(s.requests, 'the first request reached the model').toHaveLength(1);
    await term.keys('C-c');
    await term.waitFor('interrupted');
    await term.type('again');
    await term.keys('Enter');
    await term.waitFor('second answer');
    expect(lastUser(s, 1)).toBe('again');
    // At the prompt: Ctrl-C clears a half-typed line, and on an empty one leaves the chat.
    await term.type('half typed');
    await term.waitFor('› half typed');
    await term.keys('C-c');
    await term.waitFor((screen) => !screen.includes('half typed'));
    await term.keys('C-c');
    await waitExit(term);
  });

  it('/help lists the commands; an unknown one gets a suggestion and never reaches the model', async () => {
    const s = await server([{ text: 'unused' }]);
    const term = await chat(s, await workspace());
    await term.type('/help');
    await term.keys('Enter');
    await term.waitFor('/compact [focus]');
    const help = await term.screen();
    for (const name of [
      '/clear',
      '/sessions',
      '/resume <id>',
      '/model [name]',
      '/cost',
      '/save <file>',
      '/undo',
      '/init',
      '/exit',
    ])
      expect(help).toContain(name);
    await term.type('/hlep');
    await term.keys('Enter');
    await term.waitFor('unknown command /hlep; did you mean /help?');
    await term.type('/cost');
    await term.keys('Enter');
    await term.waitFor('no turns yet');
    expect(s.requests).toHaveLength(0);
  });

  it('Tab completes a slash command and an @file, whose content reaches the model', async () => {
    const s = await server([{ text: 'noted' }]);
    const ws = await workspace({ 'notes.txt': 'buy milk\ncall bob\n', 'src/app.ts': 'export {};\n' });
    const term = await chat(s, ws);
    await term.type('/hel');
    await term.keys('Tab');
    await term.waitFor('› /help ');
    await term.keys('C-u');
    await term.type('summarise @no');
    await term.keys('Tab');
    await term.waitFor('› summarise @notes.txt');
    await term.keys('Enter');
    await term.waitFor('noted');
    expect(await term.screen()).toContain('attached notes.txt (18 bytes)');
    const sent = lastUser(s, 0);
    expect(sent).toContain('summarise @notes.txt');
    expect(sent).toContain('<file path="notes.txt">\nbuy milk\ncall bob\n</file>');
  });

  it('keeps a pasted block and backslash-continued lines as one message each', async () => {
    const s = await server([{ text: 'got the paste' }, { text: 'got the lines' }]);
    const term = await chat(s, await workspace());
    await term.paste('first pasted line\nsecond pasted line');
    await term.keys('Enter');
    await term.waitFor('got the paste');
    expect(lastUser(s, 0)).toBe('first pasted line\nsecond pasted line');
    await term.type('one \\');
    await term.keys('Enter');
    await term.waitFor('… ');
    await term.type('two');
    await term.keys('Enter');
    await term.waitFor('got the lines');
    expect(lastUser(s, 1)).toBe('one \ntwo');
  });

  it('shows each tool call on one line: an edit with its coloured diff, a command with its last lines; /output shows all', async () => {
    const s = await server([
      {
        toolCalls: [
          { name: 'edit_file', args: { path: 'hello.txt', old_string: 'world', new_string: 'there' } },
          { name: 'execute_command', args: { command: 'seq 1 12' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const term = await chat(s, await workspace({ 'hello.txt': 'hello\nworld\n' }), [
      '--mode',
      'full',
      '--no-sandbox',
    ]);
    await term.type('write and count');
    await term.keys('Enter');
    const shown = await term.waitFor('Done.', { escapes: true });
    const plain = await term.screen();
    expect(plain).toMatch(/✓ edit_file path=hello\.txt/);
    expect(shown).toMatch(styled('31', '-world'));
    expect(shown).toMatch(styled('32', '\\+there'));
    expect(plain).toMatch(/✓ execute_command command=seq 1 12 → /);
    expect(plain).toContain('more lines (/output shows all)');
    expect(plain).toMatch(/ {4}12\n/);
    expect(plain).not.toMatch(/ {4}3\n/);
    await term.type('/output');
    await term.keys('Enter');
    await term.waitFor((screen) => /output of execute_command[\s\S]*\n3\n4\n/.test(screen));
  });

  it('/model switches the model for the next turns and the conversation goes on; Up recalls past input', async () => {
    const s = await server([{ text: 'first answer' }, { text: 'second answer' }]);
    const term = await chat(s, await workspace());
    await term.type('remember the word kestrel');
    await term.keys('Enter');
    await term.waitFor('first answer');
    await term.type('/model other-model');
    await term.keys('Enter');
    await term.waitFor('model: ollama/other-model');
    await term.keys('Up', 'Up');
    await term.waitFor('› remember the word kestrel');
    await term.keys('C-u');
    await term.type('what was the word?');
    await term.keys('Enter');
    await term.waitFor('second answer');
    expect(s.requests[1]!.body.model).toBe('other-model');
    const history = s.requests[1]!.body.messages.map((m: { content: string }) => m.content).join('\n');
    expect(history).toContain('remember the word kestrel');
    expect(history).toContain('first answer');
  });
  it('a custom command file is a slash command with Tab completion; /compact summarises and the chat goes on', async () => {
    const s = await server([
      { text: 'looked at it' },
      { text: '## Goal\nReview notes.\n## Done\nRead notes.txt.' },
      { text: 'continuing' },
    ]);
    const ws = await workspace({
      'notes.txt': 'buy milk\n',
      '.keel/commands/inspect.md': '---\ndescription: review one file\n---\nReview $1 carefully.\n',
    });
    const term = await chat(s, ws);
    await term.type('/insp');
    await term.keys('Tab');
    await term.waitFor('› /inspect ');
    await term.type('notes.txt');
    await term.keys('Enter');
    await term.waitFor('looked at it');
    expect(lastUser(s, 0)).toMatch(/^Review notes\.txt carefully\./);
    await term.type('/compact the review');
    await term.keys('Enter');
    await term.waitFor((screen) =>
      /compacted: the conversation is now a summary: \d+ → \d+ tokens/.test(screen),
    );
    expect(JSON.stringify(s.requests[1]!.body)).toContain('the review');
    await term.type('go on');
    await term.keys('Enter');
    await term.waitFor('continuing');
    const history = s.requests[2]!.body.messages.map((m: { content: string }) => m.content).join('\n');
    expect(history).toContain('Review notes.');
    expect(history).not.toContain('looked at it');
  });

  it("an MCP server's prompt is a slash command once the server is ready; its text goes to the model", async () => {
    const s = await server([{ text: 'about Paris' }]);
    const ws = await workspace();
    const config = await workspace({
      'keel/config.yaml': [
        'mcp:',
        '  servers:',
        '    everything:',
        '      command: node',
        `      args: [${JSON.stringify(everything)}, stdio]`,
        '',
      ].join('\n'),
    });
    const term = await startTerminal(['chat', '--base-url', s.ollamaUrl, '--cwd', ws], {
      cwd: ws,
      env: { XDG_CONFIG_HOME: config },
    });
    track(term.close);
    await term.waitFor('› ');
    // The server starts in the background: /help lists its prompts once it is ready.
    for (let i = 0; i < 50; i++) {
      await term.type('/help');
      await term.keys('Enter');
      await new Promise((r) => setTimeout(r, 200));
      if ((await term.screen()).includes('/everything__args-prompt')) break;
    }
    await term.waitFor('/everything__args-prompt');
    await term.keys('C-l');
    await term.type('/everything__args-prompt Paris');
    await term.keys('Enter');
    await term.waitFor('about Paris');
    expect(lastUser(s, 0)).toContain('Paris');
  });

  it('Shift+Tab and /mode switch the mode shown in the status line; an A answer holds in the next chat', async () => {
    const command = { name: 'execute_command', args: { command: 'echo hi >> log.txt' } };
    const s = await server([
      { toolCalls: [command] },
      { text: 'first done' },
      { toolCalls: [command] },
      { text: 'second done' },
    ]);
    const ws = await workspace();
    // Both chats share Keel's state dir, where the kept answer lives; never the workspace.
    const state = await workspace();
    const open = async () => {
      const term = await startTerminal(
        ['chat', '--mode', 'interactive', '--base-url', s.ollamaUrl, '--cwd', ws],
        {
          cwd: ws,
          env: { XDG_STATE_HOME: state },
        },
      );
      track(term.close);
      await term.waitFor('› ');
      return term;
    };
    const first = await open();
    await first.type('log it');
    await first.keys('Enter');
    await first.waitFor('A: always in this workspace');
    await first.type('A');
    await first.keys('Enter');
    await first.waitFor('first done');
    await first.waitFor('interactive mode · ollama/');
    await first.keys('BTab');
    await first.waitFor('restricted mode · ollama/');
    await first.type('/mode auto');
    await first.keys('Enter');
    await first.waitFor('auto mode · ollama/');
    await first.type('/exit');
    await first.keys('Enter');
    const second = await open();
    await second.type('/permissions');
    await second.keys('Enter');
    await second.waitFor('1. execute_command: echo hi >> log.txt');
    await second.type('log it again');
    await second.keys('Enter');
    await second.waitFor('second done');
    expect(await second.screen()).not.toContain('needs approval');
    expect(await readFile(join(ws, 'log.txt'), 'utf8')).toBe('hi\nhi\n');
    expect(await readdir(ws)).toEqual(['log.txt']);
  });
});
