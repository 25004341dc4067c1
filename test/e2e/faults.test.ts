// keel run against provider faults — rate limits, server errors, resets, stalls, broken streams, bad keys: the
// command line in process (test/support/cli-in-process.ts), and the built binary once, for Ctrl-C during a backoff.
import { describe, expect, it } from 'vitest';
import { runKeel } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';
import { toolMessages, useE2E, wireProviders } from '../support/e2e.js';
import type { ModelServer } from '../support/model-server.js';

const { server, workspace } = useE2E();

/** keel run against the openai-compatible endpoint of s, with the backoff shortened by the test hook. */
async function run(s: ModelServer, ws: string, extra: string[] = [], env: Record<string, string> = {}) {
  return runCli(
    [
      'run',
      '--provider',
      'openai-compatible',
      '--base-url',
      s.openaiUrl,
      '--model',
      'm',
      '--cwd',
      ws,
      ...extra,
    ],
    { env: { KEEL_RETRY_BASE_MS: '5', ...env } },
  );
}

describe('keel run recovers from provider faults', () => {
  // Retry-After in seconds (and as a date) is read by the unit tables in test/providers/retry.test.ts; here the
  // server's ask in milliseconds, far from the 5 ms backoff, so the wait shown can only be the server's.
  it('waits out a 429 as Retry-After asks, says so on stderr, and finishes (exit 0)', async () => {
    const s = await server([{ status: 429, headers: { 'retry-after-ms': '200' } }, { text: 'all good' }]);
    const ws = await workspace();
    const r = await run(s, ws, ['--prompt', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('all good');
    expect(r.stderr).toContain('rate limited (HTTP 429), retrying in 0.2 s (1/3)');
    expect(s.requests).toHaveLength(2);
  });

  it('retries a reset stream without doubling the streamed text', async () => {
    const s = await server([{ text: 'The answer is', reset: true }, { text: 'The answer is 42.' }]);
    const ws = await workspace();
    const r = await run(s, ws, ['--prompt', 'hi', '--output', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).answer).toBe('The answer is 42.');
  });

  it('turns malformed tool-call JSON into an error result the model recovers from', async () => {
    const s = await server([
      { toolCalls: [{ name: 'read_file', args: {}, rawArgs: '{"path": "a.txt"' }] },
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'a.txt says hello' },
    ]);
    const ws = await workspace({ 'a.txt': 'hello\n' });
    const r = await run(s, ws, ['--prompt', 'read a.txt']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('a.txt says hello');
    expect(toolMessages(s.requests[1]!.body)[0]).toMatch(/json|argument/i);
    expect(s.requests).toHaveLength(3);
  });
});

// Every wire format's broken streams (ended early, garbled) are retried in test/providers/retry.test.ts, through each
// real provider; each provider is driven through the binary in providers.test.ts. Here, once, the command's path: a
// provider that needs a key, the retry said on stderr, the answer not doubled.
describe('keel run retries a broken stream', () => {
  const anthropic = wireProviders.find((p) => p.provider === 'anthropic')!;

  it('asks again when the stream ends before its finish, and answers (exit 0)', async () => {
    const s = await server([{ text: 'The answer is', truncate: true }, { text: 'The answer is 42.' }]);
    const ws = await workspace();
    const r = await runCli(
      [
        'run',
        '--provider',
        'anthropic',
        '--base-url',
        s[anthropic.url],
        '--model',
        'test-model',
        '--cwd',
        ws,
        '-p',
        'hi',
      ],
      { env: { [anthropic.envVar!]: 'sk-scripted-test', KEEL_RETRY_BASE_MS: '5' } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('The answer is 42.');
    expect(r.stderr).toContain('response stream ended before its finish, retrying in');
    expect(s.requests).toHaveLength(2);
  });
});

describe('keel run fails clearly on faults it cannot recover from', () => {
  // Each stall waits out a whole idle timeout (at least 1 s in config), so one run shows both: the stalled stream
  // aborted after provider.idle_timeout_seconds and retried, and the run failing at the second stall. A stalled
  // stream retried and then answered is test/providers/retry.test.ts's, over the real providers.
  it('aborts a stalled stream after provider.idle_timeout_seconds, retries it once, and exits 1 at the second stall, even with more retries allowed', async () => {
    const s = await server([{ text: 'hmm', stall: true }, { stall: true }, { text: 'must not be asked' }]);
    const ws = await workspace({ '.keel.yaml': 'provider:\n  idle_timeout_seconds: 1\n  retries: 5\n' });
    const r = await run(s, ws, ['--prompt', 'hi']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /no data for 1 s \(a silent stream is retried once\), retrying in [\d.]+ s \(1\/5\)/,
    );
    expect(r.stdout).not.toContain('hmm');
    expect(r.stderr).toMatch(
      /error: no data from openai-compatible for 1 s; the response stream stalled \(after 1 retry\)/,
    );
    // The retry may be cut off before the server has read its body (a busy machine): never a third request.
    expect(s.requests.length).toBeLessThanOrEqual(2);
  });

  it('exits 1 naming the broken stream once provider.retries are used up', async () => {
    const s = await server([{ truncate: true }, { truncate: true }, { text: 'must not be asked' }]);
    const ws = await workspace({ '.keel.yaml': 'provider:\n  retries: 1\n' });
    const r = await run(s, ws, ['--prompt', 'hi']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /error: .*sent a broken response: response stream ended before its finish \(after 1 retry\)/,
    );
    expect(s.requests).toHaveLength(2);
  });

  it('exits 3 at once on rejected credentials (HTTP 401), naming the fix', async () => {
    const s = await server([{ status: 401 }, { text: 'must not be asked' }]);
    const ws = await workspace();
    const r = await run(s, ws, ['--prompt', 'hi']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('credentials rejected by openai-compatible (HTTP 401)');
    expect(r.stderr).toContain('OPENAI_API_KEY');
    expect(r.stderr).not.toContain('retrying');
    expect(s.requests).toHaveLength(1);
  });

  it('exits 1 with the last error once provider.retries are used up', async () => {
    const s = await server([{ status: 503 }, { status: 503 }, { status: 503 }]);
    const ws = await workspace({ '.keel.yaml': 'provider:\n  retries: 2\n' });
    const r = await run(s, ws, ['--prompt', 'hi']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('retrying in');
    expect(r.stderr).toMatch(/error: .*HTTP 503.*\(after 2 retries\)/);
    expect(s.requests).toHaveLength(3);
  });

  it('stops at once with exit 130 on Ctrl-C during a backoff', async () => {
    const s = await server([{ status: 500 }, { text: 'must not be asked' }]);
    const ws = await workspace();
    const r = await runKeel(
      ['run', '--provider', 'openai-compatible', '--base-url', s.openaiUrl, '--cwd', ws, '--prompt', 'hi'],
      {
        env: { KEEL_RETRY_BASE_MS: '600000' },
        onSpawn: (child) => {
          let stderr = '';
          const onData = (chunk: Buffer) => {
            stderr += chunk.toString();
            if (!stderr.includes('retrying in')) return;
            child.stderr?.off('data', onData);
            child.kill('SIGINT');
          };
          child.stderr?.on('data', onData);
        },
      },
    );
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/interrupted/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(s.requests).toHaveLength(1);
  });
});
