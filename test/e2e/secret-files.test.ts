// Secret files in a run: what `cat .env` may not show, read_file, grep and copy_path do not hand the model either, so it
// reaches neither the model's requests nor the session on disk. The whole command line in process, against the
// scripted model server.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-in-process.js';
import { useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });
const CANARY = 'canary-value-4e1d';

/** Every file's text under dir. */
async function allText(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true }).catch(() => []);
  const texts = await Promise.all(
    entries.map(async (entry) => {
      const file = join(dir, entry);
      return (await stat(file)).isFile() ? readFile(file, 'utf8') : '';
    }),
  );
  return texts.join('\n');
}

describe('secret files in a run', () => {
  it('read_file, grep and copy_path never return .env or a key to the model or the session, in full mode', async () => {
    const ws = await workspace({
      '.env': `DB=${CANARY}\n`,
      'deploy/server.pem': `${CANARY}\n`,
      'src/app.ts': `export const db = process.env.DB; // not ${'canary'}\n`,
    });
    const home = await workspace({});
    const s = await server([
      call('execute_command', { command: 'cat .env' }),
      call('read_file', { path: '.env' }),
      call('read_file', { path: 'deploy/server.pem' }),
      call('grep', { pattern: 'canary' }),
      call('copy_path', { source: '.env', destination: 'env.txt' }),
      { text: 'done' },
    ]);
    const r = await runCli(
      ['run', '--base-url', s.ollamaUrl, '--cwd', ws, '--mode', 'full', '--no-sandbox', '-p', 'go'],
      { env: { HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_STATE_HOME: join(home, 'state') } },
    );
    expect(r.code, r.stderr).toBe(0);
    const sent = JSON.stringify(s.requests.map((q) => q.body));
    expect(sent).not.toContain(CANARY);
    expect(sent).toContain('secret location');
    expect(sent).toContain('[not searched: .env, deploy/server.pem');
    expect(sent).toContain('src/app.ts');
    const kept = await allText(home);
    expect(kept).toContain('secret location');
    expect(kept).not.toContain(CANARY);
    await expect(stat(join(ws, 'env.txt'))).rejects.toThrow();
  });
});
