// How command results read for the model, shared by execute_command, command_output and kill_command.
import type { BackgroundStatus, CapturedOutput, Leftovers } from '../core/runner.js';

const processes = (n: number): string => (n === 1 ? '1 process' : `${n} processes`);
const were = (n: number): string => (n === 1 ? 'was' : 'were');

/** A stream's text without its last newline, with a note of the bytes not kept (before its tail, if kept). */
export function shownOutput(output: CapturedOutput, dropped: (n: number) => string): string {
  if (output.dropped > 0 && output.tail !== undefined) {
    const head = output.text.endsWith('\n') ? output.text : `${output.text}\n`;
    return `${head}[${dropped(output.dropped)}]\n${output.tail.replace(/\n$/, '')}`;
  }
  const text = output.text.replace(/\n$/, '');
  return output.dropped > 0 ? `${text}\n[${dropped(output.dropped)}]` : text;
}

/** `stdout:` and `stderr:` sections, each only when not empty. */
export function outputSections(
  stdout: CapturedOutput,
  stderr: CapturedOutput,
  dropped: (n: number) => string,
): string[] {
  const parts: string[] = [];
  const out = shownOutput(stdout, dropped);
  const err = shownOutput(stderr, dropped);
  if (out) parts.push(`stdout:\n${out}`);
  if (err) parts.push(`stderr:\n${err}`);
  return parts;
}

/**
 * What a command printed, read back from its result's text: the `stdout:`/`stderr:` sections without the lines
 * before them (the exit code, notes), stdout unlabelled when alone; empty when it printed nothing.
 */
export function printedOutput(output: string): string {
  const lines = output.replace(/\n+$/, '').split('\n');
  const first = lines.findIndex((line) => line === 'stdout:' || line === 'stderr:');
  if (first === -1) return '';
  const body = lines.slice(first);
  return body[0] === 'stdout:' && !body.includes('stderr:') ? body.slice(1).join('\n') : body.join('\n');
}

/** What Keel did about processes a command left running; empty when there were none (never claimed). */
export function leftoversNote(leftovers: Leftovers): string[] {
  const notes: string[] = [];
  if (leftovers.killed > 0) {
    const n = leftovers.killed;
    notes.push(`[${processes(n)} the command left running in the background ${were(n)} stopped]`);
  }
  if (leftovers.survived > 0) {
    notes.push(`[${processes(leftovers.survived)} the command left running could not be stopped]`);
  }
  return notes;
}

/** `running`, or `exited with code 0`, `killed by SIGTERM`, `killed by kill_command`. */
export function statusText(status: BackgroundStatus): string {
  if (status.state === 'running') return 'running';
  if (status.killed) return 'killed by kill_command';
  return status.signal ? `killed by ${status.signal}` : `exited with code ${status.exitCode ?? -1}`;
}
