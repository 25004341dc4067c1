// Hooks in-process: glob matching of tool names, and the JSON event a real hook process reads on stdin.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/events.js';
import { createHooks, hookMatches } from '../../src/extend/hooks.js';

describe('hookMatches', () => {
  it.each([
    ['*', 'read_file', true],
    ['write_*', 'write_file', true],
    ['write_*', 'read_file', false],
    ['read_fil?', 'read_file', true],
    ['mcp__*', 'mcp__fs__read', true],
    ['read.file', 'read_file', false],
    ['grep', 'grep', true],
  ])('%s matches %s: %s', (pattern, tool, expected) => {
    expect(hookMatches(pattern, tool)).toBe(expected);
  });
});

describe('createHooks', () => {
  it('is undefined when no hook is configured', () => {
    const none = { pre_tool: [], post_tool: [], session_start: [], stop: [] };
    expect(createHooks(none, { workspace: '/', sessionId: 's', env: {}, emit: () => {} })).toBeUndefined();
  });

  it('runs only matching hooks, in order, until one blocks', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keel-hook-'));
    try {
      const events: AgentEvent[] = [];
      const hook = (match: string, command: string) => ({ match, command, timeout_seconds: 10 });
      const hooks = createHooks(
        {
          pre_tool: [
            hook('read_*', `cat >> ${dir}/log`),
            hook('*', 'echo no >&2; exit 2'),
            hook('*', `touch ${dir}/after-block`),
          ],
          post_tool: [],
          session_start: [],
          stop: [],
        },
        { workspace: dir, sessionId: 'sid', env: { PATH: process.env.PATH }, emit: (e) => events.push(e) },
      )!;
      const signal = new AbortController().signal;
      expect(await hooks.beforeTool({ id: 'c1', tool: 'read_file', args: { path: 'a' } }, signal)).toBe('no');
      expect(await hooks.beforeTool({ id: 'c2', tool: 'grep', args: {} }, signal)).toBe('no');
      const logged = (await readFile(join(dir, 'log'), 'utf8')).trim().split('\n');
      expect(logged.map((line) => JSON.parse(line))).toEqual([
        {
          event: 'pre_tool',
          session_id: 'sid',
          workspace: dir,
          tool: 'read_file',
          call_id: 'c1',
          args: { path: 'a' },
        },
      ]);
      await expect(readFile(join(dir, 'after-block'))).rejects.toThrow();
      expect(events).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
