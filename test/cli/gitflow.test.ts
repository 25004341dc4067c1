// keel commit, git.auto_commit, keel review and keel sessions fork in-process, against the scripted model server
// in temp git repositories (the system git): what gets committed and with which message, the findings and exit
// codes of a review, and a fork that leaves its original untouched.
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commitCommand } from '../../src/cli/commit-command.js';
import { sessionsForkCommand } from '../../src/cli/fork-command.js';
import { reviewCommand } from '../../src/cli/review-command.js';
import type { AgentEvent } from '../../src/core/events.js';
import { assembleRun, type Run, type RunOptions } from '../../src/runtime/assemble.js';
import { readSession, sessionMessages } from '../../src/session/session-file.js';
import type { CommandOutput } from '../../src/ui/command-output.js';
import { makeWorkspace } from '../support/cli.js';
import { homeEnv, useE2E } from '../support/e2e.js';
import type { ModelServer, ScriptStep } from '../support/model-server.js';
import { exec, shellGit } from '../support/small-shell.js';

const { server, workspace } = useE2E();
/** A run, then git processes and a model request: well under this, but the suite shares two cores. */
const SLOW = { timeout: 90_000 };

const saved = { ...process.env };
let home = '';
beforeEach(async () => {
  home = await workspace();
  Object.assign(process.env, { ...homeEnv(home), GIT_CONFIG_NOSYSTEM: '1' });
});
afterEach(() => {
  process.env = { ...saved };
});

const git = (cwd: string, ...args: string[]) => exec('git', args, { cwd });

// Made once by one shell, copied for each test: seven git processes in all instead of seven per test.
let template = '';
beforeAll(async () => {
  template = await makeWorkspace({ 'a.txt': 'A\n', 'b.txt': 'B\n' });
  const script = [
    'git init -q -b main',
    'git config user.name Tester',
    'git config user.email tester@example.com',
    'git add a.txt',
    "git commit -qm 'feat: add a'",
    'git add b.txt',
    "git commit -qm 'fix: correct b'",
  ].join(' && ');
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  await exec('sh', ['-c', script], { cwd: template, env });
  return () => rm(template, { recursive: true, force: true });
});

/** A repository with two commits in the conventional style, and a local identity for the commits Keel makes. */
async function repo(): Promise<string> {
  const ws = await workspace();
  await cp(template, ws, { recursive: true, preserveTimestamps: true });
  return ws;
}

const flags = (s: ModelServer) => ({ provider: 'ollama', baseUrl: s.ollamaUrl, model: 'test-model' });

/** One agent run of `message`, as keel run makes it (full mode, no sandbox), its session saved. */
async function runAgent(s: ModelServer, ws: string, message: string, extra: Partial<RunOptions> = {}) {
  let agent: Run | undefined;
  try {
    agent = await assembleRun({
      cwd: ws,
      flags: flags(s),
      mode: () => 'full',
      sandbox: false,
      session: { save: true },
      startGit: shellGit,
      ...extra,
    });
    agent.conversation.push({ role: 'user', content: message });
    const result = await agent.run(new AbortController().signal);
    expect(result.reason).toBe('done');
    return agent.session?.id;
  } finally {
    await agent?.close();
  }
}

function capture(): CommandOutput & { out: string; err: string } {
  const c = {
    out: '',
    err: '',
    print(t: string) {
      c.out += t;
    },
    notice(t: string) {
      c.err += t;
    },
  };
  return c;
}

const options = (s: ModelServer, ws: string) => ({ ...flags(s), cwd: ws, output: 'text' as const });

