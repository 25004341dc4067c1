// End to end: what only the built binary shows of `keel policy check` (exit codes 0 allow, 1 ask, 2 deny, the JSON
// and text output, --mode, --allow, --path/--tool, bad input) and `keel policy show`. What the policy decides for
// each command and file call is a unit table: test/safety/policy-cases.test.ts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeel } from '../support/cli.js';

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

// The machine may be busy with other suites: a slow start is no failure here.
const check = (args: string[], config = configFile) =>
  runKeel(['policy', 'check', '--cwd', ws, '--config', config, ...args], { timeoutMs: 60_000 });

/** The one JSON line --json prints. */
function jsonLine(stdout: string): { decision: string; reasons: string[]; hint?: string; mode: string } {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '');
}

describe('keel policy check', () => {
  it('exits 0, 1 or 2 for allow, ask or deny and prints the decision as one JSON line', async () => {
    const [allowed, asked, denied] = await Promise.all([
      check(['--command', 'make', '--allow', 'make', '--json']),
      check(['--command', 'make', '--mode', 'interactive', '--json']),
      check(['--command', 'make', '--json']),
    ]);
    expect(allowed.code).toBe(0);
    expect(jsonLine(allowed.stdout)).toEqual({
      decision: 'allow',
      reasons: ['`make` matches your allow rule "make"'],
      mode: 'restricted',
    });
    expect(asked.code).toBe(1);
    expect(jsonLine(asked.stdout)).toMatchObject({
      decision: 'ask',
      mode: 'interactive',
      hint: expect.any(String),
    });
    // No --mode and no default_mode in the config: restricted.
    expect(denied.code).toBe(2);
    expect(jsonLine(denied.stdout)).toMatchObject({
      decision: 'deny',
      reasons: ['`make` is not a read-only command'],
      mode: 'restricted',
      hint: expect.stringContaining('--mode full'),
    });
  });

  it('prints the decision, every reason and how to allow it, as text', async () => {
    const r = await check(['--command', 'make && cargo build', '--mode', 'restricted']);
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
    const r = await check(['--tool', 'write_file', '--path', '../outside.txt', '--mode', 'full', '--json']);
    expect(r.code).toBe(2);
    expect(jsonLine(r.stdout)).toMatchObject({ decision: 'deny', mode: 'full' });
  });

  it('takes the mode from agent.terminal.default_mode when no --mode is given', async () => {
    const full = join(base, 'full.yaml');
    await writeFile(full, 'agent:\n  terminal:\n    default_mode: full\n');
    const r = await check(['--command', 'make', '--json'], full);
    expect(r.code).toBe(0);
    expect(jsonLine(r.stdout)).toMatchObject({ decision: 'allow', mode: 'full' });
  });

  it('answers bad input with one message and exit code 2, without a stack trace', async () => {
    const runs = await Promise.all([
      check([]),
      check(['--path', 'x']),
      check(['--path', 'x', '--tool', 'nope']),
      check(['--command', 'ls', '--allow', 'make && rm -rf x']),
    ]);
    const messages = [
      'give either --command',
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
});

describe('keel policy show', () => {
  it('prints the modes table as text', async () => {
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
    const r = await runKeel(['policy', 'show', '--json']);
    const table = JSON.parse(r.stdout) as {
      modes: string[];
      actions: { kind: string; restricted: string }[];
    };
    expect(table.modes).toEqual(['plan', 'interactive', 'restricted', 'auto', 'full']);
    expect(table.actions.find((a) => a.kind === 'delete-other')).toMatchObject({ restricted: 'deny' });
  });
});
