// In-process runs of what the CLI runs: a captured CommandOutput, and process.env pointed at a temp home for a test.
import { afterEach, beforeEach } from 'vitest';
import type { CommandOutput } from '../../src/ui/command-output.js';
import { homeEnv } from './e2e.js';

/** A CommandOutput that keeps what a command printed: `out` its stdout, `err` its stderr. */
export function captureOutput(): CommandOutput & { out: string; err: string } {
  const c = {
    out: '',
    err: '',
    print(text: string) {
      c.out += text;
    },
    notice(text: string) {
      c.err += text;
    },
  };
  return c;
}

/**
 * Call at file or describe level: before each test, process.env gets Keel's dirs under the home `home()` returns
 * (plus `extra`), and after it the environment is put back as it was.
 */
export function useHomeEnv(home: () => string, extra: Record<string, string> = {}): void {
  let saved: NodeJS.ProcessEnv = {};
  beforeEach(() => {
    saved = { ...process.env };
    Object.assign(process.env, homeEnv(home()), extra);
  });
  afterEach(() => {
    process.env = saved;
  });
}
