// A run's close waits for the code caches' writes under way: `keel run` exits as soon as the run closes, and a map
// cache cut short made the next run's map cold (5 s of CPU on 28k files).
import { describe, expect, it } from 'vitest';
import { settleCache } from '../../src/code/cache-writes.js';
import { assembleRun } from '../../src/runtime/assemble.js';
import { useTempHome } from '../support/assemble-in-process.js';
import { useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();
useTempHome();

describe('closing a run', () => {
  it('waits for a cache write begun in the background before it returns', async () => {
    const s = await server([{ text: 'done' }]);
    const ws = await workspace({ 'a.ts': 'export const a = 1;\n' });
    const run = await assembleRun({
      cwd: ws,
      flags: { provider: 'ollama', baseUrl: s.ollamaUrl, model: 'test-model' },
      mode: () => 'restricted',
      env: { ...process.env },
    });
    run.conversation.push({ role: 'user', content: 'map the code' });
    await run.run(new AbortController().signal);
    let written = false;
    // A large repository's cache is written after the map's answer: here, still under way as the run closes.
    void settleCache(async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      written = true;
    }, 10_000);
    await run.close();
    expect(written).toBe(true);
  });
});
