// Tests for execute_command with real bash: output, exit codes, timeouts, caps, abort and the environment.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { executeCommandTool } from '../../src/tools/execute-command.js';
import type { ToolLimits, ToolResult } from '../../src/tools/tool.js';
import { processesWith } from '../support/processes.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

let ws: TestWorkspace | undefined;

afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

async function run(
  args: { command: string; timeout_seconds?: number },
  options: { limits?: Partial<ToolLimits>; signal?: AbortSignal } = {},
): Promise<ToolResult> {
  ws = await makeWorkspace(options);
  return executeCommandTool.execute(args, ws.ctx);
}

/** A sleep duration no other process uses, so `ps` finds exactly the sleeps a test started. */
const uniqueDuration = (): string => `30.${process.pid}${Math.floor(Math.random() * 1e6)}`;

describe('execute_command', () => {
  test('captures stdout and stderr, running in the workspace root', async () => {
    const result = await run({ command: 'pwd; echo oops >&2' });
    expect(result.success).toBe(true);
    expect(result.output).toBe(`exit code: 0\nstdout:\n${ws?.root}\nstderr:\noops`);
    expect(result.metadata.exit_code).toBe(0);
  });

  test('a non-zero exit is a failure that still shows the output', async () => {
    const result = await run({ command: 'echo partial; exit 3' });
    expect(result.success).toBe(false);
    expect(result.error).toBe('command exited with code 3');
    expect(result.output).toContain('exit code: 3\nstdout:\npartial');
  });

  test('a timeout kills the whole process group, background children included', async () => {
    const duration = uniqueDuration();
    const result = await run({
      command: `sleep ${duration} & sleep ${duration}; wait`,
      timeout_seconds: 0.5,
    });
    expect(result.success).toBe(false);
    expect(result.error).toContain('timed out after 0.5s');
    expect(processesWith(`sleep ${duration}`)).toEqual([]);
  });

  test('caps stdout and stderr while reading, keeping the head and the tail of each', async () => {
    const result = await run(
      {
        command:
          'head -c 100000 /dev/zero | tr "\\0" a; echo; echo FAILED: 3 tests; head -c 5000 /dev/zero | tr "\\0" b >&2',
      },
      { limits: { maxStdoutBytes: 1000, maxStderrBytes: 100 } },
    );
    // The verdict a build or a test run prints last is kept, however much came before it.
    expect(result.output).toContain(
      `stdout:\n${'a'.repeat(500)}\n[99017 bytes in between not shown]\n${'a'.repeat(483)}\nFAILED: 3 tests\n`,
    );
    expect(result.output).toContain(
      `stderr:\n${'b'.repeat(50)}\n[4900 bytes in between not shown]\n${'b'.repeat(50)}`,
    );
    expect(result.truncated).toBe(true);
    expect(result.metadata.stdout_dropped).toBe(99017);
  });

  test('commands get only the allowlisted environment: API keys and other variables stay in Keel', async () => {
    process.env.OPENAI_API_KEY = 'sk-very-secret';
    process.env.MY_SECRET_X = 'hunter2';
    process.env.AWS_SECRET_ACCESS_KEY = 'aws-secret';
    process.env.KEEL_TEST_PLAIN = 'not-allowlisted';
    try {
      const result = await run({ command: 'env' });
      expect(result.success).toBe(true);
      for (const value of ['sk-very-secret', 'hunter2', 'aws-secret', 'not-allowlisted']) {
        expect(result.output).not.toContain(value);
      }
      expect(result.output).toContain(`HOME=${process.env.HOME}`);
      expect(result.output).toContain('PATH=');
    } finally {
      delete process.env.OPENAI_API_KEY;
      delete process.env.MY_SECRET_X;
      delete process.env.AWS_SECRET_ACCESS_KEY;
      delete process.env.KEEL_TEST_PLAIN;
    }
  });

  test('an abort signal stops the running command, killing it, and reports the abort', async () => {
    const controller = new AbortController();
    const duration = uniqueDuration();
    const running = run({ command: `sleep ${duration}` }, { signal: controller.signal });
    // Aborted once the command is running, not after a guessed delay.
    await vi.waitFor(() => expect(processesWith(`sleep ${duration}`)).not.toEqual([]), { timeout: 20_000 });
    controller.abort();
    const result = await running;
    expect(result.success).toBe(false);
    expect(result.error).toContain('aborted');
    expect(processesWith(`sleep ${duration}`)).toEqual([]);
  });

  test('background children left holding the output are stopped after bash exits', async () => {
    const duration = uniqueDuration();
    const result = await run({ command: `sleep ${duration} & echo started` });
    expect(result.success).toBe(true);
    expect(result.output).toContain('[1 process the command left running in the background was stopped]');
    expect(result.output).toContain('started');
    expect(processesWith(`sleep ${duration}`)).toEqual([]);
  });
});
