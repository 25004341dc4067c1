// Tests for the command runner's process safety with real processes: nothing a command starts outlives its
// call (setsid, nohup, subshells, double forks, a fan-out, the marker variable dropped: `env -i`, `env -u`, a Node
// program's empty environment), leftovers are reported only when there were some, and killAll ends every command
// of the run, background ones included.
import { readdirSync, readlinkSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import type { CommandOutcome, CommandRunner } from '../../src/core/runner.js';
import { commandEnv } from '../../src/exec/command-env.js';
import { HeadTailBuffer, TailBuffer } from '../../src/exec/output-buffers.js';
import { createProcessRunner } from '../../src/exec/process-runner.js';
import { processesWith, stopProcessesWith, uniqueDuration } from '../support/processes.js';

let runner: CommandRunner;

afterEach(() => {
  runner?.killAll();
});

async function run(command: string): Promise<CommandOutcome> {
  runner = createProcessRunner(commandEnv(process.env));
  return runner.run({
    command,
    cwd: process.cwd(),
    timeoutMs: 20_000,
    signal: new AbortController().signal,
    maxStdoutBytes: 65536,
    maxStderrBytes: 65536,
  });
}

describe('no process outlives its command', () => {
  const escapes: [string, (sleep: string) => string][] = [
    ['setsid (leaves the process group) holding the output', (s) => `setsid ${s} & echo started`],
    ['setsid with its output redirected', (s) => `setsid ${s} >/dev/null 2>&1 & echo started`],
    ['nohup', (s) => `nohup ${s} >/dev/null 2>&1 & echo started`],
    ['a backgrounded subshell', (s) => `(${s} &) ; echo started`],
    [
      'a double-forked daemon in a new session',
      (s) => `setsid sh -c '${s} & exit 0' </dev/null >/dev/null 2>&1 & echo started`,
    ],
    ['disown', (s) => `${s} >/dev/null 2>&1 & disown; echo started`],
    // Without the marker variable: only the inherited marker descriptor is left to find them by. The pause lets
    // them leave the process group before the command ends (else the group's kill would catch them anyway).
    [
      'setsid with an empty environment',
      (s) => `setsid env -i ${s} >/dev/null 2>&1 </dev/null & sleep 0.5; echo started`,
    ],
    [
      'a subshell that drops the marker variable and leaves the session',
      (s) => `(env -u KEEL_RUN_ID setsid ${s} >/dev/null 2>&1 </dev/null &) ; sleep 0.5; echo started`,
    ],
    [
      'a Node program that detaches a child with an empty environment',
      (s) =>
        `node -e 'require("child_process").spawn("setsid", "${s}".split(" "), { env: {}, detached: true, stdio: "ignore" }).unref()'; echo started`,
    ],
  ];
  for (const [name, command] of escapes) {
    test(`${name}: killed after the call and reported`, async () => {
      const sleep = `sleep ${uniqueDuration()}`;
      try {
        const outcome = await run(command(sleep));
        expect(outcome.exitCode).toBe(0);
        expect(outcome.stdout.text).toBe('started\n');
        expect(processesWith(sleep)).toEqual([]);
        expect(outcome.leftovers.killed).toBeGreaterThanOrEqual(1);
        expect(outcome.leftovers.survived).toBe(0);
      } finally {
        stopProcessesWith(sleep);
      }
    });
  }

  test('the marker descriptor is a removed directory: nothing to read, write or create, and Keel keeps no copy', async () => {
    const before = markerLinksOf(process.pid);
    const outcome = await run(
      'readlink /proc/$$/fd/63; echo x >&63 || echo no-write; cat <&63 || echo no-read; readlink /proc/$$/fd/0',
    );
    const lines = outcome.stdout.text.split('\n');
    expect(lines[0]).toMatch(/\/keel-[0-9a-f]+-1-[^/]+ \(deleted\)$/);
    expect(lines.slice(1)).toEqual(['no-write', 'no-read', '/dev/null', '']);
    expect(markerLinksOf(process.pid)).toEqual(before);
  });

  test('a bounded fan-out of detached children, each forking again, is killed entirely', async () => {
    const sleep = `sleep ${uniqueDuration()}`;
    const outcome = await run(
      `for i in 1 2 3 4 5 6 7 8; do setsid sh -c '${sleep} & ${sleep} & wait' >/dev/null 2>&1 & done; echo started`,
    );
    expect(outcome.stdout.text).toBe('started\n');
    expect(processesWith(sleep)).toEqual([]);
    // 8 shells and 16 sleeps, give or take the shells that had not forked yet.
    expect(outcome.leftovers.killed).toBeGreaterThanOrEqual(8);
  });

  test('a command that leaves nothing running reports no leftovers', async () => {
    const outcome = await run('sleep 0.01 & wait; echo done | cat');
    expect(outcome.stdout.text).toBe('done\n');
    expect(outcome.leftovers).toEqual({ killed: 0, survived: 0 });
  });

  test('a timeout kills processes that left the process group too', async () => {
    const sleep = `sleep ${uniqueDuration()}`;
    runner = createProcessRunner(commandEnv(process.env));
    const outcome = await runner.run({
      command: `setsid ${sleep} & ${sleep}`,
      cwd: process.cwd(),
      timeoutMs: 300,
      signal: new AbortController().signal,
      maxStdoutBytes: 1024,
      maxStderrBytes: 1024,
    });
    expect(outcome.stopped).toBe('timeout');
    expect(processesWith(sleep)).toEqual([]);
  });
});

describe('background commands', () => {
  const start = (command: string) =>
    runner.start({ command, cwd: process.cwd(), maxStdoutBytes: 1000, maxStderrBytes: 1000 });

  test('keep running after start, give new output on each read, and end with kill', async () => {
    runner = createProcessRunner(commandEnv(process.env));
    const sleep = `sleep ${uniqueDuration()}`;
    const command = start(`echo first; read -t 0.2 < /dev/zero; echo second; ${sleep}`);
    expect(command.id).toBe('bg1');
    let seen = '';
    while (!seen.includes('second')) {
      await command.settle(50);
      seen += command.read().stdout.text;
    }
    expect(seen).toBe('first\nsecond\n');
    expect(command.read()).toMatchObject({ stdout: { text: '' }, status: { state: 'running' } });
    // The shell forks sleep after it echoes: on a busy machine that can come a moment after "second" is read.
    for (let waited = 0; processesWith(sleep).length === 0 && waited < 2000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(processesWith(sleep)).toHaveLength(1);
    const status = await command.kill();
    expect(status).toMatchObject({ state: 'exited', killed: true });
    expect(processesWith(sleep)).toEqual([]);
    expect(runner.running()).toEqual([]);
  });

  test('keep only the last bytes of unread output and count the rest', async () => {
    runner = createProcessRunner(commandEnv(process.env));
    const command = start('head -c 5000 /dev/zero | tr "\\0" a; echo END');
    await command.settle(10_000);
    const { stdout, status } = command.read();
    expect(status).toMatchObject({ state: 'exited', exitCode: 0 });
    expect(stdout.text).toBe(`${'a'.repeat(996)}END\n`);
    expect(stdout.dropped).toBe(4004);
    expect(command.read().stdout).toEqual({ text: '', dropped: 0 });
  });

  test('killAll ends background commands and what they detached', async () => {
    runner = createProcessRunner(commandEnv(process.env));
    const sleep = `sleep ${uniqueDuration()}`;
    const command = start(`setsid ${sleep} >/dev/null 2>&1 & nohup ${sleep} >/dev/null 2>&1 & ${sleep}`);
    while (processesWith(sleep).length < 3) await command.settle(20);
    expect(runner.killAll()).toBeGreaterThanOrEqual(3);
    expect(processesWith(sleep)).toEqual([]);
    await command.settle(10_000);
    expect(command.read().status.state).toBe('exited');
  });

  test('kill ends what its command detached without the marker variable, and only that; killAll the rest', async () => {
    runner = createProcessRunner(commandEnv(process.env));
    const detach = (s: string) =>
      `setsid env -i ${s} >/dev/null 2>&1 </dev/null & (env -u KEEL_RUN_ID setsid ${s} >/dev/null 2>&1 </dev/null &); ${s}`;
    const first = `sleep ${uniqueDuration()}`;
    const second = `sleep ${uniqueDuration()}`;
    try {
      const one = start(detach(first));
      const two = start(detach(second));
      // Counted once each has exec'd sleep (env's own command line names the sleep too).
      const started = () => processesWith(first, true).length >= 3 && processesWith(second, true).length >= 3;
      for (const end = Date.now() + 20_000; !started() && Date.now() < end; ) await one.settle(20);
      expect(processesWith(first, true)).toHaveLength(3);
      expect(processesWith(second, true)).toHaveLength(3);
      await one.kill();
      expect(processesWith(first)).toEqual([]);
      expect(processesWith(second, true)).toHaveLength(3);
      runner.killAll();
      expect(processesWith(second)).toEqual([]);
      await two.settle(10_000);
      expect(two.read().status.state).toBe('exited');
    } finally {
      stopProcessesWith(first);
      stopProcessesWith(second);
    }
  });

  test('a background command that exits leaves nothing behind either', async () => {
    runner = createProcessRunner(commandEnv(process.env));
    const sleep = `sleep ${uniqueDuration()}`;
    const command = start(`setsid ${sleep} >/dev/null 2>&1 & echo bye`);
    await command.settle(10_000);
    const { stdout, status } = command.read();
    expect(stdout.text).toBe('bye\n');
    expect(status).toMatchObject({ state: 'exited', exitCode: 0, leftovers: { killed: 1, survived: 0 } });
    expect(processesWith(sleep)).toEqual([]);
  });
});

/** The marker descriptors a process holds: links to a removed `keel-<run>-<command>-` directory. */
function markerLinksOf(pid: number): string[] {
  return readdirSync(`/proc/${pid}/fd`)
    .map((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((link) => /\/keel-[0-9a-f]+-\d+-[^/]+ \(deleted\)$/.test(link));
}

describe('commandEnv', () => {
  test('keeps the allowlist and the passthrough names, exact or by prefix, and nothing else', () => {
    const env = commandEnv(
      {
        PATH: '/bin',
        HOME: '/home/u',
        LC_ALL: 'C',
        PWD: '/elsewhere',
        OPENAI_API_KEY: 'sk-1',
        MY_SECRET_X: 'x',
        AWS_SECRET_ACCESS_KEY: 'a',
        DATABASE_URL: 'postgres://u:p@h/db',
        MY_PASS: 'chosen',
        APP_MODE: 'dev',
        APP_LEVEL: '3',
      },
      ['MY_PASS', 'APP_*'],
    );
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      LC_ALL: 'C',
      MY_PASS: 'chosen',
      APP_MODE: 'dev',
      APP_LEVEL: '3',
    });
  });
});

describe('output buffers', () => {
  test('a tail buffer keeps the last bytes since the last take, never half a character', () => {
    const tail = new TailBuffer(5);
    tail.push(Buffer.from('abc'));
    tail.push(Buffer.from('dé€f')); // é and € are 2 and 3 bytes: 'abcdé€f' is 10 bytes
    expect(tail.take()).toEqual({ text: '€f', dropped: 6 });
    expect(tail.take()).toEqual({ text: '', dropped: 0 });
    tail.push(Buffer.from('xy'));
    expect(tail.take()).toEqual({ text: 'xy', dropped: 0 });
  });

  test('a head-and-tail buffer keeps the first and the last half of its bytes and counts those between', () => {
    const all = new HeadTailBuffer(8);
    all.push(Buffer.from('abc'));
    all.push(Buffer.from('def'));
    expect(all.result()).toEqual({ text: 'abcdef', dropped: 0 });
    const cut = new HeadTailBuffer(8);
    cut.push(Buffer.from('abc'));
    cut.push(Buffer.from('defghij'));
    cut.push(Buffer.from('klm'));
    expect(cut.result()).toEqual({ text: 'abcd', dropped: 5, tail: 'jklm' });
    // A character cut at either end is left out whole: é is 2 bytes, € 3.
    const wide = new HeadTailBuffer(8);
    wide.push(Buffer.from('abcé-----€yz'));
    expect(wide.result()).toEqual({ text: 'abc', dropped: 10, tail: 'yz' });
    // A character whole at the head's end stays; one straddling the halves with nothing left out is whole too.
    const whole = new HeadTailBuffer(8);
    whole.push(Buffer.from('abé------yz'));
    expect(whole.result()).toEqual({ text: 'abé', dropped: 4, tail: '--yz' });
    const straddling = new HeadTailBuffer(8);
    straddling.push(Buffer.from('abcéxyz'));
    expect(straddling.result()).toEqual({ text: 'abcéxyz', dropped: 0 });
  });
});
