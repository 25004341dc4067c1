// Tests for the bubblewrap sandbox with real bwrap: what a sandboxed command can write, read and reach, and that
// nothing it starts survives. Skipped, with the reason in the suite name, where bubblewrap cannot run.
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { CommandOutcome, CommandRunner } from '../../src/core/runner.js';
import { commandEnv } from '../../src/exec/command-env.js';
import { chooseCommandRunner, probeBubblewrap } from '../../src/exec/sandbox-choice.js';
import { createSandboxRunner, type SandboxOptions, sandboxArgs } from '../../src/exec/sandbox-runner.js';
import { HOME_SECRETS } from '../../src/safety/home-secrets.js';
import { processesWith, uniqueDuration } from '../support/processes.js';

const unavailable = await probeBubblewrap(false, commandEnv(process.env));
if (unavailable) console.warn(`sandbox tests skipped: ${unavailable}`);
const suite = unavailable ? `sandboxed commands (skipped: ${unavailable})` : 'sandboxed commands';

let base: string;
let options: SandboxOptions;
let runner: CommandRunner | undefined;

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-sandbox-')));
  const home = path.join(base, 'home');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh', 'id_test'), 'PRIVATE-KEY-CANARY\n');
  await fs.mkdir(path.join(home, '.config', 'keel'), { recursive: true });
  await fs.writeFile(path.join(home, '.config', 'keel', 'credentials.yaml'), 'token: CREDENTIAL-CANARY\n');
  await fs.writeFile(path.join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=NPM-CANARY\n');
  await fs.writeFile(path.join(home, 'notes.txt'), 'readable\n');
  const workspace = path.join(base, 'work');
  await fs.mkdir(path.join(workspace, '.git', 'hooks'), { recursive: true });
  await fs.writeFile(path.join(workspace, '.keel.yaml'), 'agent: {}\n');
  options = { workspace, home, keelDirs: [path.join(home, '.config', 'keel')], network: false };
});

afterEach(() => {
  runner?.killAll();
  runner = undefined;
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

async function sandboxed(command: string, overrides: Partial<SandboxOptions> = {}): Promise<CommandOutcome> {
  const env = { ...commandEnv(process.env), HOME: options.home };
  runner = createSandboxRunner(env, { ...options, ...overrides });
  return runner.run({
    command,
    cwd: overrides.workspace ?? options.workspace,
    timeoutMs: 20_000,
    signal: new AbortController().signal,
    maxStdoutBytes: 65536,
    maxStderrBytes: 65536,
  });
}

test('the sandbox hides every home secret that exists, and nothing that does not', async () => {
  const home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-sandbox-home-')));
  try {
    // Folders for the four that always are; every other made as a file (hidden either way); one left out.
    const made = HOME_SECRETS.filter((rel) => rel !== '.pgpass');
    for (const rel of made) {
      const full = path.join(home, rel);
      if (['.ssh', '.aws', '.gnupg', '.kube'].includes(rel)) await fs.mkdir(full, { recursive: true });
      else {
        await fs.mkdir(path.dirname(full), { recursive: true });
        await fs.writeFile(full, 'SECRET');
      }
    }
    const args = sandboxArgs(
      { workspace: path.join(home, 'work'), home, keelDirs: [], network: false },
      home,
    );
    const hidden = new Set<string>();
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '--tmpfs') hidden.add(args[i + 1] as string);
      if (args[i] === '--ro-bind' && args[i + 1] === '/dev/null') hidden.add(args[i + 2] as string);
    }
    // Only what is hidden in the home (the sandbox's private /tmp covers this temp home too).
    const covered = (p: string) =>
      [...hidden].some((h) => h.startsWith(`${home}/`) && (p === h || p.startsWith(`${h}/`)));
    for (const rel of made) expect(covered(path.join(home, rel)), rel).toBe(true);
    expect(covered(path.join(home, '.pgpass'))).toBe(false);
  } finally {
    await fs.rm(home, { recursive: true, force: true });
  }
});

test('the host socket folders are covered by an empty tmpfs, the workspace never', () => {
  const hidden = (args: string[]) => args.flatMap((a, i) => (a === '--tmpfs' ? [args[i + 1]] : []));
  const args = sandboxArgs(
    { workspace: '/nowhere/work', home: '/nowhere', keelDirs: [], network: false },
    '/',
  );
  if (existsSync('/run')) expect(hidden(args)).toContain('/run');
  const inside = sandboxArgs({ workspace: '/run/w', home: '/nowhere', keelDirs: [], network: false }, '/');
  expect(hidden(inside)).not.toContain('/run');
});

