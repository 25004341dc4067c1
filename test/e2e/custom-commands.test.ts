// Custom slash commands from .keel/commands/ and the user's config dir, run headless with `keel run --command <name>
// [args...]`: placeholders, @file includes, allowed-tools (the built CLI, once), and in-process the goal --command
// makes (a user command, the cap on an included file) and the usage errors of unknown names, @files outside the
// workspace and stray arguments.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { customGoal } from '../../src/cli/run.js';
import { UsageError } from '../../src/core/errors.js';
import { useTempHome } from '../support/assemble-in-process.js';
import { runCli } from '../support/cli-in-process.js';
import { runOllama, useE2E } from '../support/e2e.js';
import { fixture, mcpConfig, offeredTools } from '../support/mcp.js';

const { server, workspace, removeLater } = useE2E();
useTempHome();

const REVIEW = `---
description: Review a file
allowed-tools: [read_file, grep]
argument-hint: <file> <focus>
---
Review $1 with a focus on $2.
All arguments: $ARGUMENTS
Context: @src/a.ts.
`;

/** A workspace with a project command, and a user config dir (XDG_CONFIG_HOME) with user commands. */
async function setup(): Promise<{ ws: string; env: Record<string, string> }> {
  const ws = await workspace({
    'src/a.ts': 'export const a = 1;\n',
    'big.txt': 'y'.repeat(150_000),
    '.keel/commands/review.md': REVIEW,
    '.keel/commands/escape.md': 'Read @../secret.txt\n',
  });
  const xdg = await mkdtemp(join(tmpdir(), 'keel-xdg-'));
  removeLater(xdg);
  await mkdir(join(xdg, 'keel', 'commands', 'git'), { recursive: true });
  await writeFile(
    join(xdg, 'keel', 'commands', 'git', 'summary.md'),
    'Summarise the recent changes.\n@big.txt\n',
  );
  // A user command the project's command of the same name hides.
  await writeFile(join(xdg, 'keel', 'commands', 'review.md'), 'the user review\n');
  return { ws, env: { XDG_CONFIG_HOME: xdg } };
}

/** The user message of a chat request body. */
const userMessage = (body: { messages: { role: string; content: string }[] }): string =>
  body.messages.find((m) => m.role === 'user')!.content;

