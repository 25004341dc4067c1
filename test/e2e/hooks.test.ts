// Hooks from config in runs assembled in-process as keel run assembles them, against the scripted model server: a
// pre_tool hook exiting 2 blocks the call (its stderr reaches the model), post_tool gets the result, session_start
// and stop run, a failing hook is a warning, a hanging one is killed at its timeout; `keel policy show` lists them.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyShowCommand } from '../../src/cli/policy-command.js';
import { captureOutput, runInProcess, useTempHome, warningsOf } from '../support/assemble-in-process.js';
import { toolMessages, useE2E } from '../support/e2e.js';

const { server, workspace, removeLater } = useE2E();
useTempHome();

const CONFIG = `
hooks:
  session_start:
    - command: cat > "$HOOK_LOG/start.json"
  pre_tool:
    - match: "write_*"
      command: cat > "$HOOK_LOG/pre.json"; echo "writes are frozen today" >&2; exit 2
    - match: grep
      command: echo "lint unavailable" >&2; exit 1
    - match: glob
      command: sleep 300 & echo $! > "$HOOK_LOG/sleep.pid"; wait
      timeout_seconds: 1
  post_tool:
    - match: read_file
      command: cat > "$HOOK_LOG/post.json"
  stop:
    - command: cat > "$HOOK_LOG/stop.json"; echo "$KEEL_HOOK_EVENT" > "$HOOK_LOG/stop.env"
`;

async function setup(): Promise<{ ws: string; config: string; log: string }> {
  const ws = await workspace({ 'src/a.ts': 'export const a = 1;\n' });
  const log = await mkdtemp(join(tmpdir(), 'keel-hooks-'));
  removeLater(log);
  const config = join(log, 'config.yaml');
  await writeFile(config, CONFIG);
  return { ws, config, log };
}

const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;

