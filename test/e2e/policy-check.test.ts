// `keel policy check` (exit codes 0 allow, 1 ask, 2 deny, the JSON and text output, --mode, --allow, --path/--tool,
// bad input) and `keel policy show`: the commands in-process on a captured output, and the built binary once for
// each subcommand's wiring (flags parsed, exit code, stdout vs stderr). What the policy decides for each command and
// file call is a unit table: test/safety/policy-cases.test.ts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PolicyCheckOptions,
  policyCheckCommand,
  policyShowCommand,
} from '../../src/cli/policy-command.js';
import { captureOutput, useHomeEnv } from '../support/agent-in-process.js';
import { runKeel } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';

let base: string;
let ws: string;
let configFile: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'keel-policy-check-'));
  ws = join(base, 'work');
  await mkdir(join(ws, 'src'), { recursive: true });
  await writeFile(join(ws, 'src', 'a.ts'), 'x\n');
  configFile = join(base, 'config.yaml');
  await writeFile(configFile, 'safety:\n  commands:\n    deny: ["git push *"]\n');
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

useHomeEnv(() => join(base, 'home'));

/** `keel policy check --cwd ws --config config …` in-process: its exit code and what it printed. */
async function check(options: Partial<PolicyCheckOptions>, config = configFile) {
  const out = captureOutput();
  const code = await policyCheckCommand({ output: 'text', cwd: ws, config, allow: [], ...options }, out);
  return { code, stdout: out.out, stderr: out.err };
}

/** The one JSON line --json prints. */
function jsonLine(stdout: string): { decision: string; reasons: string[]; hint?: string; mode: string } {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '');
}

