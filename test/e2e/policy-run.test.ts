// The policy in real runs against the scripted model server: a restricted run refuses a command and a delete (their
// side effects never happen) and tells the model how to allow them; --allow lets a command through; an auto run runs
// commands in the sandbox, which keeps their writes inside the workspace. The runs are assembled in-process as keel
// run assembles them; the built binary runs once, for --mode and repeated --allow flags reaching the policy.
import { access, chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseMode } from '../../src/cli/mode-options.js';
import { ExitCode, UsageError } from '../../src/core/errors.js';
import { runAgent } from '../support/agent-in-process.js';
import { runOllama, toolMessages, useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();

/** A workspace whose build.sh writes a canary file: the command's side effect a refusal must prevent. */
async function buildWorkspace(): Promise<string> {
  const ws = await workspace({ 'build.sh': '#!/bin/sh\necho built > canary.txt\n', 'src/a.ts': 'a\n' });
  await chmod(join(ws, 'build.sh'), 0o755);
  return ws;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('keel run and the policy', () => {
  it('refuses a command outside the read-only set in a restricted run, and says which rule would allow it', async () => {
    const ws = await buildWorkspace();
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: './build.sh' } }] },
      { text: 'could not build' },
    ]);
    const r = await runAgent(s, ws, 'build it', { mode: 'restricted' });
    expect(r.result.reason).toBe('done');
    expect(await exists(join(ws, 'canary.txt'))).toBe(false);
    const refused = toolMessages(s.requests[1]!.body)[0];
    expect(refused).toMatch(/^Error: refused by policy: `\.\/build\.sh` is not a read-only command/);
    expect(refused).toContain(
      'to allow it: add "./build.sh" to safety.commands.allow, pass --allow "./build.sh", or use --mode full',
    );
  });

  it('the binary runs the command when --allow names it, and only that command', async () => {
    const ws = await buildWorkspace();
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: './build.sh' } }] },
      { toolCalls: [{ name: 'execute_command', args: { command: './build.sh && touch other.txt' } }] },
      { text: 'built' },
    ]);
    const r = await runOllama(s, ws, [
      '--mode',
      'restricted',
      '--allow',
      './build.sh',
      '--allow',
      'true',
      '--prompt',
      'build it',
    ]);
    expect(r.code).toBe(0);
    expect(await readFile(join(ws, 'canary.txt'), 'utf8')).toBe('built\n');
    expect(toolMessages(s.requests[1]!.body)[0]).toContain('exit code: 0');
    expect(toolMessages(s.requests[2]!.body).at(-1)).toMatch(/refused by policy: `touch other.txt`/);
    expect(await exists(join(ws, 'other.txt'))).toBe(false);
  });

  it('takes allow rules from safety.commands.allow in the config', async () => {
    const ws = await buildWorkspace();
    const config = join(ws, '..', `${ws.split('/').pop()}-config.yaml`);
    await writeFile(config, 'safety:\n  commands:\n    allow: ["./build.sh"]\n');
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: './build.sh' } }] },
      { text: 'built' },
    ]);
    const r = await runAgent(s, ws, 'build it', { configFile: config, mode: 'restricted' });
    expect(r.result.reason).toBe('done');
    expect(await readFile(join(ws, 'canary.txt'), 'utf8')).toBe('built\n');
  });

  it('refuses in a restricted run to delete a directory or a file it did not create, but deletes its own', async () => {
    const ws = await buildWorkspace();
    const s = await server([
      {
        toolCalls: [
          { name: 'delete_path', args: { path: 'src', recursive: true } },
          { name: 'delete_path', args: { path: 'build.sh' } },
          { name: 'write_file', args: { path: 'scratch.txt', content: 'tmp' } },
        ],
      },
      { toolCalls: [{ name: 'delete_path', args: { path: 'scratch.txt' } }] },
      { text: 'done' },
    ]);
    const r = await runAgent(s, ws, 'clean up', { mode: 'restricted' });
    expect(r.result.reason).toBe('done');
    expect(await readFile(join(ws, 'src/a.ts'), 'utf8')).toBe('a\n');
    expect(await exists(join(ws, 'build.sh'))).toBe(true);
    const [dir, file] = toolMessages(s.requests[1]!.body);
    expect(dir).toContain('refused by policy: delete_path deletes the directory src');
    expect(file).toContain('which this run did not create');
    expect(dir).toContain('--mode full');
    expect(toolMessages(s.requests[2]!.body).at(-1)).toBe('deleted scratch.txt');
    expect(await exists(join(ws, 'scratch.txt'))).toBe(false);
  });

  it('refuses a write to .git/hooks in full mode when nobody can approve it', async () => {
    const ws = await buildWorkspace();
    const s = await server([
      {
        toolCalls: [{ name: 'write_file', args: { path: '.git/hooks/pre-commit', content: '#!/bin/sh\n' } }],
      },
      { text: 'ok' },
    ]);
    const r = await runAgent(s, ws, 'add a hook', { mode: 'full' });
    expect(r.result.reason).toBe('done');
    expect(await exists(join(ws, '.git/hooks/pre-commit'))).toBe(false);
    const refused = toolMessages(s.requests[1]!.body)[0];
    expect(refused).toContain('which is protected');
    expect(refused).toContain('cannot ask for approval; to allow it: ');
  });

  it('offers no shell tool when safety.allow_command_execution is false', async () => {
    const ws = await buildWorkspace();
    const config = join(ws, '..', `${ws.split('/').pop()}-noexec.yaml`);
    await writeFile(config, 'safety:\n  allow_command_execution: false\n');
    const s = await server([{ text: 'fine' }]);
    const r = await runAgent(s, ws, 'hi', { configFile: config, mode: 'full' });
    expect(r.result.reason).toBe('done');
    const tools = (s.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(tools).toContain('read_file');
    expect(tools).not.toContain('execute_command');
    expect(s.requests[0]!.rawBody).not.toContain('execute_command runs');
  });

  it('refuses --mode with a contradicting --allow-dangerous as a usage error (exit 2)', () => {
    const contradiction = () =>
      chooseMode({ mode: 'restricted', allowDangerous: true }, undefined, 'restricted');
    expect(contradiction).toThrow(UsageError);
    expect(contradiction).toThrow('--allow-dangerous means --mode full');
    try {
      contradiction();
    } catch (error) {
      expect((error as UsageError).exitCode).toBe(ExitCode.usage);
    }
  });
});

