// What the built CLI loads before a run's first model request: none of Node's heavy built-ins that request does not
// need (undici, web streams, node:crypto, node:child_process, node:v8) and no chunk (scripts/chunks.mjs). A preload
// records process.moduleLoadList when the request goes out; the run is the second in its home, as most are (the
// sandbox probe's answer is kept from the first).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keelBin, keelTestEnv } from '../support/cli.js';
import { type ModelServer, startModelServer } from '../support/model-server.js';

let home: string;
let server: ModelServer;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'keel-startup-'));
  server = await startModelServer({ script: [{ text: 'one' }, { text: 'two' }] });
});

afterAll(async () => {
  await server.close();
  await rm(home, { recursive: true, force: true });
});

/** Runs `keel run` in `home` with the preload; resolves with its exit code. */
function run(preload: string, out: string): Promise<number | null> {
  const args = ['run', '--provider', 'ollama', '--base-url', server.ollamaUrl, '--cwd', home];
  const env = { ...keelTestEnv(home, { checkpoints: true }), LOADED_OUT: out };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', preload, keelBin, ...args, '--prompt', 'hi'], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

describe('the built CLI before its first model request', () => {
  it('loads no heavy built-in it does not need, and no chunk', async () => {
    const preload = join(home, 'preload.cjs');
    await writeFile(
      preload,
      `const fs = require('node:fs');
const chunks = [];
const read = fs.readFileSync;
fs.readFileSync = function (path, ...rest) {
  if (String(path).includes('/chunks/')) chunks.push(String(path));
  return read.call(this, path, ...rest);
};
let done = false;
require('node:diagnostics_channel').subscribe('keel:http:request-sent', () => {
  if (done) return;
  done = true;
  fs.writeFileSync(process.env.LOADED_OUT, JSON.stringify({ modules: process.moduleLoadList, chunks }));
});
`,
    );
    expect(await run(preload, join(home, 'first.json'))).toBe(0);
    const out = join(home, 'second.json');
    expect(await run(preload, out)).toBe(0);
    const { modules, chunks } = JSON.parse(await readFile(out, 'utf8')) as {
      modules: string[];
      chunks: string[];
    };
    expect(modules).toContain('NativeModule http');
    const heavy = [
      'NativeModule internal/deps/undici/undici',
      'NativeModule internal/webstreams/readablestream',
      'NativeModule crypto',
      'NativeModule child_process',
      'NativeModule v8',
    ];
    expect(modules.filter((name) => heavy.includes(name))).toEqual([]);
    expect(chunks).toEqual([]);
  });
});