describe.skipIf(unavailable !== undefined)(suite, () => {
  test('can write in the workspace but not in HOME, /etc or the rest of the filesystem', async () => {
    const etcCanary = `/etc/keel-canary-${process.pid}`;
    const outcome = await sandboxed(
      `echo made > made.txt && cat made.txt; touch "$HOME/canary" || echo home-refused; touch ${etcCanary} || echo etc-refused; cat "$HOME/notes.txt"`,
    );
    expect(outcome.stdout.text).toBe('made\nhome-refused\netc-refused\nreadable\n');
    expect(await fs.readFile(path.join(options.workspace, 'made.txt'), 'utf8')).toBe('made\n');
    expect(existsSync(path.join(options.home, 'canary'))).toBe(false);
    expect(existsSync(etcCanary)).toBe(false);
  });

  test('cannot read home secrets or Keel credentials: they are hidden', async () => {
    const outcome = await sandboxed(
      'cat ~/.ssh/id_test; ls -A ~/.ssh; cat ~/.config/keel/credentials.yaml; cat ~/.npmrc; echo end',
    );
    const seen = outcome.stdout.text + outcome.stderr.text;
    for (const canary of ['PRIVATE-KEY-CANARY', 'CREDENTIAL-CANARY', 'NPM-CANARY']) {
      expect(seen).not.toContain(canary);
    }
    expect(outcome.stdout.text).toBe('end\n');
  });

  test("cannot read other agents' sign-in tokens or the shell history", async () => {
    const files = [
      '.codex/auth.json',
      '.claude/.credentials.json',
      '.gemini/oauth_creds.json',
      '.bash_history',
    ];
    for (const rel of files) {
      await fs.mkdir(path.dirname(path.join(options.home, rel)), { recursive: true });
      await fs.writeFile(path.join(options.home, rel), 'AGENT-TOKEN-CANARY\n');
    }
    const outcome = await sandboxed(`${files.map((rel) => `cat ~/${rel}`).join('; ')}; echo end`);
    expect(outcome.stdout.text + outcome.stderr.text).not.toContain('AGENT-TOKEN-CANARY');
    expect(outcome.stdout.text).toBe('end\n');
  });

  test("runs a config-defined tool's script from the hidden config folder, read-only, and shows nothing beside it", async () => {
    const script = path.join(options.home, '.config', 'keel', 'tools', 'hello.sh');
    await fs.mkdir(path.dirname(script), { recursive: true });
    await fs.writeFile(
      script,
      '#!/bin/sh\necho "hello $1"; cat "$(dirname "$0")/../credentials.yaml"; echo x >> "$0" || echo read-only\n',
    );
    await fs.chmod(script, 0o755);
    const env = { ...commandEnv(process.env), HOME: options.home };
    runner = createSandboxRunner(env, options);
    const outcome = await runner.run({
      command: `${script} world`,
      argv: [script, 'world'],
      readable: [script],
      cwd: options.workspace,
      timeoutMs: 20_000,
      signal: new AbortController().signal,
      maxStdoutBytes: 65536,
      maxStderrBytes: 65536,
    });
    expect(outcome.stdout.text).toBe('hello world\nread-only\n');
    expect(outcome.stdout.text + outcome.stderr.text).not.toContain('CREDENTIAL-CANARY');
  });

  test("cannot change Keel's project config or git hooks inside the workspace", async () => {
    const outcome = await sandboxed(
      'echo "agent: {evil: 1}" > .keel.yaml || echo config-refused; touch .git/hooks/pre-commit || echo hooks-refused',
    );
    expect(outcome.stdout.text).toBe('config-refused\nhooks-refused\n');
    expect(await fs.readFile(path.join(options.workspace, '.keel.yaml'), 'utf8')).toBe('agent: {}\n');
    expect(existsSync(path.join(options.workspace, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  test('cannot change the files git reads settings from: config.worktree, commondir', async () => {
    const git = path.join(options.workspace, '.git');
    await fs.writeFile(path.join(git, 'config.worktree'), '[user]\n');
    await fs.writeFile(path.join(git, 'commondir'), '.\n');
    const outcome = await sandboxed(
      [
        'echo "[core] fsmonitor = x" >> .git/config.worktree || echo worktree-config-refused',
        'echo ../evil > .git/commondir || echo commondir-refused',
      ].join('; '),
    );
    expect(outcome.stdout.text).toBe('worktree-config-refused\ncommondir-refused\n');
    expect(await fs.readFile(path.join(git, 'config.worktree'), 'utf8')).toBe('[user]\n');
    expect(await fs.readFile(path.join(git, 'commondir'), 'utf8')).toBe('.\n');
    await fs.rm(path.join(git, 'config.worktree'));
    await fs.rm(path.join(git, 'commondir'));
  });

  test('git worktree add and remove work beside an existing linked worktree (the tripwire guards its files)', async () => {
    const repo = path.join(base, 'repo');
    await fs.mkdir(repo);
    try {
      const git = (...args: string[]) =>
        execFileSync('git', ['-C', repo, '-c', 'user.name=k', '-c', 'user.email=k@k', ...args]);
      git('init', '-q');
      git('commit', '-q', '--allow-empty', '-m', 'first');
      git('worktree', 'add', '-q', 'wt1');
      const outcome = await sandboxed(
        'git worktree add -q wt2 && git worktree remove wt1 && git worktree list | wc -l',
        { workspace: repo },
      );
      expect(outcome.stderr.text).toBe('');
      expect(outcome.stdout.text.trim()).toBe('2');
      expect(existsSync(path.join(repo, '.git', 'worktrees', 'wt2', 'commondir'))).toBe(true);
      expect(existsSync(path.join(repo, '.git', 'worktrees', 'wt1'))).toBe(false);
    } finally {
      await fs.rm(repo, { recursive: true, force: true });
    }
  });

  test('no program but git can write .git: a script cannot delete the history, git itself still commits', async () => {
    const repo = path.join(base, 'history');
    await fs.mkdir(repo);
    try {
      const git = (...args: string[]) =>
        execFileSync('git', ['-C', repo, '-c', 'user.name=k', '-c', 'user.email=k@k', ...args], {
          encoding: 'utf8',
        });
      git('init', '-q');
      git('commit', '-q', '--allow-empty', '-m', 'first');
      await fs.writeFile(path.join(repo, 'clean.sh'), 'rm -rf .git\n');
      const wiped = await sandboxed('bash clean.sh', { workspace: repo });
      expect(wiped.exitCode).not.toBe(0);
      expect(wiped.stderr.text).toContain('Read-only file system');
      expect(wiped.stderr.text).toContain('.git is read-only in the sandbox to every program but git');
      expect(git('log', '--format=%s')).toBe('first\n');
      const committed = await sandboxed(
        'git add clean.sh && git -c user.name=k -c user.email=k@k commit -q -m second && git log --format=%s | head -1',
        { workspace: repo },
      );
      expect(committed.stderr.text).toBe('');
      expect(committed.stdout.text).toBe('second\n');
    } finally {
      await fs.rm(repo, { recursive: true, force: true });
    }
  });

  test('has a private /tmp', async () => {
    const name = `keel-private-${process.pid}`;
    const outcome = await sandboxed(`echo x > /tmp/${name} && cat /tmp/${name}`);
    expect(outcome.stdout.text).toBe('x\n');
    expect(existsSync(path.join('/tmp', name))).toBe(false);
  });

  describe('network', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer((socket) => socket.end('hello from the host\n'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    const connect = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3 || echo unreachable`;

    test('is off: even a server on the host loopback cannot be reached', async () => {
      const outcome = await sandboxed(connect());
      expect(outcome.stdout.text).toBe('unreachable\n');
    });

    test('is on with sandbox_network', async () => {
      const outcome = await sandboxed(connect(), { network: true });
      expect(outcome.stdout.text).toBe('hello from the host\n');
    });
  });

  test("cannot reach the host's service sockets (the user's runtime folder, /run): no way out through a bus", async () => {
    // A socket connects through a read-only mount and past the network namespace (systemd-run --user, docker.sock).
    const runtimeDir = path.join(options.home, 'run-user');
    await fs.mkdir(runtimeDir, { recursive: true });
    const bus = path.join(runtimeDir, 'bus');
    const server = createServer((socket) => socket.end('hello from the host bus\n'));
    await new Promise<void>((resolve) => server.listen(bus, resolve));
    try {
      const dial = `require('net').connect(${JSON.stringify(bus)}).on('data', (d) => { process.stdout.write(d); process.exit(0); }).on('error', () => console.log('unreachable'))`;
      const node = JSON.stringify(process.execPath);
      const outcome = await sandboxed(`${node} -e ${JSON.stringify(dial)}; ls -A /run | wc -l`, {
        runtimeDir,
      });
      expect(outcome.stdout.text).toBe('unreachable\n0\n');
      // Without it the same socket answers: the test reaches what it means to.
      const open = await sandboxed(`${node} -e ${JSON.stringify(dial)}`);
      expect(open.stdout.text).toBe('hello from the host bus\n');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('ends what a command left running, and says so', async () => {
    const sleep = `sleep ${uniqueDuration()}`;
    const outcome = await sandboxed(`setsid ${sleep} >/dev/null 2>&1 & nohup ${sleep} & echo started`);
    expect(outcome.stdout.text).toBe('started\n');
    expect(outcome.leftovers).toEqual({ killed: 2, survived: 0 });
    expect(processesWith(sleep)).toEqual([]);
  });

  test('a command cannot forge the count of processes it left behind', async () => {
    const outcome = await sandboxed('echo 99 >&3; echo done');
    expect(outcome.leftovers).toEqual({ killed: 0, survived: 0 });
    expect(outcome.stdout.text).toBe('done\n');
  });

  test('keeps the exit code, and a timeout kills the sandbox', async () => {
    expect((await sandboxed('exit 7')).exitCode).toBe(7);
    const sleep = `sleep ${uniqueDuration()}`;
    const env = commandEnv(process.env);
    runner = createSandboxRunner(env, options);
    const outcome = await runner.run({
      command: `${sleep} & ${sleep}`,
      cwd: options.workspace,
      timeoutMs: 300,
      signal: new AbortController().signal,
      maxStdoutBytes: 1024,
      maxStderrBytes: 1024,
    });
    expect(outcome.stopped).toBe('timeout');
    expect(processesWith(sleep)).toEqual([]);
  });

  test('background commands run sandboxed and are killed with everything they started', async () => {
    runner = createSandboxRunner(commandEnv(process.env), options);
    const sleep = `sleep ${uniqueDuration()}`;
    const command = runner.start({
      command: `touch /etc/keel-bg-canary 2>/dev/null || echo refused; setsid ${sleep} & ${sleep}`,
      cwd: options.workspace,
      maxStdoutBytes: 1024,
      maxStderrBytes: 1024,
    });
    let seen = '';
    while (!seen.includes('refused')) {
      await command.settle(50);
      seen += command.read().stdout.text;
    }
    expect(await command.kill()).toMatchObject({ state: 'exited', killed: true });
    expect(processesWith(sleep)).toEqual([]);
  });

  test('full mode chooses the sandbox by default; --no-sandbox and other modes do not', async () => {
    const env = commandEnv(process.env);
    const choose = (mode: 'full' | 'restricted', requested?: boolean) =>
      chooseCommandRunner({ mode, requested, env, sandbox: options });
    expect((await choose('full')).sandboxed).toBe(true);
    expect((await choose('full', false)).sandboxed).toBe(false);
    expect((await choose('restricted')).sandboxed).toBe(false);
    expect((await choose('restricted', true)).sandboxed).toBe(true);
  });

  test('auto mode chooses the sandbox by default, with no warning', async () => {
    const choice = await chooseCommandRunner({
      mode: 'auto',
      requested: undefined,
      env: commandEnv(process.env),
      sandbox: options,
    });
    expect(choice).toMatchObject({ sandboxed: true });
    expect(choice.warning).toBeUndefined();
  });
});

describe('without bubblewrap', () => {
  const missing = async () => 'bubblewrap (bwrap) is not installed or not on PATH';
  const choose = (mode: 'full' | 'interactive' | 'auto', requested?: boolean) =>
    chooseCommandRunner({ mode, requested, env: commandEnv(process.env), sandbox: options, probe: missing });

  test('an explicit request fails with the reason and the fix, never a pretend sandbox', async () => {
    await expect(choose('interactive', true)).rejects.toMatchObject({
      code: 'sandbox_unavailable',
      exitCode: 2,
      message: 'the sandbox was asked for, but bubblewrap (bwrap) is not installed or not on PATH',
      hint: expect.stringContaining('apt-get install bubblewrap'),
    });
  });

  test('full mode runs unsandboxed with one warning', async () => {
    const choice = await choose('full');
    expect(choice.sandboxed).toBe(false);
    expect(choice.warning).toContain('without a sandbox: bubblewrap (bwrap) is not installed');
  });

  test('auto mode runs unsandboxed with one warning: why, that commands are asked, how to get bubblewrap', async () => {
    const choice = await choose('auto');
    expect(choice.sandboxed).toBe(false);
    expect(choice.warning).toBe(
      'auto mode has no sandbox here (bubblewrap (bwrap) is not installed or not on PATH): commands beyond the ' +
        'read-only set are asked about, and refused in headless runs. To run them in the sandbox: install ' +
        'bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and allow unprivileged user namespaces ' +
        '(sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later kernel.apparmor_restrict_unprivileged_userns=0)',
    );
  });

  test('auto mode under --no-sandbox says so once, without probing', async () => {
    const choice = await chooseCommandRunner({
      mode: 'auto',
      requested: false,
      env: commandEnv(process.env),
      sandbox: options,
      probe: async () => {
        throw new Error('probed');
      },
    });
    expect(choice.sandboxed).toBe(false);
    expect(choice.warning).toMatch(
      /^auto mode has no sandbox here \(it is turned off by --no-sandbox or safety.sandbox: false\)/,
    );
  });

  test('the probe says bwrap is missing when it is not on PATH', async () => {
    expect(await probeBubblewrap(false, { PATH: '/nonexistent' })).toBe(
      'bubblewrap (bwrap) is not installed or not on PATH',
    );
  });
});
