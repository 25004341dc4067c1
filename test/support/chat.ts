// Drives `keel chat` step by step like a person at the keyboard, and counts the approval questions it asked.
import type { KeelRunOptions } from './cli.js';

export interface ChatStep {
  /** Wait until the output so far satisfies this; absent: act at once. */
  until?: (output: { stdout: string; stderr: string }) => boolean;
  send?: string;
  signal?: NodeJS.Signals;
  end?: boolean;
}

/** Drives `keel chat` like a person at the keyboard: each step waits for the output it names, then acts. */
export function converse(steps: ChatStep[]): KeelRunOptions['onSpawn'] {
  return (child) => {
    const output = { stdout: '', stderr: '' };
    let next = 0;
    const advance = () => {
      for (let step = steps[next]; step && (step.until?.(output) ?? true); step = steps[++next]) {
        if (step.send !== undefined) child.stdin!.write(step.send);
        if (step.signal) child.kill(step.signal);
        if (step.end) child.stdin!.end();
      }
    };
    child.stdout!.on('data', (chunk) => {
      output.stdout += chunk;
      advance();
    });
    child.stderr!.on('data', (chunk) => {
      output.stderr += chunk;
      advance();
    });
    advance();
  };
}

/** How many approval questions the output shows. */
export const questions = (output: { stderr: string }) => output.stderr.split('/N] ').length - 1;