describe('keel commit', SLOW, () => {
  it("commits only the run's files with the drafted message and the trailer; a hand edit stays uncommitted", async () => {
    const ws = await repo();
    const s = await server([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'A2\n' } }] },
      { toolCalls: [{ name: 'execute_command', args: { command: 'echo new > c.txt' } }] },
      { text: 'Done.' },
      { text: '```\nfeat: update a and add c\n\nThe shell made c.\n```' },
    ]);
    await runAgent(s, ws, 'change a, make c');
    await writeFile(join(ws, 'b.txt'), 'B edited by hand\n');

    const out = capture();
    expect(await commitCommand([], { ...options(s, ws), yes: true }, out)).toBe(0);
    expect(out.out).toMatch(/^committed [0-9a-f]+: feat: update a and add c\n$/);
    expect((await git(ws, 'log', '-1', '--format=%B')).trim()).toBe(
      'feat: update a and add c\n\nThe shell made c.\n\nAssisted-by: Keel (ollama/test-model)',
    );
    expect((await git(ws, 'show', '--name-only', '--format=', 'HEAD')).trim().split('\n')).toEqual([
      'a.txt',
      'c.txt',
    ]);
    expect(await git(ws, 'status', '--porcelain')).toBe(' M b.txt\n');
    // One request without tools, with the repository's style and the staged diff.
    const draft = s.requests[3]!;
    expect(draft.body.tools ?? []).toEqual([]);
    expect(draft.rawBody).toContain('fix: correct b');
    expect(draft.rawBody).toContain('+A2');
    expect(draft.rawBody).not.toContain('edited by hand');
  });

  it('reads its paths relative to --cwd, as git -C does', async () => {
    const ws = await repo();
    await writeFile(join(ws, 'a.txt'), 'A by hand\n');
    await writeFile(join(ws, 'b.txt'), 'B by hand\n');
    const s = await server([{ text: 'fix: a' }]);
    const out = capture();
    expect(process.cwd()).not.toBe(ws);
    expect(await commitCommand(['a.txt'], { ...options(s, ws), yes: true }, out)).toBe(0);
    expect((await git(ws, 'show', '--name-only', '--format=', 'HEAD')).trim()).toBe('a.txt');
  });

  it('says there is nothing to commit and exits 1 when Keel changed nothing git sees', async () => {
    const ws = await repo();
    const s = await server([]);
    const out = capture();
    expect(await commitCommand([], { ...options(s, ws), yes: true }, out)).toBe(1);
    expect(out.err).toContain('nothing to commit');
    expect(s.requests).toHaveLength(0);
  });

  it('says how to set an author when git has none, the changes left staged', async () => {
    const ws = await repo();
    for (const key of ['user.name', 'user.email']) await git(ws, 'config', '--unset', key);
    // As on a machine git cannot guess an identity on.
    await git(ws, 'config', 'user.useConfigOnly', 'true');
    await writeFile(join(ws, 'a.txt'), 'A3\n');
    await git(ws, 'add', 'a.txt');
    const s = await server([{ text: 'fix: update a' }]);
    const out = capture();
    expect(await commitCommand([], { ...options(s, ws), yes: true }, out)).not.toBe(0);
    expect(out.err).toContain('git has no author identity here: set one with git config user.name');
    expect(await git(ws, 'status', '--porcelain')).toBe('M  a.txt\n');
  });

  it('git.auto_commit commits the run with a written message, without the trailer when attribution is off', async () => {
    const ws = await repo();
    const config = join(home, 'keel.yaml');
    await writeFile(config, 'git:\n  auto_commit: true\n  attribution: false\n');
    const s = await server([
      { toolCalls: [{ name: 'write_file', args: { path: 'd.txt', content: 'D\n' } }] },
      { text: 'Made d.' },
      { text: 'feat: add d' },
    ]);
    await writeFile(join(ws, 'b.txt'), 'B edited by hand\n');
    const events: AgentEvent[] = [];
    await runAgent(s, ws, 'make d', { configFile: config, observe: (e) => void events.push(e) });
    expect((await git(ws, 'log', '-1', '--format=%B')).trim()).toBe('feat: add d');
    expect((await git(ws, 'show', '--name-only', '--format=', 'HEAD')).trim()).toBe('d.txt');
    expect(await git(ws, 'status', '--porcelain')).toBe(' M b.txt\n');
    expect(events).toContainEqual({
      type: 'status',
      message: expect.stringMatching(/^committed [0-9a-f]+: feat: add d$/),
    });
  });
});

