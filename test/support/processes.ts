// Finding real processes in tests: a unique sleep argument marks the ones a test started. Read from /proc in the
// test's process, where there is one; `ps` (a process per look) elsewhere.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const hasProc = existsSync('/proc/self/cmdline');

/** Each live process's pid and command line (arguments joined by spaces; a zombie's is empty). */
function processes(): { pid: number; args: string }[] {
  if (!hasProc) {
    const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
    return out
      .split('\n')
      .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
      .filter((m) => m !== null && !m[2]!.includes('ps -eo'))
      .map((m) => ({ pid: Number(m![1]), args: m![2]! }));
  }
  const found: { pid: number; args: string }[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      found.push({
        pid: Number(pid),
        args: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim(),
      });
    } catch {
      // Gone already.
    }
  }
  return found;
}

/** A sleep duration no other process uses, so `ps` finds exactly the sleeps a test started. */
export const uniqueDuration = (): string => `300.${process.pid}${Math.floor(Math.random() * 1e6)}`;

/**
 * Live processes whose command line contains `text` (zombies show no arguments, so they never match), or, with
 * `exact`, is `text`: the program itself, once the shell that runs it has exec'd it.
 */
export function processesWith(text: string, exact = false): string[] {
  return processes()
    .map((p) => p.args)
    .filter((args) => (exact ? args === text : args.includes(text)));
}

/**
 * Sends SIGTERM to the live processes whose command line contains `text` (a marker only this test's processes hold),
 * or, with `exact`, is `text`: the program itself, not the shell or sandbox that runs it.
 */
export function stopProcessesWith(text: string, exact = false): void {
  for (const p of processes()) {
    if (exact ? p.args !== text : !p.args.includes(text)) continue;
    try {
      process.kill(p.pid, 'SIGTERM');
    } catch {
      // Gone already.
    }
  }
}

/**
 * Whether the process has ended: none has this pid, or it is a zombie. A child of a process that has exited is
 * reparented to init, which may reap it only seconds later; it is dead (holds nothing but its pid) all the same.
 */
export function hasEnded(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  if (!hasProc) return false;
  try {
    // The state follows the parenthesised command name, which may itself hold spaces or parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}
