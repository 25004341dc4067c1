// Ollama's /api/show answer kept between runs (providers/ollama-show-cache.ts), through Keel's command line in process
// against the scripted model server: a second run's first chat request does not wait for /api/show, which is asked
// again after it; a kept "no tools" never refuses a run by itself.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-in-process.js';
import { useE2E } from '../support/e2e.js';
import type { ModelServer } from '../support/model-server.js';

const { server, workspace } = useE2E();

/** An Ollama model whose /api/show reports no `tools` capability. */
const tinyModels = [
  { name: 'tiny:latest', architecture: 'gemma', contextLength: 8192, capabilities: ['completion'] },
];

const runTiny = (s: ModelServer, ws: string, env: Record<string, string>) =>
  runCli(['run', '--base-url', s.ollamaUrl, '--cwd', ws, '--model', 'tiny', '--prompt', 'hello'], { env });

/** The routes the server saw, once `count` /api/show requests have arrived (the kept answer's refresh is not awaited). */
async function routesAfterShows(s: ModelServer, count: number): Promise<string[]> {
  for (let i = 0; i < 200 && s.routes.filter((r) => r === 'POST /api/show').length < count; i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return s.routes.filter((r) => r === 'POST /api/show' || r === 'POST /api/chat');
}

describe('/api/show kept between runs', () => {
  it("answers a second run's first request from the first run's /api/show, asks it again after that request, and keeps no address", async () => {
    const ws = await workspace();
    const cache = await workspace();
    const s = await server({ ollamaModels: tinyModels, script: [{ text: 'one' }, { text: 'two' }] });
    const env = { XDG_CACHE_HOME: cache };

    const first = await runTiny(s, ws, env);
    expect(first.code).toBe(0);
    expect(await routesAfterShows(s, 1)).toEqual(['POST /api/show', 'POST /api/chat']);
    const kept = await readFile(join(cache, 'keel', 'ollama-show.json'), 'utf8');
    expect(kept).toContain('"tools":false');
    expect(kept).toContain('"contextWindow":8192');
    expect(kept).not.toContain('127.0.0.1');
    expect(kept).not.toContain('tiny');

    const second = await runTiny(s, ws, env);
    expect(second.code).toBe(0);
    // The chat request went first, and still as for a model without tools: none sent natively.
    expect(await routesAfterShows(s, 2)).toEqual([
      'POST /api/show',
      'POST /api/chat',
      'POST /api/chat',
      'POST /api/show',
    ]);
    expect(s.requests[1]!.body.tools ?? []).toEqual([]);
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain('<tool_call>');
  });

  it('asks /api/show first again when the kept answer is "no tools" and tool_protocol is native', async () => {
    const ws = await workspace();
    const cache = await workspace();
    const config = await workspace();
    await mkdir(join(config, 'keel'), { recursive: true });
    await writeFile(join(config, 'keel', 'config.yaml'), 'provider:\n  ollama:\n    tool_protocol: native\n');
    const s = await server({ ollamaModels: tinyModels, script: [] });
    const env = { XDG_CACHE_HOME: cache, XDG_CONFIG_HOME: config };

    for (const run of [1, 2]) {
      const r = await runTiny(s, ws, env);
      expect(r.code, `run ${run}`).not.toBe(0);
      expect(r.stderr).toMatch(/model "tiny" does not support tools/);
    }
    expect(await routesAfterShows(s, 2)).toEqual(['POST /api/show', 'POST /api/show']);
  });
});