describe('keel run in auto mode', () => {
  it('runs commands beyond the read-only set without asking, inside the sandbox: a write outside the workspace fails', async () => {
    const ws = await workspace({
      // What the policy sees is `sh escape.sh`; what the script does is the sandbox's to contain.
      'escape.sh': 'echo ok > out.txt\ntouch ../escaped.txt\ntouch "$HOME/escaped.txt"\necho done\n',
    });
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: 'touch made.txt' } }] },
      { toolCalls: [{ name: 'execute_command', args: { command: 'sh escape.sh' } }] },
      { text: 'finished' },
    ]);
    const r = await runAgent(s, ws, 'make things', { mode: 'auto' });
    expect(r.result.reason).toBe('done');
    expect(r.warnings).toEqual([]);
    expect(toolMessages(s.requests[1]!.body)[0]).toContain('exit code: 0');
    expect(await exists(join(ws, 'made.txt'))).toBe(true);
    expect(await readFile(join(ws, 'out.txt'), 'utf8')).toBe('ok\n');
    const escaped = toolMessages(s.requests[2]!.body).at(-1);
    expect(escaped).toMatch(/Read-only file system/);
    expect(escaped).toContain('done');
    expect(await exists(join(ws, '..', 'escaped.txt'))).toBe(false);
  });
});
