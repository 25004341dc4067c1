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
import { runOllama, useE2E } from '../support/e2e.js';

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

  it('refuses an unknown command with a usage error listing the available ones', async () => {
    const { ws, env } = await setup();
    Object.assign(process.env, env);
    const refused = await refusal({ command: 'nope', cwd: ws });
    expect(refused.exitCode).toBe(2);
    expect(refused.message).toContain('unknown command "nope"');
    expect(refused.hint).toContain('available commands: escape, git:summary, review');
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