/** A process is gone, or a zombie nobody reaped yet (it runs nothing either way). */
async function gone(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat === undefined || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

describe('hooks', () => {
  it('blocks a call when a pre_tool hook exits 2, its stderr the reason the model reads', async () => {
    const { ws, config, log } = await setup();
    const s = await server([
      {
        toolCalls: [
          { name: 'write_file', args: { path: 'new.txt', content: 'x' } },
          { name: 'read_file', args: { path: 'src/a.ts' } },
        ],
      },
      { text: 'done' },
    ]);
    const r = await runInProcess(s, ws, 'go', { config, extraEnv: { HOOK_LOG: log } });
    expect(r.result.reason).toBe('done');
    const [blocked, read] = toolMessages(s.requests[1]!.body);
    expect(blocked).toBe('Error: blocked by a pre_tool hook: writes are frozen today');
    await expect(readFile(join(ws, 'new.txt'))).rejects.toThrow();
    expect(read).toContain('export const a = 1;');

    const pre = await readJson(join(log, 'pre.json'));
    expect(pre).toMatchObject({
      event: 'pre_tool',
      tool: 'write_file',
      args: { path: 'new.txt', content: 'x' },
    });
    expect(pre.workspace).toBe(await import('node:fs/promises').then((fs) => fs.realpath(ws)));
    const post = await readJson(join(log, 'post.json'));
    expect(post).toMatchObject({ event: 'post_tool', tool: 'read_file', result: { success: true } });
    expect((post.result as { output: string }).output).toContain('export const a = 1;');
    expect(post.session_id).toBe(pre.session_id);

    const start = await readJson(join(log, 'start.json'));
    expect(start).toMatchObject({ event: 'session_start', session_id: pre.session_id });
    expect(await readJson(join(log, 'stop.json'))).toMatchObject({ event: 'stop', reason: 'done', turns: 2 });
    expect((await readFile(join(log, 'stop.env'), 'utf8')).trim()).toBe('stop');
  });

  it('warns when a hook fails otherwise, and kills a hanging hook at its timeout; the calls go on', async () => {
    const { ws, config, log } = await setup();
    const s = await server([
      {
        toolCalls: [
          { name: 'grep', args: { pattern: 'const' } },
          { name: 'glob', args: { pattern: 'src/*.ts' } },
        ],
      },
      { text: 'done' },
    ]);
    const r = await runInProcess(s, ws, 'go', { config, extraEnv: { HOOK_LOG: log } });
    expect(r.result.reason).toBe('done');
    const [grep, glob] = toolMessages(s.requests[1]!.body);
    expect(grep).toContain('src/a.ts');
    expect(glob).toContain('src/a.ts');
    const warnings = warningsOf(r.events);
    expect(warnings).toContainEqual(
      expect.stringMatching(/pre_tool hook `echo "lint unavailable".*` exited with code 1: lint unavailable/),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(/pre_tool hook `sleep 300 .*` timed out after 1s and was killed/),
    );
    const pid = Number(await readFile(join(log, 'sleep.pid'), 'utf8'));
    expect(await gone(pid)).toBe(true);
  });

  it('ignores hooks from the project file of an untrusted folder, with a warning', async () => {
    const { ws, log } = await setup();
    await writeFile(
      join(ws, '.keel.yaml'),
      'hooks:\n  session_start:\n    - command: touch "$HOOK_LOG/ran"\n',
    );
    const s = await server([{ text: 'done' }]);
    const r = await runInProcess(s, ws, 'go', { extraEnv: { HOOK_LOG: log } });
    expect(r.result.reason).toBe('done');
    expect(warningsOf(r.events)).toContainEqual(expect.stringContaining('ignored hooks.session_start'));
    await expect(readFile(join(log, 'ran'))).rejects.toThrow();
  });

  it('runs the README example: a pre_tool hook refusing writes under migrations/', async () => {
    const ws = await workspace({});
    const config = `${ws}-readme.yaml`;
    removeLater(config);
    await writeFile(
      config,
      `hooks:
  pre_tool:
    - match: "write_*"
      command: 'if grep -q "\\"path\\":\\"migrations/"; then echo "migrations are generated: edit schema.sql" >&2; exit 2; fi'
`,
    );
    const s = await server([
      {
        toolCalls: [
          { name: 'write_file', args: { path: 'migrations/001.sql', content: 'x' } },
          { name: 'write_file', args: { path: 'schema.sql', content: 'y' } },
        ],
      },
      { text: 'done' },
    ]);
    const r = await runInProcess(s, ws, 'go', { config });
    expect(r.result.reason).toBe('done');
    const [refused, written] = toolMessages(s.requests[1]!.body);
    expect(refused).toBe('Error: blocked by a pre_tool hook: migrations are generated: edit schema.sql');
    expect(written).not.toMatch(/^Error/);
    expect(await readFile(join(ws, 'schema.sql'), 'utf8')).toBe('y');
  });

  it('runs session_start once per session: not again when a run takes over a session already started', async () => {
    const ws = await workspace({});
    const config = `${ws}-starts.yaml`;
    const log = `${ws}-starts.log`;
    removeLater(config);
    removeLater(log);
    await writeFile(config, `hooks:\n  session_start:\n    - command: echo "$KEEL_SESSION_ID" >> "${log}"\n`);
    const s = await server([{ text: 'one' }, { text: 'two' }]);
    const first = await runInProcess(s, ws, 'go', { config });
    const id = first.run.sessionId;
    expect(await readFile(log, 'utf8')).toBe(`${id}\n`);
    // The chat's /model: the same session, reassembled for another model.
    const next = await runInProcess(s, ws, 'go on', {
      config,
      session: { save: true, resume: id, started: true },
    });
    expect(next.result.reason).toBe('done');
    expect(next.run.sessionId).toBe(id);
    expect(await readFile(log, 'utf8')).toBe(`${id}\n`);
  });

  it('lists the hooks in keel policy show', async () => {
    const { ws, config } = await setup();
    const show = async (options: { config?: string; json?: boolean }) => {
      const out = captureOutput();
      expect(await policyShowCommand({ cwd: ws, output: 'text', ...options }, out)).toBe(0);
      return out.out;
    };
    const text = await show({ config });
    expect(text).toContain('Hooks (run without the policy; a pre_tool hook exiting 2 blocks the call):');
    expect(text).toMatch(/ {2}pre_tool \(config file .*config\.yaml:\d+\):\n {4}match write_\* {2}cat > /);
    expect(text).toMatch(/ {2}stop \(config file .*\):\n {4}cat > "\$HOOK_LOG\/stop\.json"/);
    const shown = JSON.parse(await show({ config, json: true })) as {
      hooks: Record<string, { match: string; timeout_seconds: number }[]>;
    };
    expect(shown.hooks.pre_tool?.[2]).toMatchObject({ match: 'glob', timeout_seconds: 1 });
    expect(await show({})).toContain('Hooks: none');
  });
});
