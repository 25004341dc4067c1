// End to end: a 20-turn Anthropic run marks its prompt-cache breakpoints so that each request repeats the previous
// one's bytes up to its last breakpoint, and the cached tokens the server reports reach --output json, the cost and
// the session's summary.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionDir } from '../../src/session/session-list.js';
import { listSessions } from '../../src/session/session-sidecar.js';
import { type KeelRun, makeWorkspace, runKeel } from '../support/cli.js';
import { type ModelServer, type ScriptStep, startModelServer } from '../support/model-server.js';

const turns = 20;
/** Turn 1 writes the prefix to the cache; every later turn reads what the one before wrote and writes its growth. */
const script: ScriptStep[] = Array.from({ length: turns }, (_, i) => ({
  ...(i < turns - 1
    ? { toolCalls: [{ name: 'read_file', args: { path: `notes-${i % 3}.txt` } }] }
    : { text: 'done' }),
  usage:
    i === 0
      ? { input: 3000, output: 20, cacheRead: 0, cacheWrite: 2900 }
      : { input: 3000 + 100 * i, output: 20, cacheRead: 2900 + 100 * (i - 1), cacheWrite: 100 },
}));

let s: ModelServer;
let run: KeelRun;
let data: string;
let ws: string;
// One run for the whole file: each test reads a different side of it.
beforeAll(async () => {
  s = await startModelServer({ script });
  ws = await makeWorkspace({ 'notes-0.txt': 'a\n', 'notes-1.txt': 'b\n', 'notes-2.txt': 'c\n' });
  data = await mkdtemp(join(tmpdir(), 'keel-cache-data-'));
  run = await runKeel(
    [
      'run',
      '--provider',
      'anthropic',
      '--base-url',
      s.anthropicUrl,
      '--model',
      'claude-sonnet-4-5',
      '--cwd',
      ws,
      '--max-turns',
      '30',
      '--output',
      'json',
      '--prompt',
      'Read the notes files one after another.',
    ],
    { env: { ANTHROPIC_API_KEY: 'sk-scripted-test', XDG_DATA_HOME: data } },
  );
}, 60_000);
afterAll(async () => {
  await s.close();
  await rm(ws, { recursive: true, force: true });
  await rm(data, { recursive: true, force: true });
});

/**
 * A request in Anthropic's cache order (tools, then system, then messages), made of its own bytes: the SDK writes the
 * body as JSON.stringify of these keys, so re-serialising each parsed part gives back exactly the bytes sent.
 */
function inCacheOrder(raw: string): string {
  const body = JSON.parse(raw);
  expect(JSON.stringify(body)).toBe(raw);
  return JSON.stringify(body.tools) + JSON.stringify(body.system) + JSON.stringify(body.messages);
}

const marker = ',"cache_control":{"type":"ephemeral"}';

describe('prompt caching on Anthropic', () => {
  it('marks the last tool, the system prompt and the last message of every request', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(s.requests).toHaveLength(turns);
    for (const request of s.requests) {
      const { body } = request;
      expect(request.rawBody.split(marker)).toHaveLength(4);
      expect(body.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });
      expect(body.system.at(-1).cache_control).toEqual({ type: 'ephemeral' });
      expect(body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: 'ephemeral' });
    }
  });

  it('repeats the previous request byte for byte up to its last breakpoint', () => {
    for (let i = 1; i < s.requests.length; i++) {
      // The marker itself is not part of the cached prefix: on the last message it moves forward every turn.
      const previous = inCacheOrder(s.requests[i - 1]!.rawBody);
      const prefix = previous.slice(0, previous.lastIndexOf(marker));
      // The prefix reaches into the previous request's last message, not just its tools and system prompt.
      const lastText = JSON.stringify(s.requests[i - 1]!.body.messages.at(-1).content.at(-1)).slice(0, 20);
      expect(prefix).toContain(lastText.slice(1));
      const next = inCacheOrder(s.requests[i]!.rawBody);
      expect(next.startsWith(prefix), `request ${i + 1} rewrote the cached prefix`).toBe(true);
    }
  });

  it('reports cached tokens in --output json and prices them at the cache rates', () => {
    const out = JSON.parse(run.stdout);
    const read = script.reduce(
      (sum, step) => sum + ((step as { usage: { cacheRead: number } }).usage.cacheRead ?? 0),
      0,
    );
    const input = script.reduce((sum, step) => sum + (step as { usage: { input: number } }).usage.input, 0);
    const write = 2900 + 100 * (turns - 1);
    expect(out.usage).toMatchObject({
      input_tokens: input,
      cache_read_tokens: read,
      cache_write_tokens: write,
    });
    // claude-sonnet-4-5: $3 input, $0.30 cache read, $3.75 cache write, $15 output per million tokens.
    const expected = ((input - read - write) * 3 + read * 0.3 + write * 3.75 + 20 * turns * 15) / 1e6;
    expect(out.usage.cost_usd).toBeCloseTo(expected, 9);
  });

  it('keeps model turns and cached tokens in the session summary', async () => {
    const [session] = await listSessions(sessionDir(join(data, 'keel'), await realpath(ws)));
    expect(session).toMatchObject({
      turns,
      cache_read_tokens: JSON.parse(run.stdout).usage.cache_read_tokens,
    });
  });
});
