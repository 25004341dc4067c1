import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KEPT_SHOW_MS, keepShow, keptShow } from '../../src/providers/ollama-show-cache.js';

let base: string;
let env: NodeJS.ProcessEnv;
const root = 'http://user:secret@ollama.local:11434';
const show = { id: 'qwen3', contextWindow: 40960, tools: true, images: false, streaming: true };

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'keel-show-'));
  env = { HOME: base, XDG_CACHE_HOME: join(base, 'cache') };
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('the kept /api/show answers', () => {
  it('gives back what was kept for the same server and model only, with no address or name in the file', async () => {
    await keepShow(env, root, 'qwen3', show, 1000);
    expect(keptShow(env, root, 'qwen3', 2000)).toEqual(show);
    expect(keptShow(env, root, 'llama3', 2000)).toBeUndefined();
    expect(keptShow(env, 'http://localhost:11434', 'qwen3', 2000)).toBeUndefined();
    const file = await readFile(join(base, 'cache', 'keel', 'ollama-show.json'), 'utf8');
    expect(file).not.toMatch(/secret|ollama\.local|qwen3/);
  });

  it('keeps only what the server said (no tools field when it did not say)', async () => {
    await keepShow(env, root, 'old', { id: 'old', contextWindow: 2048, streaming: true }, 1000);
    expect(keptShow(env, root, 'old', 1000)).toEqual({ id: 'old', contextWindow: 2048, streaming: true });
  });

  it('forgets an answer older than a week, or from the future', async () => {
    await keepShow(env, root, 'qwen3', show, 1000);
    expect(keptShow(env, root, 'qwen3', 1000 + KEPT_SHOW_MS)).toEqual(show);
    expect(keptShow(env, root, 'qwen3', 1001 + KEPT_SHOW_MS)).toBeUndefined();
    expect(keptShow(env, root, 'qwen3', 999)).toBeUndefined();
  });

  it('reads nothing from a missing, unreadable or malformed file, and writes over it', async () => {
    expect(keptShow(env, root, 'qwen3')).toBeUndefined();
    const dir = join(base, 'cache', 'keel');
    await mkdir(dir, { recursive: true });
    for (const text of ['not json', '[1,2]', 'null', '{"x": 5}']) {
      await writeFile(join(dir, 'ollama-show.json'), text);
      expect(keptShow(env, root, 'qwen3')).toBeUndefined();
    }
    await keepShow(env, root, 'qwen3', show, 1000);
    expect(keptShow(env, root, 'qwen3', 1000)).toEqual(show);
  });

  it('keeps the 64 most recently asked models', async () => {
    for (let i = 0; i < 70; i++)
      await keepShow(env, root, `m${i}`, { id: `m${i}`, streaming: true }, 1000 + i);
    expect(keptShow(env, root, 'm5', 2000)).toBeUndefined();
    expect(keptShow(env, root, 'm6', 2000)).toEqual({ id: 'm6', streaming: true });
    expect(keptShow(env, root, 'm69', 2000)).toEqual({ id: 'm69', streaming: true });
  });

  it('never throws when the cache cannot be written', async () => {
    await writeFile(join(base, 'cache'), 'a file where the directory should be');
    await expect(keepShow(env, root, 'qwen3', show)).resolves.toBeUndefined();
    expect(keptShow(env, root, 'qwen3')).toBeUndefined();
  });
});
