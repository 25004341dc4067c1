// The process sweep with real processes: what it waits on before it counts a command's processes as gone.
import { spawn } from 'node:child_process';
import { closeSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { findProcesses, killTree, openFdMarker, startTimeOf } from '../../src/exec/process-tree.js';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A sleep with an empty environment holding `fd` at 3, once it has exec'd. */
async function sleeperHolding(fd: number) {
  const sleeper = spawn('/bin/sleep', ['30'], { env: {}, stdio: ['ignore', 'ignore', 'ignore', fd] });
  const pid = sleeper.pid!;
  for (const end = Date.now() + 10_000; Date.now() < end; ) {
    if (readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith('/bin/sleep')) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { sleeper, pid };
}

test("a program without the marker variable is the command's when it holds the command's marker descriptor", async () => {
  const own = openFdMarker('keel-test-7-1')!;
  const other = openFdMarker('keel-test-7-12')!;
  const { sleeper, pid } = await sleeperHolding(own.fd);
  const { sleeper: stranger, pid: strangerPid } = await sleeperHolding(other.fd);
  closeSync(own.fd);
  closeSync(other.fd);
  try {
    const since = startTimeOf(pid);
    // Another command's descriptor (`-12-` starts like `-1`) does not count.
    expect(findProcesses({ marker: 'keel-test-7-1', since, fdLink: own.link }).marked).toEqual([pid]);
    expect(killTree({ marker: 'keel-test-7-1', since, fdLink: own.link })).toMatchObject({
      killed: 1,
      survived: 0,
    });
    expect(alive(strangerPid)).toBe(true);
  } finally {
    sleeper.kill('SIGKILL');
    stranger.kill('SIGKILL');
  }
});

test('a program started with an empty environment meanwhile is looked at a few rounds, then left alone', async () => {
  // As a user's `env -i …` would be: younger than the command, and its environment stays empty.
  const sleeper = spawn('/bin/sleep', ['30'], { env: {}, stdio: 'ignore' });
  const pid = sleeper.pid!;
  try {
    for (let i = 0; i < 200 && !readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith('/bin/sleep'); i++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(readFileSync(`/proc/${pid}/environ`).length).toBe(0);
    const swept = killTree({ marker: 'keel-test-no-such-command', since: startTimeOf(pid) });
    expect(swept).toMatchObject({ killed: 0, survived: 0 });
    // Five rounds unsure, then one that finds nothing left to look at (twelve before: about 0.7 s); a process
    // another test starts meanwhile (go vet's compilers) may be unsure for a round or two more.
    expect(swept.rounds).toBeLessThanOrEqual(8);
    expect(alive(pid)).toBe(true);
  } finally {
    sleeper.kill('SIGKILL');
  }
});
