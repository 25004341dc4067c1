// The checkpoint side of /rewind --files and /undo on real git: the checkpoint holding the workspace as it was
// when a message was sent, and the user's /save exports kept through any restore.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCheckpointStore } from '../../src/checkpoint/checkpointer.js';
import { type Checkpoint, checkpointSince } from '../../src/checkpoint/checkpoints.js';
import { keepUserFile, restoreKeepingUserFiles } from '../../src/checkpoint/user-files.js';
import { shellCheckpointer, shellGit } from '../support/small-shell.js';

const at = (time: string, id: string) => ({ id, time }) as Checkpoint;

describe('checkpointSince', () => {
  // Newest first, as stores list them.
  const list = [
    at('2026-01-01T00:00:30.000Z', 'c3'),
    at('2026-01-01T00:00:20.000Z', 'c2'),
    at('2026-01-01T00:00:10.000Z', 'c1'),
  ];
  it.each([
    ['before every checkpoint: the oldest', '2026-01-01T00:00:05.000Z', 'c1'],
    ['between two: the later one', '2026-01-01T00:00:15.000Z', 'c2'],
    ['at one: that one', '2026-01-01T00:00:20.000Z', 'c2'],
    ['after the newest: none (Keel changed nothing since)', '2026-01-01T00:00:35.000Z', undefined],
  ])('a message sent %s', (_, time, id) => {
    expect(checkpointSince(list, time)?.id).toBe(id);
  });
});

describe('files back to before a message, on real git', () => {
  let root: string;
  let stateDir: string;
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'keel-rw-ws-')));
    stateDir = await realpath(await mkdtemp(join(tmpdir(), 'keel-rw-state-')));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(stateDir, { recursive: true, force: true });
  });

  it('restores the files of two turns back, and a /save export made since stays as it is', async () => {
    await fs.writeFile(join(root, 'a.txt'), 'zero\n');
    const checkpointer = shellCheckpointer(root, stateDir);
    const change = async (run: string, content: string) => {
      checkpointer.startRun(run, 'session-1');
      const wrote = await checkpointer.take({
        callId: run,
        tool: 'write_file',
        preview: { reads: [], writes: [join(root, 'a.txt')], summary: 'write a.txt' },
      });
      await fs.writeFile(join(root, 'a.txt'), content);
      await wrote();
      await checkpointer.settle();
    };
    const firstMessage = new Date().toISOString();
    await change('run-1', 'one\n');
    await change('run-2', 'two\n');
    await fs.writeFile(join(root, 'export.md'), '# the session\n');
    await keepUserFile(stateDir, root, join(root, 'export.md'));
    await keepUserFile(stateDir, root, join(tmpdir(), 'outside.md'));
    const store = await openCheckpointStore({ root, stateDir, env: process.env, startGit: shellGit });
    const checkpoints = await store.list();
    expect(checkpoints.every((c) => c.session === 'session-1')).toBe(true);
    const target = checkpointSince(checkpoints, firstMessage)!;
    const result = await restoreKeepingUserFiles(store, target, 'undo-1', { stateDir, root });
    expect(await fs.readFile(join(root, 'a.txt'), 'utf8')).toBe('zero\n');
    expect(await fs.readFile(join(root, 'export.md'), 'utf8')).toBe('# the session\n');
    expect(result.changes.map((c) => c.path)).toEqual(['a.txt']);
  });
});
