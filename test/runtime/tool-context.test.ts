// The one output-cap computation and the tool context built in one place: limits from config, the run's parts,
// and each call's own signal and event sink.
import { describe, expect, test } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import type { AgentEvent } from '../../src/core/events.js';
import { createProcessRunner } from '../../src/exec/process-runner.js';
import { outputCap, toolContexts, toolLimits, turnOutputCap } from '../../src/runtime/tool-context.js';
import { openWorkspace } from '../../src/safety/workspace.js';

describe('outputCap', () => {
  test.each([
    // configured, budget tokens, cap: an eighth of the budget at 4 bytes a token, at least 4 KiB, at most configured
    [1_048_576, 100_000, 50_000],
    [1_048_576, 8_000, 4_096],
    [1_048_576, 0, 4_096],
    [10_000, 100_000, 10_000],
    [1_048_576, 10_000_000, 1_048_576],
    [2_000, 1_000, 2_000],
  ])('max %i bytes with a %i-token budget reads at most %i bytes', (configured, budget, cap) => {
    expect(outputCap(configured, budget)).toBe(cap);
  });
});

describe('turnOutputCap', () => {
  test.each([
    // result cap, budget tokens, turn cap: a quarter of the budget at 4 bytes a token, at least one result's cap
    [50_000, 100_000, 100_000],
    [4_096, 6_000, 6_000],
    [4_096, 2_000, 4_096],
    [2_000, 100_000, 100_000],
  ])(
    'results capped at %i bytes with a %i-token budget read at most %i bytes a turn',
    (cap, budget, turn) => {
      expect(turnOutputCap(cap, budget)).toBe(turn);
    },
  );
});

describe('toolLimits', () => {
  test('takes the file, command, output and diagnostics limits from config, the output capped by the budget', () => {
    const config = configSchema.parse({
      agent: { tools: { max_file_read_size: 123 }, terminal: { timeout_seconds: 7, max_stdout_bytes: 9 } },
      code: { diagnostics_timeout_seconds: 8 },
    });
    expect(toolLimits(config, 100_000)).toEqual({
      maxOutputSize: 50_000,
      maxTurnOutputSize: 100_000,
      maxFileReadSize: 123,
      commandTimeoutMs: 7000,
      maxStdoutBytes: 9,
      maxStderrBytes: config.agent.terminal.max_stderr_bytes,
      diagnosticsMs: 8000,
    });
  });
});

describe('toolContexts', () => {
  test("gives each call the run's parts with its own signal, and a held-back call its own sink", async () => {
    const workspace = await openWorkspace(process.cwd());
    const runEvents: AgentEvent[] = [];
    const held: AgentEvent[] = [];
    const contextFor = toolContexts({
      workspace,
      runner: createProcessRunner({}),
      limits: toolLimits(configSchema.parse({}), 100_000),
      emit: (event) => runEvents.push(event),
      stateDir: '/state',
    });
    const signal = new AbortController().signal;
    const plain = contextFor(signal);
    expect(plain).toMatchObject({ workspace, signal, stateDir: '/state' });
    expect(plain).not.toHaveProperty('policy');
    plain.emit({ type: 'warning', message: 'run' });
    contextFor(signal, (event) => held.push(event)).emit({ type: 'warning', message: 'held' });
    expect(runEvents).toEqual([{ type: 'warning', message: 'run' }]);
    expect(held).toEqual([{ type: 'warning', message: 'held' }]);
  });
});
