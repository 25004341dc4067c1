// End to end in a real terminal (tmux): the prompt drawn before the run is assembled (typed text kept and sent once
// it is, an assembly failure then ending the chat with its error and exit code), the chat's Markdown, spinner, slash commands, Tab completion, @files,
// pasted and continued input, a paragraph shown while it streams, Ctrl-C during a turn, modes (Shift+Tab, /mode) and kept approvals, /exit, the model's
// ask_user question answered by number, and /plan (a plan-mode turn offers only what plans, the chat asks how to go
// on, and "a" executes the plan in auto mode), against the scripted model server. Each chat is one conversation whose steps check one behaviour each: starting a
// keel per check cost a second of CPU and more.
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolMessages, useE2E } from '../support/e2e.js';
import type { ModelServer } from '../support/model-server.js';
import { hasTmux, startTerminal, type Terminal } from '../support/tmux.js';
import { qwen3Spec } from '../support/wire-models.js';

const { server, workspace, track } = useE2E();
// A light MCP server with server-everything's args-prompt (test/mcp/manager.test.ts has the real one's prompts).
const promptsServer = resolve(import.meta.dirname, '../fixtures/mcp/prompts-server.mjs');

/** The last user message of a chat request (Ollama's wire). */
const lastUser = (s: ModelServer, index: number) => {
  const messages = (s.requests[index]!.body as { messages: { role: string; content: string }[] }).messages;
  return messages.filter((m) => m.role === 'user').at(-1)!.content;
};

const toolNames = (body: { tools?: { function?: { name: string }; name?: string }[] }) =>
  (body.tools ?? []).map((t) => t.function?.name ?? t.name);

/** Every message's text of a chat request, one per line. */
const history = (s: ModelServer, index: number) =>
  (s.requests[index]!.body.messages as { content: string }[]).map((m) => m.content).join('\n');

/**
 * An SGR sequence turning on `code` (1 bold, 31 red, 32 green, 35 magenta) before `text`, with at most other
 * sequences that reset nothing in between (tmux may add default-colour ones).
 */
const styled = (code: string, text: string) =>
  new RegExp(`\\x1b\\[(?:[0-9]+;)*${code}(?:;[0-9]+)*m(?:\\x1b\\[[1-9][0-9;]*m)*${text}`);

/** The screen shows `text` after the last `marker` (the chat's earlier turns stay in the scrollback). */
const after =
  (marker: string, text: string | RegExp) =>
  (screen: string): boolean => {
    const at = screen.lastIndexOf(marker);
    if (at < 0) return false;
    const tail = screen.slice(at + marker.length);
    return typeof text === 'string' ? tail.includes(text) : text.test(tail);
  };

/** Types a line and sends it. */
async function send(term: Terminal, text: string): Promise<void> {
  await term.type(text);
  await term.keys('Enter');
}

/** Waits (up to 10 s) for keel to exit. */
async function waitExit(term: Terminal): Promise<void> {
  for (let i = 0; i < 100 && !(await term.exited()); i++) await new Promise((r) => setTimeout(r, 100));
  expect(await term.exited(), 'keel is still running').toBe(true);
}

/** A conversation of many steps: well under this, but the suite shares two cores. */
const LONG = { timeout: 150_000 };

