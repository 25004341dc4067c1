// A run (assembled in-process as keel run assembles it) removes the temp file a killed earlier run left in the
// workspace, and journals its own writes.
import { spawn } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../support/agent-in-process.js';
import { useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();

/** The id of a process that has exited, as a killed run's would be. */
function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => resolve(child.pid!));
  });
}

describe('temp files of a killed write', () => {
  it('are removed at the next start-up, and the run writes without leaving any', async () => {
    const ws = await workspace({ 'keep.txt': 'keep\n' });
    const stateHome = await workspace();
    const journal = join(stateHome, 'keel', 'temp-files');
    await mkdir(journal, { recursive: true });
    const id = `${await deadPid()}-0123456789ab`;
    const leftover = join(ws, `.keel-tmp-${id}-notes.md`);
    await writeFile(leftover, 'half written');
    await writeFile(join(journal, `${id}.json`), JSON.stringify({ host: hostname(), path: leftover }));

    const s = await server([
      { toolCalls: [{ name: 'write_file', args: { path: 'notes.md', content: 'done\n' } }] },
      { text: 'written' },
    ]);
    const r = await runAgent(s, ws, 'write notes', { mode: 'full', env: { XDG_STATE_HOME: stateHome } });
    expect(r.result.reason).toBe('done');
    expect((await readdir(ws)).sort()).toEqual(['keep.txt', 'notes.md']);
    expect(await readdir(journal)).toEqual([]);
  });
});
