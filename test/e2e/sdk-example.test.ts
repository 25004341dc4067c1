// The README's library example (examples/sdk.mjs), run as a user runs it: `import { createAgent } from 'keel'`
// resolves to the built package (dist/lib/index.js) through the package's exports, against the scripted model server.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolMessages, useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();
const example = resolve(import.meta.dirname, '../../examples/sdk.mjs');

describe('examples/sdk.mjs', () => {
  it('runs two turns of one conversation with its custom tool and a write canUseTool allowed', async () => {
    // The file exists, so writing it is a change the interactive mode puts to canUseTool.
    const ws = await workspace({ 'count.txt': '0\n' });
    const home = await workspace({});
    const s = await server([
      { toolCalls: [{ name: 'word_count', args: { text: 'the quick brown fox' } }] },
      { toolCalls: [{ name: 'write_file', args: { path: 'count.txt', content: '4\n' } }] },
      { text: 'Wrote 4.' },
      { text: 'I wrote 4 to count.txt.' },
    ]);
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      XDG_STATE_HOME: join(home, 'state'),
      KEEL_KEYRING: 'off',
      OLLAMA_HOST: s.ollamaUrl,
      KEEL_MODEL: 'test-model',
    };
    // spawnSync would block the server in this process: run it asynchronously.
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, [example, ws], { env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d));
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      child.on('close', (status: number | null) => done({ status, stdout, stderr }));
    });
    expect(r.stderr).toContain('asked: write count.txt');
    expect(r.status).toBe(0);
    expect(toolMessages(s.requests[1]!.body).at(-1)).toBe('4');
    expect(await readFile(join(ws, 'count.txt'), 'utf8')).toBe('4\n');
    expect(r.stdout).toContain('Wrote 4.\n[done after 3 turns]');
    expect(r.stdout).toContain('I wrote 4 to count.txt.\n[done after 1 turns]');
    expect(r.stdout).toMatch(/session: \d{8}-\d{6}-\d+/);
    expect(JSON.stringify(s.requests[3]!.body.messages)).toContain('Wrote 4.');
  });
});