describe('keel review', SLOW, () => {
  const findings: ScriptStep[] = [
    {
      toolCalls: [
        { name: 'report_finding', args: { path: 'a.txt', line: 1, severity: 'high', message: 'a is wrong' } },
        {
          name: 'report_finding',
          args: { path: './new.ts', line: 0, severity: 'minor', message: 'no test' },
        },
      ],
    },
    { text: 'Two problems.' },
  ];

  it('prints findings grouped by file and exits 1 at --fail-on high, 0 at critical (JSON)', async () => {
    const ws = await repo();
    await writeFile(join(ws, 'a.txt'), 'A changed\n');
    await writeFile(join(ws, 'new.ts'), 'export const x = 1;\n');
    const s = await server([...findings, ...findings]);

    const text = capture();
    expect(await reviewCommand([], { ...options(s, ws), failOn: 'high' }, text)).toBe(1);
    expect(text.out).toBe('a.txt:1 high a is wrong\n\nnew.ts:0 low no test\n');
    expect(text.err).toContain('2 findings: 1 high, 1 low');
    expect(s.requests[0]!.rawBody).toContain('+A changed');
    expect(s.requests[0]!.rawBody).toContain('new.ts');

    const json = capture();
    expect(await reviewCommand([], { ...options(s, ws), output: 'json', failOn: 'critical' }, json)).toBe(0);
    expect(JSON.parse(json.out)).toEqual([
      { path: 'a.txt', line: 1, severity: 'high', message: 'a is wrong' },
      { path: 'new.ts', line: 0, severity: 'low', message: 'no test' },
    ]);
  });

  it('with paths, leaves out findings elsewhere and says so', async () => {
    const ws = await repo();
    await writeFile(join(ws, 'a.txt'), 'A changed\n');
    await writeFile(join(ws, 'new.ts'), 'export const x = 1;\n');
    const s = await server(findings);
    const out = capture();
    expect(await reviewCommand(['new.ts'], { ...options(s, ws), failOn: 'high' }, out)).toBe(0);
    expect(out.out).toBe('new.ts:0 low no test\n');
    expect(out.err).toContain('note: 1 finding(s) outside new.ts left out: review those paths to see them');
  });

  it('exits 2 when the answer holds findings it cannot read, and for an unknown --fail-on', async () => {
    const ws = await repo();
    await writeFile(join(ws, 'a.txt'), 'A changed\n');
    const s = await server([{ text: '{"path": "a.txt", "line": "one", "severity": "high"}' }]);
    const bad = capture();
    expect(await reviewCommand([], options(s, ws), bad)).toBe(2);
    expect(bad.err).toContain("the review's findings could not be read");

    const usage = capture();
    expect(await reviewCommand([], { ...options(s, ws), failOn: 'severe' }, usage)).toBe(2);
    expect(usage.err).toContain('unknown severity for --fail-on: severe');
  });
});

describe('keel sessions fork', SLOW, () => {
  it('writes a new session up to the chosen message, leaves the original untouched, and resumes', async () => {
    const ws = await repo();
    const s = await server([{ text: 'First answer.' }, { text: 'Second answer.' }]);
    let agent: Run | undefined;
    let file = '';
    try {
      agent = await assembleRun({
        cwd: ws,
        flags: flags(s),
        mode: () => 'restricted',
        session: { save: true },
      });
      for (const message of ['first question', 'second question']) {
        agent.conversation.push({ role: 'user', content: message });
        await agent.run(new AbortController().signal);
      }
      file = agent.session!.file;
    } finally {
      await agent?.close();
    }
    const original = await readFile(file, 'utf8');
    const id = JSON.parse(original.split('\n')[0]!).id as string;

    const out = capture();
    expect(await sessionsForkCommand(id, { ...options(s, ws), at: 1 }, out)).toBe(0);
    const forked = out.out.trim();
    expect(forked).not.toBe(id);
    expect(await readFile(file, 'utf8')).toBe(original);
    const fork = await readSession(join(file, '..', `${forked}.jsonl`));
    const kept = sessionMessages(fork!);
    expect(kept.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(kept[1]!.content).toContain('first question');
    expect(kept[2]!.content).toBe('First answer.');

    const resumed = await assembleRun({
      cwd: ws,
      flags: flags(s),
      mode: () => 'restricted',
      dryRun: true,
      session: { save: true, resume: forked },
    });
    expect(resumed.conversation.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    await resumed.close();

    const beyond = capture();
    expect(await sessionsForkCommand(id, { ...options(s, ws), at: 3 }, beyond)).toBe(2);
    expect(beyond.err).toContain('no message 3 in this session: it has 2');
  });
});
