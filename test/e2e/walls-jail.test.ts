// In a fake HOME with canary secrets: files Keel reads for the user go through the jail (context files, custom
// commands, plan files), cassettes and JSON output are redacted, Keel's state dir is off limits to file tools,
// oversized tool arguments are refused, and no command outlives a kill -9 of Keel. Runs are assembled in-process as
// keel run assembles them, --record with stream-json output through the command line in process; the built binary
// runs once, to be killed with -9.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, mkdtemp, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandGoal } from '../../src/cli/custom-command.js';
import { planPath } from '../../src/cli/run.js';
import { ExitCode } from '../../src/core/errors.js';
import { loadPlan } from '../../src/plan/parse.js';
import { planToPrompt } from '../../src/plan/prompt.js';
import { runAgent, withEnv } from '../support/agent-in-process.js';
import { runCli } from '../support/cli-in-process.js';
import { runOllama, toolMessages, useE2E } from '../support/e2e.js';
import type { ModelServer } from '../support/model-server.js';
import { processesWith, stopProcessesWith, uniqueDuration } from '../support/processes.js';

const { server, removeLater } = useE2E();

interface FakeHome {
  home: string;
  ws: string;
  env: Record<string, string>;
  canaries: Record<string, string>;
}

/** A HOME with an SSH key and AWS credentials holding canaries, and an untrusted project inside it. */
async function fakeHome(): Promise<FakeHome> {
  const home = await realpath(await mkdtemp(join(tmpdir(), 'keel-walls-')));
  removeLater(home);
  const canaries = {
    [join(home, '.ssh', 'id_rsa')]: `CANARY-SSH-${randomBytes(6).toString('hex')}`,
    [join(home, '.aws', 'credentials')]: `CANARY-AWS-${randomBytes(6).toString('hex')}`,
  };
  for (const [file, text] of Object.entries(canaries)) {
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, `${text}\n`);
  }
  const ws = join(home, 'project');
  await mkdir(ws);
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
  };
  return { home, ws, env, canaries };
}

/** No canary reached the model server, and every canary file is still where it was, unchanged. */
async function expectCanariesKept(fake: FakeHome, s: ModelServer): Promise<void> {
  const sent = s.requests.map((r) => r.rawBody).join('\n');
  for (const [file, text] of Object.entries(fake.canaries)) {
    expect(sent).not.toContain(text);
    expect(await readFile(file, 'utf8')).toBe(`${text}\n`);
  }
}