describe('keel run --command', () => {
  it('expands a project command: $1, $2, $ARGUMENTS, @file, and offers only its allowed tools', async () => {
    const { ws, env } = await setup();
    const s = await server([{ text: 'reviewed' }]);
    const r = await runOllama(s, ws, ['--command', 'review', 'src/a.ts', 'error handling'], { env });
    expect(r.code, r.stderr).toBe(0);
    const message = userMessage(s.requests[0]!.body);
    expect(message).toContain('Review src/a.ts with a focus on error handling.');
    expect(message).toContain('All arguments: src/a.ts "error handling"');
    expect(message).toContain('Context: @src/a.ts.');
    expect(message).toContain('<file path="src/a.ts">\nexport const a = 1;\n\n</file>');
    expect(message).not.toContain('the user review');
    const tools = (s.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(tools.sort()).toEqual(['grep', 'read_file']);
  });

  it('runs a user command in a subfolder as dir:name, arguments appended, an included file cut at the cap', async () => {
    const { ws, env } = await setup();
    Object.assign(process.env, env);
    const goal = await goalOf({ command: 'git:summary', args: ['last', 'week'], cwd: ws });
    expect(goal?.text).toMatch(
      /^Summarise the recent changes\.\n@big\.txt\n\nlast week\n\n<file path="big.txt">/,
    );
    expect(goal?.text).toContain('[cut: the first 100000 of 150000 bytes]');
    expect(goal?.text.length).toBeLessThan(101_000);
    // No allowed-tools: the tools are not narrowed to a list (the usual offer stays).
    expect(goal?.allowedTools).toBeUndefined();
  });

  it('refuses an unknown command with a usage error listing the available ones, and names a near one', async () => {
    const { ws, env } = await setup();
    Object.assign(process.env, env);
    const refused = await refusal({ command: 'nope', cwd: ws });
    expect(refused.exitCode).toBe(2);
    expect(refused.message).toContain('unknown command "nope"');
    expect(refused.hint).toContain('available commands: escape, git:summary, review');
    // A typo is answered with the command it most likely meant, as the chat does.
    const typo = await refusal({ command: 'reveiw', cwd: ws });
    expect(typo.message).toBe('unknown command "reveiw"; did you mean review?');
  });

  it('refuses an @file outside the workspace', async () => {
    const { ws, env } = await setup();
    Object.assign(process.env, env);
    await writeFile(join(ws, '..', 'secret.txt'), 'secret');
    removeLater(join(ws, '..', 'secret.txt'));
    const refused = await refusal({ command: 'escape', cwd: ws });
    expect(refused.exitCode).toBe(2);
    expect(refused.message).toMatch(/@\.\.\/secret\.txt: path .* is outside the workspace/);
  });

  it('refuses arguments without --command, and --command with --prompt', async () => {
    const { ws, env } = await setup();
    Object.assign(process.env, env);
    const extra = await refusal({ prompt: 'x', args: ['stray'], cwd: ws });
    expect(extra.exitCode).toBe(2);
    expect(extra.message).toContain('unexpected arguments: stray');
    const both = await refusal({ command: 'review', prompt: 'x', cwd: ws });
    expect(both.exitCode).toBe(2);
  });
});

describe('allowed-tools and the names of commands, in keel run and the chat', () => {
  it('keeps allowed-tools on MCP tools that join after the start (a cold run, no cached tool list)', async () => {
    const ws = await workspace({
      'x.txt': 'x\n',
      '.keel/commands/look.md': '---\nallowed-tools: [read_file]\n---\nLook at $1\n',
    });
    const config = await mcpConfig(ws, {
      srv: { command: process.execPath, args: [fixture('echo-server.mjs')] },
    });
    const s = await server([{ text: 'looked' }]);
    const r = await runCli([
      'run',
      '--base-url',
      s.ollamaUrl,
      '--cwd',
      ws,
      '--config',
      config,
      '--command',
      'look',
      'x.txt',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(offeredTools(s.requests[0]!)).toEqual(['read_file']);
    expect(r.stderr).not.toContain('allowed-tools names no tool');
  });

  it('runs a command named like a chat built-in by its name or as project:<name>', async () => {
    const { ws, env } = await setup();
    Object.assign(process.env, env);
    const goal = await goalOf({ command: 'project:review', args: ['src/a.ts', 'naming'], cwd: ws });
    expect(goal?.text).toContain('Review src/a.ts with a focus on naming.');
    expect(goal?.allowedTools).toEqual(['read_file', 'grep']);
  });

  it("in the chat: a command's allowed-tools hold for its turn only", async () => {
    const { s, r } = await chatWith(['/check src/db.ts "error handling"', 'hello']);
    expect(r.code, r.stderr).toBe(0);
    expect(offeredTools(s.requests[0]!)).toEqual(['read_file']);
    // The next message gets the whole offer back.
    expect(offeredTools(s.requests[1]!).length).toBeGreaterThan(1);
    expect(userMessages(s.requests[1]!.body).at(-1)).toMatch(/^hello\b/);
  });

  it("in the chat: a command's @file is attached once", async () => {
    const { s } = await chatWith(['/check src/db.ts "error handling"']);
    const message = userMessages(s.requests[0]!.body).at(-1)!;
    expect(message).toContain('Check src/db.ts for error handling.');
    expect(message.match(/<file path="src\/db.ts">/g)).toHaveLength(1);
    expect(message.match(/DBMARK/g)).toHaveLength(1);
  });

  it("in the chat and keel run: a command's @file that is not UTF-8 is skipped, saying why", async () => {
    const ws = await workspace({ '.keel/commands/latin.md': 'Read @latin.txt\n' });
    await writeFile(join(ws, 'latin.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const s = await server([{ text: 'read' }, { text: 'read again' }]);
    const chat = await runCli(['chat', '--mode', 'interactive', '--base-url', s.ollamaUrl, '--cwd', ws], {
      input: '/latin\nexit\n',
    });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stderr).toMatch(
      /@latin\.txt: not UTF-8 text \(byte 0xE9 at offset 3 \(line 1\)\); .*; sent as text/,
    );
    const run = await runCli(['run', '--base-url', s.ollamaUrl, '--cwd', ws, '--command', 'latin']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/warning: @latin\.txt: not UTF-8 text \(byte 0xE9 at offset 3 \(line 1\)\)/);
    for (const request of s.requests) {
      const message = userMessages(request.body).at(-1)!;
      expect(message).toMatch(/^Read @latin\.txt\b/);
      expect(message).not.toContain('<file path="latin.txt">');
      expect(message).not.toContain('\uFFFD');
    }
  });

  it('in the chat: /review stays the built-in, the review.md command is /project:review, and /help says so', async () => {
    const { s, r } = await chatWith(['/project:review src/a.ts naming', '/help']);
    expect(r.code, r.stderr).toBe(0);
    expect(userMessages(s.requests[0]!.body).at(-1)).toContain('Review src/a.ts with a focus on naming.');
    expect(offeredTools(s.requests[0]!).sort()).toEqual(['grep', 'read_file']);
    const help = r.stdout + r.stderr;
    expect(help).toMatch(
      /\/project:review <file> <focus>\s+Review a file \(project; \/review stays the built-in command\)/,
    );
    expect(help.match(/^\s+\/review\b/gm)).toHaveLength(1);
  });
});

/** A chat in a workspace with the project commands check.md and review.md, `lines` typed, then exit. */
async function chatWith(lines: string[]) {
  const ws = await workspace({
    'src/a.ts': 'export const a = 1;\n',
    'src/db.ts': 'export const DBMARK = 1;\n',
    '.keel/commands/check.md':
      '---\ndescription: Check a file\nallowed-tools: [read_file]\n---\nCheck $1 for $2.\n@$1\n',
    '.keel/commands/review.md': REVIEW,
  });
  const s = await server(lines.map((_, i) => ({ text: `answer ${i + 1}` })));
  const r = await runCli(['chat', '--mode', 'interactive', '--base-url', s.ollamaUrl, '--cwd', ws], {
    input: `${lines.join('\n')}\nexit\n`,
  });
  return { s, r };
}

/** The user messages of a chat request body, in order. */
const userMessages = (body: unknown): string[] =>
  (body as { messages: { role: string; content: string }[] }).messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content);

/** The goal `keel run` takes from these of its options (undefined without --command). */
const goalOf = (options: { command?: string; prompt?: string; args?: string[]; cwd: string }) =>
  customGoal({ output: 'text', ...options });

/** The usage error `keel run` stops with for these options. */
async function refusal(options: { command?: string; prompt?: string; args?: string[]; cwd: string }) {
  const error = await goalOf(options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}
