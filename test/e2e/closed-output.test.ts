// End to end: when the reader of keel's stdout goes away (`keel … | head -1`), keel stops quietly with exit 0.
import { describe, expect, it } from 'vitest';
import { type KeelRunOptions, runKeel } from '../support/cli.js';
import { useE2E } from '../support/e2e.js';
import { processesWith } from '../support/processes.js';

const { server, workspace } = useE2E();

/** Like `| head -1`: reads stdout until the first line, then closes the pipe; `closed` resolves then. */
function headOne(extra?: KeelRunOptions['onSpawn']) {
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const onSpawn: KeelRunOptions['onSpawn'] = (child) => {
    let seen = '';
    const onData = (chunk: Buffer | string) => {
      seen += chunk;
      if (!seen.includes('\n')) return;
      child.stdout!.off('data', onData);
      child.stdout!.destroy();
      markClosed();
    };
    child.stdout!.on('data', onData);
    extra?.(child);
  };
  return { onSpawn, closed };
}

/** A sleep duration no other process uses, so `ps` finds exactly the sleeps this test started. */
const uniqueDuration = (): string => `30.${process.pid}${Math.floor(Math.random() * 1e6)}`;

/** The quiet end: exit 0, and stderr holds no EPIPE, no stack trace, no error. */
function expectQuietEnd(r: { code: number | null; stderr: string }) {
  expect(r.stderr).not.toMatch(/EPIPE/);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toMatch(/error/i);
  expect(r.code).toBe(0);
}

describe('a closed stdout', () => {
  it('stops `keel run --output stream-json | head -1` with exit 0 and no stack trace', async () => {
    const ws = await workspace({});
    const sleep = `sleep ${uniqueDuration()}`;
    const head = headOne();
    // The model answers only once the pipe is closed, so the run's next writes find nobody reading.
    const s = await server([
      async () => {
        await head.closed;
        return { text: 'working on it', toolCalls: [{ name: 'execute_command', args: { command: sleep } }] };
      },
      { text: 'never asked for' },
    ]);
    const r = await runKeel(
      [
        'run',
        '--base-url',
        s.ollamaUrl,
        '--cwd',
        ws,
        '--allow-dangerous',
        '--output',
        'stream-json',
        '-p',
        'go',
      ],
      { onSpawn: head.onSpawn },
    );
    expectQuietEnd(r);
    expect(r.stdout.split('\n')[0]).toMatch(/"type":"run_start"/);
    // The run was stopped, not finished: no second turn (the first request may not even have been sent when the
    // write that found the pipe closed was turn_start), and no command left running.
    expect(s.requests.length).toBeLessThanOrEqual(1);
    expect(processesWith(sleep)).toEqual([]);
  });

  it('ends `keel chat` whose output reader went away, though its input is still open', async () => {
    const ws = await workspace({});
    const head = headOne((child) => child.stdin!.write('hello\n'));
    const s = await server([
      async () => {
        await head.closed;
        return { text: 'a long answer' };
      },
    ]);
    const r = await runKeel(['chat', '--base-url', s.ollamaUrl, '--cwd', ws, '--output', 'stream-json'], {
      openStdin: true,
      onSpawn: head.onSpawn,
    });
    expectQuietEnd(r);
  });
});
