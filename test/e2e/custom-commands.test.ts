// End to end: custom slash commands from .keel/commands/ and the user's config dir, run headless with
// `keel run --command <name> [args...]`: placeholders, @file includes, allowed-tools, unknown names.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runOllama, useE2E } from '../support/e2e.js';

const { server, workspace, removeLater } = useE2E();

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
    const s = await server([{ text: 'summary' }]);
    const r = await runOllama(s, ws, ['--command', 'git:summary', 'last', 'week'], { env });
    expect(r.code, r.stderr).toBe(0);
    const message = userMessage(s.requests[0]!.body);
    expect(message).toMatch(
      /^Summarise the recent changes\.\n@big\.txt\n\nlast week\n\n<file path="big.txt">/,
    );
    expect(message).toContain('[cut: the first 100000 of 150000 bytes]');
    expect(message.length).toBeLessThan(101_000);
    // No allowed-tools: the tools are not narrowed to a list (the usual offer, writes and commands included).
    const tools = (s.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(tools).toEqual(
      expect.arrayContaining(['read_file', 'write_file', 'edit_file', 'execute_command', 'grep']),
    );
  });

  it('refuses an unknown command with a usage error listing the available ones', async () => {
    const { ws, env } = await setup();
    const s = await server([{ text: 'never' }]);
    const r = await runOllama(s, ws, ['--command', 'nope'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "nope"');
    expect(r.stderr).toContain('available commands: escape, git:summary, review');
    expect(s.requests).toHaveLength(0);
  });

  it('refuses an @file outside the workspace', async () => {
    const { ws, env } = await setup();
    await writeFile(join(ws, '..', 'secret.txt'), 'secret');
    removeLater(join(ws, '..', 'secret.txt'));
    const s = await server([{ text: 'never' }]);
    const r = await runOllama(s, ws, ['--command', 'escape'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/@\.\.\/secret\.txt: path .* is outside the workspace/);
    expect(s.requests).toHaveLength(0);
  });

  it('refuses arguments without --command, and --command with --prompt', async () => {
    const { ws, env } = await setup();
    const s = await server([{ text: 'never' }]);
    const extra = await runOllama(s, ws, ['--prompt', 'x', 'stray'], { env });
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('unexpected arguments: stray');
    const both = await runOllama(s, ws, ['--command', 'review', '--prompt', 'x'], { env });
    expect(both.code).toBe(2);
    expect(s.requests).toHaveLength(0);
  });
});