describe('files read for the user go through the jail', () => {
  it('a context file linked to the SSH key is skipped with a warning and never reaches the model', async () => {
    const fake = await fakeHome();
    await symlink('../.ssh/id_rsa', join(fake.ws, 'AGENTS.md'));
    const s = await server([{ text: 'done' }]);
    const r = await runAgent(s, fake.ws, 'hello', { env: fake.env });
    expect(r.result.reason).toBe('done');
    expect(r.warnings.join('\n')).toMatch(
      /context file .*AGENTS\.md skipped: it resolves to .*id_rsa, outside/,
    );
    expect(s.requests).toHaveLength(1);
    await expectCanariesKept(fake, s);
  });

  it('a project command linked to the AWS credentials is refused with a message, before any request', async () => {
    const fake = await fakeHome();
    await mkdir(join(fake.ws, '.keel', 'commands'), { recursive: true });
    await symlink(join(fake.home, '.aws', 'credentials'), join(fake.ws, '.keel', 'commands', 'x.md'));
    const s = await server([{ text: 'never asked' }]);
    const goal = withEnv(fake.env, () => commandGoal('x', [], fake.ws));
    await expect(goal).rejects.toThrow(
      /command "x" is refused: \.keel\/commands\/x\.md: it resolves to .*credentials/,
    );
    await expect(goal).rejects.toMatchObject({ exitCode: ExitCode.usage });
    await expectCanariesKept(fake, s);
  });

  it('a home that is a git repository is no root for the context file of a workspace without .git', async () => {
    const fake = await fakeHome();
    await mkdir(join(fake.home, '.git'));
    const token = `CANARY-GH-${randomBytes(6).toString('hex')}`;
    await writeFile(join(fake.home, '.git-credentials'), `https://u:${token}@github.com\n`);
    await symlink('../.git-credentials', join(fake.ws, 'AGENTS.md'));
    const s = await server([{ text: 'done' }]);
    const r = await runAgent(s, fake.ws, 'hello', { env: fake.env });
    expect(r.result.reason).toBe('done');
    expect(r.warnings.join('\n')).toMatch(
      /context file .*project\/AGENTS\.md skipped: it resolves to .*\.git-credentials, outside/,
    );
    expect(s.requests.map((q) => q.rawBody).join('')).not.toContain(token);
    await expectCanariesKept(fake, s);
  });

  it('a hard link to the SSH key is read by no tool, search or command include', async () => {
    const fake = await fakeHome();
    await link(join(fake.home, '.ssh', 'id_rsa'), join(fake.ws, 'hardkey'));
    await mkdir(join(fake.ws, 'sub'));
    await link(join(fake.home, '.ssh', 'id_rsa'), join(fake.ws, 'sub', 'id'));
    await mkdir(join(fake.ws, '.keel', 'commands'), { recursive: true });
    await writeFile(join(fake.ws, '.keel', 'commands', 'z.md'), 'see @sub/id\n');
    const s = await server([
      { toolCalls: [{ name: 'read_file', args: { path: 'hardkey' } }] },
      { toolCalls: [{ name: 'grep', args: { pattern: 'CANARY' } }] },
      { toolCalls: [{ name: 'execute_command', args: { command: 'cat sub/id' } }] },
      { text: 'done' },
    ]);
    const r = await runAgent(s, fake.ws, 'x', { env: fake.env, mode: 'restricted' });
    expect(r.result.reason).toBe('done');
    const [read, grep, cat] = toolMessages(s.requests[3]!.body).slice(-3);
    expect(read).toMatch(/^Error: path "hardkey" is a hard link to the secret file ~\/\.ssh\/id_rsa/);
    expect(grep).toMatch(/^no matches for "CANARY"/);
    expect(cat).toMatch(/`sub\/id` is a hard link to the secret file ~\/\.ssh\/id_rsa/);
    const goal = withEnv(fake.env, () => commandGoal('z', [], fake.ws));
    await expect(goal).rejects.toThrow(/@sub\/id: path "sub\/id" is a hard link to the secret file/);
    await expectCanariesKept(fake, s);
  });

  it('a plan file in the workspace linked out is refused; one the user names outside it is read', async () => {
    const fake = await fakeHome();
    await symlink('../.ssh/id_rsa', join(fake.ws, 'plan.md'));
    await writeFile(join(fake.home, 'my-plan.md'), '# Tidy up\n\n1. Say done\n');
    const s = await server([{ text: 'done' }]);
    // keel run --plan <file> in the workspace: relative paths are the user's, from where keel was started.
    const plan = (file: string) =>
      withEnv(fake.env, () => planPath({ plan: join(fake.ws, file), cwd: fake.ws }));
    const refused = plan('plan.md');
    await expect(refused).rejects.toThrow(/plan file .*plan\.md is refused: it resolves to .*id_rsa/);
    await expect(refused).rejects.toMatchObject({ exitCode: ExitCode.usage });
    const named = await plan('../my-plan.md');
    expect(named).toBe(join(fake.home, 'my-plan.md'));
    const r = await runAgent(s, fake.ws, planToPrompt(await loadPlan(named), { tracked: true }), {
      env: fake.env,
    });
    expect(r.result.reason).toBe('done');
    expect(s.requests[0]!.rawBody).toContain('Say done');
    await expectCanariesKept(fake, s);
  });
});