describe('keel policy check', () => {
  // The machine may be busy with other suites: a slow start is no failure here.
  it('the binary exits 0 for an allowed command and prints the decision as one JSON line', async () => {
    const r = await runKeel(
      [
        'policy',
        'check',
        '--cwd',
        ws,
        '--config',
        configFile,
        '--command',
        'make',
        '--allow',
        'make',
        '--no-sandbox',
        '--json',
      ],
      { timeoutMs: 60_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(jsonLine(r.stdout)).toEqual({
      decision: 'allow',
      reasons: ['`make` matches your allow rule "make"'],
      mode: 'restricted',
    });
  });

  // The whole command line in process (main.ts's argument handling and exit codes): the binary's wiring is the test above's.
  it('the command line answers bad input with one message on stderr and exit code 2, without a stack trace', async () => {
    const r = await runCli(['policy', 'check', '--cwd', ws, '--config', configFile, '--path', 'x']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--path needs --tool');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('takes the command after check as --command does, and refuses it given both ways', async () => {
    const args = ['policy', 'check', '--cwd', ws, '--config', configFile, '--json'];
    const r = await runCli([...args, 'git push origin main']);
    expect(r.code).toBe(2);
    expect(jsonLine(r.stdout)).toMatchObject({ decision: 'deny' });
    const both = await runCli([...args, '--command', 'ls', 'git status']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give the command once: after check, or with --command');
  });

  it('returns 1 or 2 for ask or deny and prints the decision as one JSON line', async () => {
    const asked = await check({ command: 'make', mode: 'interactive', json: true });
    expect(asked.code).toBe(1);
    expect(jsonLine(asked.stdout)).toMatchObject({
      decision: 'ask',
      mode: 'interactive',
      hint: expect.any(String),
    });
    const denied = await check({ command: 'make', mode: 'restricted', json: true });
    expect(denied.code).toBe(2);
    expect(jsonLine(denied.stdout)).toMatchObject({
      decision: 'deny',
      reasons: ['`make` is not a read-only command'],
      mode: 'restricted',
      hint: expect.stringContaining('--mode full'),
    });
  });

  it('prints the decision, every reason and how to allow it, as text', async () => {
    const r = await check({ command: 'make && cargo build', mode: 'restricted' });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(
      [
        'deny (mode: restricted)',
        '  - `make` is not a read-only command',
        '  - `cargo build` is not a read-only command',
        'to allow it: add "make" and "cargo build" to safety.commands.allow, pass --allow "make" --allow "cargo build", or use --mode full',
        '',
      ].join('\n'),
    );
  });

  it('judges a file tool call given by --path and --tool, refusing a path out of the workspace', async () => {
    const r = await check({ tool: 'write_file', path: '../outside.txt', mode: 'full', json: true });
    expect(r.code).toBe(2);
    expect(jsonLine(r.stdout)).toMatchObject({ decision: 'deny', mode: 'full' });
  });

  it.each([
    ['edit_file', 'src/a.ts', 'interactive', 1, 'changes the existing file src/a.ts'],
    ['edit_file', 'src/a.ts', 'restricted', 0, 'changes the existing file src/a.ts'],
    ['edit_file', '.keel/commands/x.md', 'full', 1, 'which is protected'],
    ['edit_file', '../outside.txt', 'full', 2, 'outside the workspace'],
    ['move_path', 'src/a.ts', 'interactive', 1, 'changes the existing file src/a.ts'],
    ['glob', 'src', 'restricted', 0, 'glob is read-only'],
  ] as const)(
    'judges %s on --path %s (a tool that needs more than a path) in %s mode: exit %i',
    async (tool, path, mode, code, reason) => {
      const r = await check({ tool, path, mode, json: true });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(code);
      expect(jsonLine(r.stdout).reasons.join('\n')).toContain(reason);
    },
  );

  it('takes the mode from agent.terminal.default_mode when no --mode is given', async () => {
    const full = join(base, 'full.yaml');
    await writeFile(full, 'agent:\n  terminal:\n    default_mode: full\n');
    const r = await check({ command: 'make', json: true }, full);
    expect(r.code).toBe(0);
    expect(jsonLine(r.stdout)).toMatchObject({ decision: 'allow', mode: 'full' });
  });

  it('without --mode judges in the mode keel run takes here, as keel policy show names it', async () => {
    const out = captureOutput();
    expect(await policyShowCommand({ output: 'text', cwd: ws, config: configFile, json: true }, out)).toBe(0);
    const runs = (JSON.parse(out.out) as { defaults: { run: { mode: string } } }).defaults.run.mode;
    const r = await check({ command: 'make', json: true });
    expect(jsonLine(r.stdout).mode).toBe(runs);
    // Without the sandbox a run stays restricted, and so does the check.
    expect(jsonLine((await check({ command: 'make', json: true, sandbox: false })).stdout).mode).toBe(
      'restricted',
    );
  });

  it('judges with or without the sandbox as a run given --sandbox or --no-sandbox would', async () => {
    const args = ['policy', 'check', '--cwd', ws, '--config', configFile, 'cat $(echo src/a.ts)'];
    // Without a sandbox a path known only when the command runs is asked about, in auto and full mode alike.
    expect((await runCli([...args, '--mode', 'auto', '--no-sandbox'])).code).toBe(1);
    expect((await runCli([...args, '--mode', 'full', '--no-sandbox'])).code).toBe(1);
    // Asked for where bubblewrap is missing: refused as the run would be, with the way to get it.
    const missing = await runCli([...args, '--mode', 'full', '--sandbox'], { env: { PATH: '/nonexistent' } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('the sandbox was asked for');
  });

  it('answers bad input with one message and exit code 2, without a stack trace', async () => {
    const runs = [
      await check({}),
      await check({ path: 'x' }),
      await check({ path: 'x', tool: 'nope' }),
      await check({ command: 'ls', allow: ['make && rm -rf x'] }),
    ];
    const messages = [
      'give either a command ("<cmd>" or --command "<cmd>")',
      '--path needs --tool',
      'no tool named nope',
      'command rule "make && rm -rf x" is not a single simple command',
    ];
    runs.forEach((r, i) => {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(messages[i]);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  });

  it("a command given unquoted, its flags read as keel's, is a usage error that says to quote it", async () => {
    const r = await runCli(['policy', 'check', '--cwd', ws, 'rm', '-rf', 'build']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '-rf'");
    expect(r.stderr).toContain('hint: quote it: keel policy check "rm -rf build"');
  });
});

describe('keel policy show', () => {
  it('the binary prints the modes table as text', async () => {
    const r = await runKeel(['policy', 'show']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^action\s+plan\s+interactive\s+restricted\s+auto\s+full/);
    expect(r.stdout).toMatch(/any other command, run in the sandbox.*\s+deny\s+ask\s+deny\s+allow\s+allow/);
    expect(r.stdout).toMatch(/edit or overwrite an existing file.*\s+deny\s+ask\s+allow\s+allow\s+allow/);
    expect(r.stdout).toMatch(
      /Default mode of keel run and keel chat: auto \(bubblewrap works here|Default mode: restricted for keel run, interactive for keel chat \(no sandbox here/,
    );
  });

  it('prints it as JSON', async () => {
    const out = captureOutput();
    expect(await policyShowCommand({ output: 'text', json: true }, out)).toBe(0);
    const table = JSON.parse(out.out) as {
      modes: string[];
      actions: { kind: string; restricted: string }[];
    };
    expect(table.modes).toEqual(['plan', 'interactive', 'restricted', 'auto', 'full']);
    expect(table.actions.find((a) => a.kind === 'delete-other')).toMatchObject({ restricted: 'deny' });
    // Each of the modes listed has its verdict in every row, plan mode's too.
    for (const action of table.actions)
      expect(Object.keys(action)).toEqual(expect.arrayContaining(table.modes));
    expect(table.actions.find((a) => a.kind === 'delete-other')).toMatchObject({
      plan: 'deny',
      full: 'allow',
    });
  });
});