// Without tmux there is no terminal to drive; every other e2e test covers the chat through pipes.
describe.skipIf(!hasTmux())('keel chat in a terminal', () => {
  it(
    'one conversation: Markdown, tool lines and /output, @files, pastes, /model, custom commands, /compact, MCP prompts, Ctrl-C',
    LONG,
    async () => {
      const s = await server({
        chunkText: true,
        script: [
          {
            text: '# Plan\n\nUse **bold** words and `code`.\n\n```ts\nconst answer: number = 42;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
            usage: { input: 120, output: 30 },
          },
          {
            toolCalls: [
              { name: 'edit_file', args: { path: 'hello.txt', old_string: 'world', new_string: 'there' } },
              { name: 'execute_command', args: { command: 'seq 1 12' } },
            ],
          },
          { text: 'Done.' },
          { text: 'noted' },
          { text: 'got the paste' },
          { text: 'got the lines' },
          { text: 'first answer' },
          { text: 'second answer' },
          { text: 'looked at it' },
          { text: '## Goal\nReview notes.\n## Finished\nRead notes.txt.' },
          { text: 'continuing' },
          { text: 'about Paris' },
          { hang: true },
          { text: 'answer after the interrupt' },
          {
            text: 'A long paragraph streams without a newline and runs past the edge of the terminal, with **bold words** in it, then stalls here',
            stall: true,
          },
        ],
        // What /model other-model checks the name against.
        ollamaModels: [qwen3Spec, { ...qwen3Spec, name: 'other-model:latest' }],
      });
      const ws = await workspace({
        'notes.txt': 'buy milk\ncall bob\n',
        'src/app.ts': 'export {};\n',
        'hello.txt': 'hello\nworld\n',
        '.keel/commands/inspect.md': '---\ndescription: review one file\n---\nReview $1 carefully.\n',
      });
      const config = await workspace({
        'keel/config.yaml': [
          'mcp:',
          '  servers:',
          '    weather:',
          '      command: node',
          `      args: [${JSON.stringify(promptsServer)}]`,
          'hooks:',
          '  session_start:',
          '    - command: echo "$KEEL_SESSION_ID" >> "$XDG_CONFIG_HOME/starts.log"',
          '',
        ].join('\n'),
      });
      // `keel "hello"`: the chat, with that first message sent as if typed.
      const term = await startTerminal(
        ['hello', '--mode', 'full', '--no-sandbox', '--base-url', s.ollamaUrl, '--cwd', ws],
        { cwd: ws, env: { XDG_CONFIG_HOME: config } },
      );
      track(term.close);

      // The streamed Markdown answer styled, then the status line.
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
      expect(plain).toMatch(/ollama\/\S+ · context <?\d+% of \S+ · 120 in \/ 30 out/);

      // Each tool call on one line: an edit with its coloured diff, a command with its last lines; /output shows all.
      await send(term, 'write and count');
      const tools = await term.waitFor('Done.', { escapes: true });
      const toolScreen = await term.screen();
      expect(toolScreen).toMatch(/✓ edit_file path=hello\.txt/);
      expect(tools).toMatch(styled('31', '-world'));
      expect(tools).toMatch(styled('32', '\\+there'));
      expect(toolScreen).toMatch(/✓ execute_command command=seq 1 12 → /);
      expect(toolScreen).toContain('… 7 more lines (/output shows all)');
      expect(toolScreen).toMatch(/ {4}12\n/);
      expect(toolScreen).not.toMatch(/ {4}3\n/);
      await send(term, '/output');
      await term.waitFor((screen) => /output of execute_command[\s\S]*\n3\n4\n/.test(screen));

      // Tab completes a slash command and an @file, whose content reaches the model.
      await term.type('/outp');
      await term.keys('Tab');
      await term.waitFor('› /output ');
      await term.keys('C-u');
      // An ambiguous prefix: Tab Tab (sent at once, as keys typed quickly arrive) lists the candidates.
      await term.type('/co');
      await term.keys('Tab', 'Tab');
      await term.waitFor((screen) => /\/compact +\/cost/.test(screen));
      await term.keys('C-u');
      await term.type('summarise @no');
      await term.keys('Tab');
      await term.waitFor('› summarise @notes.txt');
      await term.keys('Enter');
      await term.waitFor('noted');
      expect(await term.screen()).toContain('attached notes.txt (18 bytes)');
      expect(lastUser(s, 3)).toContain('summarise @notes.txt');
      expect(lastUser(s, 3)).toContain('<file path="notes.txt">\nbuy milk\ncall bob\n</file>');

      // A pasted block and backslash-continued lines are one message each.
      await term.paste('first pasted line\nsecond pasted line');
      await term.keys('Enter');
      await term.waitFor('got the paste');
      expect(lastUser(s, 4)).toBe('first pasted line\nsecond pasted line');
      await send(term, 'one \\');
      await term.waitFor(after('› one \\', '… '));
      await send(term, 'two');
      await term.waitFor('got the lines');
      expect(lastUser(s, 5)).toBe('one \ntwo');

      // /model switches the model for the next turns and the conversation goes on; Up recalls past input.
      await send(term, 'remember the word kestrel');
      await term.waitFor('first answer');
      await send(term, '/model other-model');
      await term.waitFor('model: ollama/other-model');
      await term.keys('Up', 'Up');
      await term.waitFor(after('model: ollama/other-model', '› remember the word kestrel'));
      await term.keys('C-u');
      await send(term, 'what was the word?');
      await term.waitFor('second answer');
      expect(s.requests[7]!.body.model).toBe('other-model');
      expect(history(s, 7)).toContain('remember the word kestrel');
      expect(history(s, 7)).toContain('first answer');
      // The same session goes on: its session_start hook ran once.
      const starts = () =>
        readFile(join(config, 'starts.log'), 'utf8').then((text) => text.trim().split('\n'));
      expect(await starts()).toHaveLength(1);

      // A custom command file is a slash command with Tab completion; /compact summarises and the chat goes on.
      await term.type('/insp');
      await term.keys('Tab');
      await term.waitFor('› /inspect ');
      await send(term, 'notes.txt');
      await term.waitFor('looked at it');
      expect(lastUser(s, 8)).toMatch(/^Review notes\.txt carefully\./);
      await send(term, '/compact the review');
      await term.waitFor((screen) =>
        /compacted: the conversation is now a summary: \d+ → \d+ tokens/.test(screen),
      );
      expect(JSON.stringify(s.requests[9]!.body)).toContain('the review');
      await send(term, 'go on');
      await term.waitFor('continuing');
      expect(history(s, 10)).toContain('Review notes.');
      expect(history(s, 10)).not.toContain('looked at it');

      // An MCP server's prompt is a slash command once the server is ready (it starts in the background: /help
      // lists its prompts once it is); its text goes to the model.
      // The whole help is one print, its keys last: a help is shown when one more 'Ctrl-D' is (the line typed may
      // be drawn before the prompt while the last turn ends, so it marks nothing).
      const helps = (screen: string) => screen.split('Ctrl-D').length - 1;
      for (let i = 0; i < 50; i++) {
        const before = helps(await term.screen());
        await send(term, '/help');
        const shown = await term.waitFor((screen) => helps(screen) > before);
        if (shown.includes('/weather__args-prompt')) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      await term.waitFor('/weather__args-prompt');
      await term.keys('C-l');
      await send(term, '/weather__args-prompt Paris');
      await term.waitFor('about Paris');
      expect(lastUser(s, 11)).toContain('Paris');

      // A spinner while the model is silent; Ctrl-C cancels the turn and the next message works.
      await send(term, 'first');
      await term.waitFor(after('› first', /thinking \d+\.\ds/));
      // The spinner shows before the request arrives; interrupted earlier, the hang would answer the next message.
      for (let i = 0; i < 100 && s.requests.length < 13; i++) await new Promise((r) => setTimeout(r, 100));
      expect(s.requests, 'the request reached the model').toHaveLength(13);
      await term.keys('C-c');
      await term.waitFor(after('› first', 'interrupted'));
      await send(term, 'again');
      // The turn's status line first: the prompt is drawn after it.
      await term.waitFor(after('answer after the interrupt', / in \/ \d+ out\n›/));
      expect(lastUser(s, 13)).toBe('again');
      // A paragraph shows as it streams, before its line ends: the model stalls mid-line, the words are there, styled.
      await send(term, 'para');
      const streaming = await term.waitFor(after('› para', 'then stalls here'), { escapes: true });
      expect(streaming).toMatch(styled('1', 'bold words'));
      // Wrapped at the width (100): its first row final, the second drawn in place; no spinner in the text.
      expect(await term.screen()).toMatch(
        /› para\nA long paragraph .* with bold words\nin it, then stalls here\n/,
      );
      await term.keys('C-c');
      await term.waitFor(after('then stalls here', 'interrupted'));
      // /clear starts a new session: its session_start hook runs, and /cost counts from none.
      await send(term, '/clear');
      await term.waitFor(after('› /clear', 'new session started'));
      const [started, cleared, ...more] = await starts();
      expect(more).toEqual([]);
      expect(cleared).not.toBe(started);
      await send(term, '/cost');
      await term.waitFor(after('› /cost', 'no turns yet in this session'));
      // At the prompt: Ctrl-C clears a half-typed line, and on an empty one leaves the chat.
      await term.type('half typed');
      await term.waitFor('› half typed');
      await term.keys('C-c');
      await term.waitFor((screen) => !screen.includes('half typed'));
      await term.keys('C-c');
      await waitExit(term);
    },
  );

  it(
    'the prompt comes before the run is assembled, /help answers at once, a message typed meanwhile is sent once it is there (or dropped by Ctrl-C); Shift+Tab (also pressed during a turn: once it is over) and /mode switch the mode shown in the status line, /exit leaves; an A answer holds in the next chat, whose /help and /cost never reach the model; ask_user is answered by number; /plan plans, a line typed during its turn waits until its question is answered, and "a" executes the plan in auto mode',
    LONG,
    async () => {
      const command = { name: 'execute_command', args: { command: 'echo hi >> log.txt' } };
      // The first chat's run stays in its assembly (the model's /api/show unanswered) until the test lets it go on.
      let assemble = () => {};
      const s = await server({
        showAfter: new Promise<void>((resolve) => {
          assemble = resolve;
        }),
        script: [
          { toolCalls: [command] },
          { text: 'first done' },
          { toolCalls: [command] },
          { text: 'second done' },
          {
            toolCalls: [
              { name: 'ask_user', args: { question: 'Which greeting?', options: ['hello', 'hi there'] } },
            ],
          },
          { text: 'I will use hi there.' },
          {
            toolCalls: [
              {
                name: 'todo_write',
                args: { todos: [{ id: '1', content: 'write greeting.txt', status: 'pending' }] },
              },
            ],
          },
          { text: 'Plan: one step, write greeting.txt.' },
          { toolCalls: [{ name: 'write_file', args: { path: 'greeting.txt', content: 'hi there\n' } }] },
          { text: 'Done: greeting.txt written.' },
        ],
      });
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
      // The prompt is up while the run still waits for the model's /api/show: /help answers at once, a message
      // typed meanwhile waits for the run and is sent once it is there.
      // Waited for, not timed: on a loaded machine the run reaches /api/show seconds after the prompt.
      for (let i = 0; i < 500 && s.heldShows() === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(s.heldShows(), 'the run waits for /api/show with the prompt up').toBe(1);
      await send(first, '/help');
      await first.waitFor('/compact [focus]');
      // Ctrl-C while a message waits for the run drops that message; the chat goes on.
      await send(first, 'never sent');
      await first.waitFor(after('› never sent', 'starting'));
      await first.keys('C-c');
      await first.waitFor(after('› never sent', '\n›'));
      await send(first, 'log it');
      await first.waitFor('› log it');
      expect(s.requests).toHaveLength(0);
      assemble();
      await first.waitFor('A: always in this workspace');
      // Shift+Tab while the turn runs (its approval waits): the chat switches once the turn is over.
      await first.keys('BTab');
      await send(first, 'A');
      await first.waitFor('first done');
      expect(lastUser(s, 0)).toBe('log it');
      expect(history(s, 1)).not.toContain('never sent');
      await first.waitFor(after('first done', /interactive mode · ollama\/.*\nrestricted mode · ollama\//));
      await first.keys('BTab');
      await first.waitFor('auto mode · ollama/');
      await send(first, '/mode restricted');
      await first.waitFor(after('› /mode restricted', 'restricted mode · ollama/'));
      await send(first, '/exit');
      await waitExit(first);

      const second = await open();
      // /help lists the commands; an unknown one gets a suggestion; none of it reaches the model.
      await send(second, '/help');
      // The list's last command: the whole list is on the screen (under load it is drawn in more than one write).
      await second.waitFor('/exit');
      const help = await second.screen();
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
      await send(second, '/hlep');
      await second.waitFor('unknown command /hlep; did you mean /help?');
      await send(second, '/cost');
      await second.waitFor('no turns yet');
      expect(s.requests).toHaveLength(2);
      await send(second, '/permissions');
      await second.waitFor('1. execute_command: echo hi >> log.txt');
      await send(second, 'log it again');
      await second.waitFor('second done');
      expect(await second.screen()).not.toContain('needs approval');
      expect(await readFile(join(ws, 'log.txt'), 'utf8')).toBe('hi\nhi\n');
      expect(await readdir(ws)).toEqual(['log.txt']);

      // The model's ask_user question, its options numbered, answered by number.
      await send(second, 'pick a greeting');
      await second.waitFor('answer (1-2 or your answer)');
      await send(second, '2');
      // The turn's status line first: /plan typed while the turn ends may be drawn before the prompt.
      await second.waitFor(after('I will use hi there.', / in \/ \d+ out\n›/));
      expect(toolMessages(s.requests[5]!.body).at(-1)).toContain('hi there');
      // /plan: a plan-mode turn offers only what plans (no writes, no commands), then the chat asks how to go on.
      await send(second, '/plan');
      await second.waitFor(after('› /plan', 'plan mode ·'));
      // /cost typed right after the message (one write: it arrives while the plan turn runs) is the next message,
      // not the answer to the question the turn ends with: it runs once that question is answered.
      await second.keys('plan writing the greeting', 'Enter', '/cost', 'Enter');
      await second.waitFor('k <feedback> to keep planning');
      const planned = toolNames(s.requests[6]!.body);
      expect(planned).toContain('todo_write');
      expect(planned).toContain('read_file');
      expect(planned).not.toContain('write_file');
      expect(planned).not.toContain('execute_command');
      await send(second, 'a');
      const screen = await second.waitFor(after('Done: greeting.txt written.', 'price unknown'));
      if (process.env.SHOW_SCREEN) console.log(screen);
      expect(screen).not.toMatch(/keep planning, s to stop: \/cost/);
      expect(await readFile(join(ws, 'greeting.txt'), 'utf8')).toBe('hi there\n');
      // Executing in auto mode: the plan's list and the instruction to carry it out reach the model.
      expect(JSON.stringify(s.requests[8]!.body)).toContain('Carry out the plan on the todo list');
      expect(toolNames(s.requests[8]!.body)).toContain('write_file');
    },
  );

  it('a run that fails to assemble while the prompt is up ends the chat with its error once and its exit code', async () => {
    // The model lacks tool calling and the config insists on native calls: creating the model fails, once its
    // /api/show is answered, which the test lets happen only after the prompt is up and text is typed at it.
    let assemble = () => {};
    const s = await server({
      showAfter: new Promise<void>((resolve) => {
        assemble = resolve;
      }),
      ollamaModels: [{ name: 'qwen3:latest', capabilities: ['completion'] }],
      script: [],
    });
    const ws = await workspace();
    const config = await workspace({
      'keel/config.yaml': 'provider:\n  ollama:\n    tool_protocol: native\n',
    });
    const term = await startTerminal(['chat', '--base-url', s.ollamaUrl, '--cwd', ws], {
      cwd: ws,
      env: { XDG_CONFIG_HOME: config },
      exitStatus: true,
    });
    track(term.close);
    await term.waitFor('› ');
    await term.type('typed ahead');
    await term.waitFor('› typed ahead');
    assemble();
    const screen = await term.waitFor('keel exited with');
    expect(screen).toContain('keel exited with 2');
    expect(screen).toContain('keel chat · ollama/qwen3');
    expect(screen.split('error: model "qwen3" does not support tools')).toHaveLength(2);
    // The prompt's line, and what was typed at it, were wiped: the error stands alone under the banner.
    expect(screen).not.toContain('›');
    expect(s.requests).toHaveLength(0);
  });
});
