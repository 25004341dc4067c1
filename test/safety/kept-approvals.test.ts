// Approvals kept for a workspace (`A`): stored in Keel's state dir, private to the user, bound to the workspace's
// real path; a damaged or foreign file grants nothing.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalMemory, approvalBinding } from '../../src/safety/approval-memory.js';
import { KeptApprovals, keptApprovalsFile } from '../../src/safety/kept-approvals.js';

let state: string;
beforeAll(async () => {
  state = await mkdtemp(join(tmpdir(), 'keel-kept-'));
});
afterAll(async () => {
  await rm(state, { recursive: true, force: true });
});

describe('kept approvals', () => {
  it('cover the same command in a later chat of the same workspace, and no other command', async () => {
    const file = keptApprovalsFile(state, '/home/u/project');
    const binding = await approvalBinding('execute_command', { command: 'npm test', writes: [] });
    await new KeptApprovals(file, '/home/u/project').keep(binding, 'execute_command', 'npm test');
    const later = new ApprovalMemory(new KeptApprovals(file, '/home/u/project'));
    expect(await later.covers(binding)).toBe(true);
    const other = await approvalBinding('execute_command', { command: 'npm test; rm -rf x', writes: [] });
    expect(await later.covers(other)).toBe(false);
    expect(file.startsWith(join(state, 'approvals'))).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(state, 'approvals'))).mode & 0o777).toBe(0o700);
  });

  it('never cover another workspace, even given its file', async () => {
    const file = keptApprovalsFile(state, '/home/u/a');
    const binding = await approvalBinding('execute_command', { command: 'make', writes: [] });
    await new KeptApprovals(file, '/home/u/a').keep(binding, 'execute_command', 'make');
    expect(keptApprovalsFile(state, '/home/u/b')).not.toBe(file);
    expect(await new KeptApprovals(file, '/home/u/b').covers(binding)).toBe(false);
  });

  it('a damaged file grants nothing and is replaced by the next kept answer', async () => {
    const file = join(state, 'approvals', 'damaged.json');
    await writeFile(file, '{"workspace": "/w", "approvals": [{"key": 1}');
    const kept = new KeptApprovals(file, '/w');
    expect(await kept.list()).toEqual([]);
    await kept.keep({ key: 'k', scope: 's' }, 'write_file', 'write a.txt');
    expect(JSON.parse(await readFile(file, 'utf8')).approvals).toHaveLength(1);
  });
});
