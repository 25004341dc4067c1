// End to end: context files reach the model in the system prompt; usage, cost and the summary line of a run.
// Keel's command line runs in process (runCli, no spawn); the built binary once, for the text-mode split of the
// answer on stdout and the summary line on stderr.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKeel } from '../support/cli.js';
import { type CliOptions, runCli } from '../support/cli-in-process.js';
import { useE2E } from '../support/e2e.js';
import type { ModelServer } from '../support/model-server.js';

const { server, workspace } = useE2E();

/** `keel run --base-url <s's Ollama route> --cwd ws …args`, in process. */
const runOllama = (s: ModelServer, ws: string, args: string[], options?: CliOptions) =>
  runCli(['run', '--base-url', s.ollamaUrl, '--cwd', ws, ...args], options);

/** The system prompt of the server's first chat request (Ollama and OpenAI carry it as the first message). */
const systemOf = (s: ModelServer) => {
  const messages = (s.requests[0]!.body as { messages: { role: string; content: string }[] }).messages;
  return messages.find((m) => m.role === 'system')!.content;
};

const writeTwo = [
  {
    toolCalls: [
      { name: 'write_file', args: { path: 'a.txt', content: 'a\n' } },
      { name: 'write_file', args: { path: 'b.txt', content: 'b\n' } },
    ],
    usage: { input: 1200, output: 300 },
  },
  {
    toolCalls: [
      { name: 'edit_file', args: { path: 'a.txt', old_string: 'a', new_string: 'A' } },
      { name: 'execute_command', args: { command: 'ls' } },
    ],
    usage: { input: 1500, output: 100 },
  },
  { text: 'Wrote both.', usage: { input: 1800, output: 50 } },
];

/** `keel run` against the OpenAI-compatible route as gpt-4o-mini, whose price ($0.15 / $0.60 per 1M) Keel knows. */
const pricedArgs = (s: ModelServer, ws: string, args: string[]) => [
  'run',
  '--provider',
  'openai-compatible',
  '--base-url',
  s.openaiUrl,
  '--model',
  'gpt-4o-mini',
  '--cwd',
  ws,
  ...args,
];
/** The built binary: what reaches its stdout and its stderr. */
const runPricedBinary = (s: ModelServer, ws: string, args: string[]) => runKeel(pricedArgs(s, ws, args));
/** The same command line in process. */
const runPriced = (s: ModelServer, ws: string, args: string[]) => runCli(pricedArgs(s, ws, args));

describe('context files', () => {
  it('AGENTS.md from the repository root down to the workspace, and the user file, reach the model', async () => {
    const repo = await workspace({
      'AGENTS.md': 'Root rule: use tabs.\n',
      'pkg/CLAUDE.md': 'Pkg rule: no semicolons.\n',
    });
    await mkdir(join(repo, '.git'));
    const ws = join(repo, 'pkg');
    const s = await server([{ text: 'ok' }]);
    const home = await workspace();
    await mkdir(join(home, 'keel'), { recursive: true });
    await writeFile(join(home, 'keel', 'AGENTS.md'), 'User rule: answer briefly.\n');
    const r = await runOllama(s, ws, ['--prompt', 'hi'], { env: { XDG_CONFIG_HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    const system = systemOf(s);
    const user = system.indexOf(`## ${join(home, 'keel', 'AGENTS.md')}\nUser rule: answer briefly.`);
    const root = system.indexOf(`## ${join(repo, 'AGENTS.md')}\nRoot rule: use tabs.`);
    const pkg = system.indexOf(`## ${join(ws, 'CLAUDE.md')}\nPkg rule: no semicolons.`);
    expect(user).toBeGreaterThan(0);
    expect(root).toBeGreaterThan(user);
    expect(pkg).toBeGreaterThan(root);
  });

  it('without context files the system prompt has no context section', async () => {
    const s = await server([{ text: 'ok' }]);
    const ws = await workspace();
    const r = await runOllama(s, ws, ['--prompt', 'hi']);
    expect(r.code, r.stderr).toBe(0);
    expect(systemOf(s)).not.toContain('Context files');
  });
});

describe('usage and cost', () => {
  it('a text-mode run ends with one summary line on stderr', async () => {
    const s = await server(writeTwo);
    const ws = await workspace();
    const r = await runPricedBinary(s, ws, ['--prompt', 'write a and b']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Wrote both.\n');
    const last = r.stderr.trimEnd().split('\n').at(-1);
    // 4,500 in and 450 out at $0.15 / $0.60 per million: $0.000945, shown as two significant digits.
    expect(last).toMatch(
      /^3 turns · 4 tool calls · 4,500 tokens in, 450 out · \$0\.0009\d · [\d.]+ (s|min) .*· 2 files changed by file tools$/,
    );
  });

  it('--output json carries cost_usd in its usage, and no summary line', async () => {
    const s = await server(writeTwo);
    const ws = await workspace();
    const r = await runPriced(s, ws, ['--prompt', 'write a and b', '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).usage).toEqual({
      input_tokens: 4500,
      output_tokens: 450,
      cost_usd: 0.000945,
    });
    expect(r.stderr).toBe('');
  });

  it('stream-json: run_end carries cost_usd, file tools’ results name the paths they changed', async () => {
    const s = await server(writeTwo);
    const ws = await workspace();
    const r = await runPriced(s, ws, ['--prompt', 'write a and b', '--output', 'stream-json']);
    expect(r.code, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.at(-1).usage.cost_usd).toBe(0.000945);
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results.map((e) => e.changed)).toEqual([
      [join(ws, 'a.txt')],
      [join(ws, 'b.txt')],
      [join(ws, 'a.txt')],
      undefined,
    ]);
    expect(r.stderr).not.toMatch(/tokens in/);
  });

  it('with an unknown price the summary has no cost', async () => {
    const s = await server([{ text: 'done', usage: { input: 10, output: 5 } }]);
    const ws = await workspace();
    const r = await runOllama(s, ws, ['--prompt', 'hi']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^1 turn · 0 tool calls · 10 tokens in, 5 out · [\d.]+ s · 0 files changed by file tools$/,
    );
  });
});