describe('secrets and bounds', () => {
  it('--record and stream-json carry no API key, token or config api_key', async () => {
    const fake = await fakeHome();
    const secrets = ['sk-e2eSecretValue123456', 'tok-e2e-secret-456789', 'cfg-e2e-secret-789012'];
    const config = join(fake.home, 'config.yaml');
    await writeFile(config, `provider:\n  openai-compatible:\n    api_key: ${secrets[2]}\n`);
    const echoed = `keys ${secrets.join(' ')}`;
    const s = await server([
      { text: echoed, toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: echoed } }] },
      { text: `done ${echoed}` },
    ]);
    const cassette = join(fake.home, 'run.cassette.json');
    // The command line as the binary parses and runs it, in process (killing Keel below needs the binary).
    const r = await runCli(
      [
        'run',
        '--base-url',
        s.ollamaUrl,
        '--cwd',
        fake.ws,
        '--config',
        config,
        '--record',
        cassette,
        '--output',
        'stream-json',
        '--prompt',
        'x',
      ],
      { env: { ...fake.env, OPENAI_API_KEY: secrets[0]!, MY_SERVICE_TOKEN: secrets[1]! } },
    );
    expect(r.code, r.stderr).toBe(0);
    const recorded = await readFile(cassette, 'utf8');
    for (const secret of secrets) {
      expect(r.stdout).not.toContain(secret);
      expect(recorded).not.toContain(secret);
    }
    expect(r.stdout).toContain('[REDACTED]');
    // The cassette still parses, its tool call's arguments too.
    const parsed = JSON.parse(recorded) as {
      interactions: { events: { type: string; call?: { input: string } }[] }[];
    };
    const call = parsed.interactions[0]!.events.find((e) => e.type === 'tool-call')!;
    expect(JSON.parse(call.call!.input)).toMatchObject({ path: 'notes.txt' });
  });

  it("read_file reads this workspace's saved output by absolute path, never another workspace's", async () => {
    const fake = await fakeHome();
    const other = join(fake.home, '.local', 'state', 'keel', 'tool-output', 'other-0123456789ab', 'run');
    await mkdir(other, { recursive: true });
    const otherCanary = `CANARY-OTHER-${randomBytes(6).toString('hex')}`;
    await writeFile(join(other, 'out.txt'), otherCanary);
    const lines = Array.from({ length: 300000 }, (_, i) => String(i + 1)).join('\n');
    await writeFile(join(fake.ws, 'numbers.txt'), `${lines}\n`);
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: 'cat numbers.txt' } }] },
      (request) => {
        const last = toolMessages(request.body).at(-1) ?? '';
        const saved = last.match(/saved in (\S+\.txt)/)?.[1] ?? `missing: ${last.slice(0, 300)}`;
        return {
          toolCalls: [
            { name: 'read_file', args: { path: saved, offset: 299999 } },
            { name: 'read_file', args: { path: join(other, 'out.txt') } },
          ],
        };
      },
      { text: 'done' },
    ]);
    const r = await runAgent(s, fake.ws, 'x', { env: fake.env });
    expect(r.result.reason).toBe('done');
    const [own, foreign] = toolMessages(s.requests[2]!.body).slice(-2);
    expect(own).toContain('299999');
    expect(foreign).toMatch(/^Error: path .* is outside the workspace/);
    expect(s.requests.map((q) => q.rawBody).join('')).not.toContain(otherCanary);
  });

  it('a tool call with arguments over the limit is refused, and only a stub of them is sent again', async () => {
    const fake = await fakeHome();
    const content = 'x'.repeat(2 * 1024 * 1024);
    const s = await server([
      { toolCalls: [{ name: 'write_file', args: { path: 'big.txt', content } }] },
      { text: 'done' },
    ]);
    const r = await runAgent(s, fake.ws, 'x', { env: fake.env });
    expect(r.result.reason).toBe('done');
    expect(existsSync(join(fake.ws, 'big.txt'))).toBe(false);
    expect(toolMessages(s.requests[1]!.body).at(-1)).toMatch(
      /over the limit of \d+ KB.*write large content in parts/is,
    );
    expect(s.requests[1]!.rawBody.length).toBeLessThan(100_000);
  });
});

describe('without a sandbox', () => {
  let keelPid: number | undefined;
  afterEach(() => {
    if (keelPid !== undefined) {
      try {
        process.kill(keelPid, 'SIGKILL');
      } catch {}
    }
  });

  it('no command outlives a kill -9 of Keel, background or foreground, with its environment cleared or not', async () => {
    const fake = await fakeHome();
    const background = `sleep ${uniqueDuration()}`;
    const foreground = `sleep ${uniqueDuration()}`;
    const s = await server([
      {
        toolCalls: [
          {
            name: 'execute_command',
            args: {
              command: `setsid ${background} & setsid env -i ${background} >/dev/null 2>&1 </dev/null & ${background}`,
              background: true,
            },
          },
          {
            name: 'execute_command',
            args: { command: `(env -u KEEL_RUN_ID setsid ${foreground} >/dev/null 2>&1 &); ${foreground}` },
          },
        ],
      },
      { text: 'never reached' },
    ]);
    const run = runOllama(s, fake.ws, ['--allow-dangerous', '--no-sandbox', '--prompt', 'x'], {
      env: fake.env,
      timeoutMs: 60_000,
      onSpawn: (child) => {
        keelPid = child.pid;
      },
    });
    try {
      await until(
        () => processesWith(foreground, true).length >= 2 && processesWith(background, true).length >= 3,
      );
      process.kill(keelPid!, 'SIGKILL');
      await run;
      await until(() => processesWith(foreground).length === 0 && processesWith(background).length === 0);
      expect(processesWith(foreground)).toEqual([]);
      expect(processesWith(background)).toEqual([]);
    } finally {
      stopProcessesWith(foreground);
      stopProcessesWith(background);
    }
  });
});

/** Polls until `done` holds, for at most 20 s (a generous bound, not a timing assertion). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
}
