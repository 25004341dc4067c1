// Servers that speak Ollama's /api/chat loosely: chunks without the metadata Ollama adds (model, created_at) still
// stream an answer, and a line that is no chat chunk at all fails with one clear message — never the provider
// library's schema dump on stderr. The failure runs the built binary: a library logging through console would reach
// its real stderr, which vitest's console capture would hide from a run in process.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runKeel } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';
import { useE2E } from '../support/e2e.js';

const { workspace, track } = useE2E();

/** A server answering /api/chat with these NDJSON lines, and /api/show with a model that has tools. */
async function looseServer(lines: object[]): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.includes('/api/show')) res.end(JSON.stringify({ capabilities: ['completion', 'tools'] }));
      else res.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  track(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const args = async (url: string) => [
  'run',
  '--base-url',
  url,
  '--model',
  'm',
  '--cwd',
  await workspace(),
  '--prompt',
  'hi',
];
const env = { KEEL_RETRY_BASE_MS: '5' };

describe('Ollama chunks from loose servers', () => {
  it('streams an answer from chunks without model or created_at', async () => {
    const url = await looseServer([
      { message: { role: 'assistant', content: 'Hello ' }, done: false },
      { message: { content: 'there.' }, done: true },
    ]);
    const r = await runCli(await args(url), { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('Hello there.');
    expect(r.stderr).not.toMatch(/ZodError|Failed to parse/);
  });

  it('fails with one clear message on a line that is not a chat chunk', async () => {
    const url = await looseServer([{ response: 'generate-style', done: true }]);
    const r = await runKeel(await args(url), { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('a response line is not an Ollama chat chunk (no done or message)');
    expect(r.stderr).not.toMatch(/ZodError|Failed to parse|\n\s+at /);
  });
});
