// In-process command runs: a CommandOutput that keeps what a command prints, and a temp home on process.env
// (Keel's dirs, no provider variables, no keyring) for each test of a file, restored after it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { CommandOutput } from '../../src/ui/command-output.js';
import { clearedEnv } from './cli.js';
import { homeEnv } from './e2e.js';

/** What a command printed: `out` its stdout, `err` its stderr. */
export function captureOutput(): CommandOutput & { out: string; err: string } {
  const captured = {
    out: '',
    err: '',
    print(text: string) {
      captured.out += text;
    },
    notice(text: string) {
      captured.err += text;
    },
  };
  return captured;
}

/**
 * Call at file level: before each test process.env gets a fresh temp home (homeEnv), no provider variables and
 * no checkpoints, as runKeel gives the binary; after it the environment is restored and the home removed.
 * Returns the current home.
 */
export function useTempHome(): () => string {
  const saved = { ...process.env };
  let home = '';
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'keel-home-'));
    const env: NodeJS.ProcessEnv = { ...saved, ...homeEnv(home), NO_COLOR: '1', KEEL_CHECKPOINTS: 'off' };
    for (const name of clearedEnv) if (name !== 'KEEL_CHECKPOINTS') delete env[name];
    process.env = env;
  });
  afterEach(async () => {
    process.env = { ...saved };
    await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });
  return () => home;
}
