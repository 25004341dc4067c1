// Finding real processes in tests: a unique sleep argument marks the ones a test started.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** A sleep duration no other process uses, so `ps` finds exactly the sleeps a test started. */
export const uniqueDuration = (): string => `300.${process.pid}${Math.floor(Math.random() * 1e6)}`;

/** Live processes whose command line contains `text` (zombies show no arguments, so they never match). */
export function processesWith(text: string): string[] {
  const out = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(text) && !line.includes('ps -eo'));
}

/** Sends SIGTERM to the live processes whose command line contains `text` (a marker only this test's processes hold). */
export function stopProcessesWith(text: string): void {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  for (const line of out.split('\n')) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!match || !match[2]!.includes(text) || match[2]!.includes('ps -eo')) continue;
    try {
      process.kill(Number(match[1]), 'SIGTERM');
    } catch {
      // Gone already.
    }
  }
}

/**
 * Like processesWith, read from /proc in this process: no `ps` spawned, so a test may poll it often. Each live
 * process's command line, its arguments joined by spaces (a zombie's is empty, so it never matches).
 */
export function procCommandsWith(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (args.includes(text)) found.push(args);
    } catch {
      // Gone already.
    }
  }
  return found;
}
