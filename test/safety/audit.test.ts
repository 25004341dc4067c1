// The audit consumer: one line per audited call in xzatoma's format, parsed back by `keel audit --json`.
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { AgentEvent, EventSink } from '../../src/core/events.js';
import { createAuditLog, parseAuditLine } from '../../src/safety/audit.js';
import { createRedactor } from '../../src/safety/redact.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function setup(env: NodeJS.ProcessEnv = {}) {
  const base = await mkdtemp(join(tmpdir(), 'keel-audit-'));
  dirs.push(base);
  const file = join(base, 'state', 'keel', 'audit.log');
  const errors: unknown[] = [];
  const sink = createAuditLog({
    file,
    cwd: '/work/app',
    redact: createRedactor(env),
    audited: (tool) => !['read_file', 'list_files', 'diff_files'].includes(tool),
    onError: (error) => errors.push(error),
  });
  return { file, sink, errors, lines: async () => (await readFile(file, 'utf8')).split('\n').slice(0, -1) };
}

let nextId = 0;
/** Feeds a tool_call and its tool_result (and events between) to the sink; resolves when the line is written. */
async function callTool(
  sink: EventSink,
  name: string,
  args: unknown,
  result: Partial<Extract<AgentEvent, { type: 'tool_result' }>>,
  between: (id: string) => AgentEvent[] = () => [],
): Promise<void> {
  const id = `c${++nextId}`;
  await sink({ type: 'tool_call', turn: 1, id, name, args });
  for (const event of between(id)) await sink(event);
  await sink({
    type: 'tool_result',
    turn: 1,
    id,
    name,
    success: true,
    display: '',
    truncated: false,
    metadata: {},
    duration_ms: 1240,
    ...result,
  });
}

const timestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('audit log', () => {
  test('writes a line of its own for what the tripwire put back after a call', async () => {
    const { sink, lines } = await setup();
    await callTool(
      sink,
      'execute_command',
      { command: 'sh build.sh' },
      { metadata: { exit_code: 0, tripwire: '.keel.yaml (created; removed again)' } },
    );
    const [call, tripwire] = await lines();
    expect(parseAuditLine(call ?? '')).toMatchObject({ action: 'sh build.sh', exit: 0 });
    expect(parseAuditLine(tripwire ?? '')).toMatchObject({
      cwd: '/work/app',
      action: 'tripwire after execute_command: .keel.yaml (created; removed again)',
      exit: null,
    });
    expect(tripwire).toContain(' | restored | 0.00s');
  });

  test('writes commands and file changes, run or refused, one line each, and skips read-only tools', async () => {
    const { sink, lines, file } = await setup();
    await callTool(sink, 'execute_command', { command: 'npm test' }, { metadata: { exit_code: 0 } });
    await callTool(sink, 'read_file', { path: 'a.ts' }, {});
    await callTool(sink, 'write_file', { path: 'src/a.ts', content: 'secret body' }, { duration_ms: 5 });
    await callTool(sink, 'delete_path', { path: 'build/' }, {});
    await callTool(
      sink,
      'execute_command',
      { command: 'false' },
      { success: false, metadata: { exit_code: 1 } },
    );
    await callTool(
      sink,
      'execute_command',
      { command: 'rm -rf ~' },
      {
        success: false,
        error: 'refused by policy: `rm -rf ~` is refused in every mode',
        metadata: { policy: 'deny' },
      },
    );
    await callTool(
      sink,
      'execute_command',
      { command: 'touch x' },
      {
        success: false,
        error: 'the user declined this execute_command call',
        metadata: { policy: 'declined' },
      },
    );
    const written = await lines();
    expect(written).toHaveLength(6);
    const fields = written.map((line) => line.split(' | '));
    for (const f of fields) {
      expect(f[0]).toMatch(timestamp);
      expect(f[1]).toBe('/work/app');
    }
    expect(fields.map((f) => f.slice(2))).toEqual([
      ['npm test', 'exit:0', '1.24s'],
      ['write_file src/a.ts', 'exit:0', '0.01s'],
      ['delete_path build/', 'exit:0', '1.24s'],
      ['false', 'exit:1', '1.24s'],
      ['rm -rf ~', 'refused: `rm -rf ~` is refused in every mode', '1.24s'],
      ['touch x', 'refused: declined by the user', '1.24s'],
    ]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(file, '..'))).mode & 0o777).toBe(0o700);
  });

  test('logs the command the user edited, not the one the model proposed', async () => {
    const { sink, lines } = await setup();
    await callTool(
      sink,
      'execute_command',
      { command: 'rm -rf build' },
      { metadata: { exit_code: 0 } },
      (id) => [
        {
          type: 'approval_answered',
          id,
          approved: false,
          decision: 'edit',
          edited: { command: 'rm -rf build/tmp' },
        },
      ],
    );
    expect((await lines())[0]).toContain(' | rm -rf build/tmp | exit:0 | ');
  });

  test('keeps one action on one line, and parses back fields holding pipes', async () => {
    const { sink, lines } = await setup();
    await callTool(
      sink,
      'execute_command',
      { command: 'cat a | grep b\necho "x\x1b[2J"' },
      { metadata: { exit_code: 0 } },
    );
    await callTool(
      sink,
      'execute_command',
      { command: 'curl x | sh' },
      {
        success: false,
        error: 'refused by policy: `curl x | sh` pipes into a shell',
        metadata: { policy: 'deny' },
      },
    );
    const [first, second] = await lines();
    expect(first).toContain(' | cat a | grep b\\necho "x\\x1b[2J" | exit:0 | 1.24s');
    expect(parseAuditLine(first!)).toEqual({
      time: expect.stringMatching(timestamp),
      cwd: '/work/app',
      action: 'cat a | grep b\\necho "x\\x1b[2J"',
      exit: 0,
      duration_ms: 1240,
    });
    expect(second).toContain(' | curl x | sh | refused: `curl x \\| sh` pipes into a shell | 1.24s');
    expect(parseAuditLine(second!)).toMatchObject({
      action: 'curl x | sh',
      exit: null,
      refused: '`curl x | sh` pipes into a shell',
    });
  });

  test('redacts secrets in every field before writing', async () => {
    const { sink, lines, file } = await setup({ SERVICE_TOKEN: 'hunter2hunter2' });
    await callTool(
      sink,
      'execute_command',
      { command: 'echo sk-live-0123456789abcdef && curl -H "Authorization: Bearer hunter2hunter2" x' },
      { success: false, error: 'command exited with code 7: hunter2hunter2', metadata: {} },
    );
    const [line] = await lines();
    expect(line).toContain(
      ' | echo sk-[REDACTED] && curl -H "Authorization: [REDACTED]" x | failed: command exited with code 7: [REDACTED] | ',
    );
    expect(await readFile(file, 'utf8')).not.toMatch(/hunter2|0123456789abcdef/);
  });

  test('a log that cannot be written is reported once and does not fail the run', async () => {
    const { file, errors } = await setup();
    // A file where the log's directory should be.
    await mkdir(join(file, '..', '..'), { recursive: true });
    await writeFile(join(file, '..'), 'not a directory');
    const blocked = createAuditLog({
      file,
      cwd: '/',
      redact: (t) => t,
      audited: () => true,
      onError: (error) => errors.push(error),
    });
    await callTool(blocked, 'execute_command', { command: 'a' }, {});
    await callTool(blocked, 'execute_command', { command: 'b' }, {});
    expect(errors).toHaveLength(1);
  });
});
