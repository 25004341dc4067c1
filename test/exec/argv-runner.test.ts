// A command request with `argv` (config-defined tools): the program runs with exactly these arguments and no shell
// reads them, with the plain process runner and inside the bubblewrap sandbox alike.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CommandRunner } from '../../src/core/runner.js';
import { commandEnv } from '../../src/exec/command-env.js';
import { createProcessRunner } from '../../src/exec/process-runner.js';
import { probeBubblewrap } from '../../src/exec/sandbox-choice.js';
import { createSandboxRunner } from '../../src/exec/sandbox-runner.js';

const unavailable = await probeBubblewrap(false, commandEnv(process.env));
const hostile = ['$(touch pwned)', '`touch pwned2`', '; touch pwned3', 'a\nb', '\'"', '', '*'];

let workspace: string;
beforeAll(async () => {
  workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-argv-')));
});
afterAll(async () => {
  await fs.rm(workspace, { recursive: true, force: true });
});

async function printedArgv(runner: CommandRunner): Promise<unknown> {
  const argv = ['node', '-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', ...hostile];
  try {
    const outcome = await runner.run({
      command: 'shown only',
      argv,
      cwd: workspace,
      timeoutMs: 20_000,
      signal: new AbortController().signal,
      maxStdoutBytes: 65536,
      maxStderrBytes: 65536,
    });
    expect(outcome.stderr.text).toBe('');
    return JSON.parse(outcome.stdout.text);
  } finally {
    runner.killAll();
  }
}

describe('argv requests', () => {
  test('the process runner passes each argument as given', async () => {
    expect(await printedArgv(createProcessRunner(commandEnv(process.env)))).toEqual(hostile);
    expect(await fs.readdir(workspace)).toEqual([]);
  });

  test.skipIf(unavailable !== undefined)('the sandbox runner passes each argument as given', async () => {
    const runner = createSandboxRunner(commandEnv(process.env), {
      workspace,
      home: os.homedir(),
      keelDirs: [],
      network: false,
    });
    expect(await printedArgv(runner)).toEqual(hostile);
    expect(await fs.readdir(workspace)).toEqual([]);
  });
});
