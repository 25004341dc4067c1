// Tests for the temp-file journal: write_file journals its temp file only until the rename, and a temp file left
// by a process killed before its rename is removed by the next run, while a live process's one is left alone.
import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { cleanStaleTempFiles, journalDir, TEMP_PREFIX } from '../../src/tools/temp-files.js';
import { writeFileTool as tool } from '../../src/tools/write-file.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

let ws: TestWorkspace;
let state: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  ws = await makeWorkspace();
  state = path.join(ws.base, 'state', 'keel');
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await ws.cleanup();
});

// The child runs the journal code itself: temp-files.ts bundled to plain JavaScript for a real `node` process.
let bundleDir: string;
let writer: string;

beforeAll(async () => {
  bundleDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-temp-journal-'));
  await build({
    entryPoints: [path.resolve(import.meta.dirname, '../../src/tools/temp-files.ts')],
    outfile: path.join(bundleDir, 'temp-files.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  writer = path.join(bundleDir, 'writer.mjs');
  // Creates a journaled temp file, says where, then hangs before the rename until killed.
  await fs.writeFile(
    writer,
    [
      "import { writeFile } from 'node:fs/promises';",
      "import { startTempFile } from './temp-files.mjs';",
      'const [target, stateDir] = process.argv.slice(2);',
      'const temp = await startTempFile(target, stateDir);',
      "await writeFile(temp.path, 'half written', { flag: 'wx' });",
      "process.stdout.write(temp.path + '\\n');",
      'setInterval(() => {}, 60_000);',
    ].join('\n'),
  );
});

afterAll(async () => {
  await fs.rm(bundleDir, { recursive: true, force: true });
});

/** Starts a writer child for `target` and resolves with it and its temp file once the temp file exists. */
function startWriter(target: string): Promise<{ child: ChildProcess; temp: string }> {
  const child = spawn(process.execPath, [writer, target, state], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.endsWith('\n')) resolve({ child, temp: out.trim() });
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('exit', (code) => reject(new Error(`writer exited early (${code}): ${err}`)));
  });
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const exists = (file: string) =>
  fs.lstat(file).then(
    () => true,
    () => false,
  );

describe('write_file with a state directory', () => {
  test('journals its temp file only until the rename, leaving nothing behind', async () => {
    const result = await tool.execute(tool.schema.parse({ path: 'src/a.txt', content: 'hello' }), {
      ...ws.ctx,
      stateDir: state,
    });
    expect(result.output).toBe('created src/a.txt (5 bytes)');
    expect(await ws.read('src/a.txt')).toBe('hello');
    expect(await fs.readdir(path.join(ws.root, 'src'))).toEqual(['a.txt']);
    expect(await fs.readdir(journalDir(state))).toEqual([]);
  });

  test('still writes when the state directory cannot be created', async () => {
    await fs.writeFile(path.join(ws.base, 'state'), 'a file where the state directory should be');
    await tool.execute(tool.schema.parse({ path: 'a.txt', content: 'x' }), { ...ws.ctx, stateDir: state });
    expect(await ws.read('a.txt')).toBe('x');
  });
});

describe('cleanStaleTempFiles', () => {
  test('removes the temp file of a process killed before its rename, and its journal entry', async () => {
    const { child, temp } = await startWriter(path.join(ws.root, 'notes.md'));
    expect(path.basename(temp)).toMatch(new RegExp(`^${TEMP_PREFIX}${child.pid}-[0-9a-f]{12}-notes\\.md$`));
    expect(path.dirname(temp)).toBe(ws.root);
    await kill(child);
    expect(await exists(temp)).toBe(true);

    expect(await cleanStaleTempFiles(state)).toBe(1);
    expect(await exists(temp)).toBe(false);
    expect(await fs.readdir(journalDir(state))).toEqual([]);
    expect(await fs.readdir(ws.root)).toEqual([]);
  });

  test('leaves a live process its temp file, and removes it once that process is killed', async () => {
    const live = await startWriter(path.join(ws.root, 'live.txt'));
    const dead = await startWriter(path.join(ws.root, 'dead.txt'));
    await kill(dead.child);

    expect(await cleanStaleTempFiles(state)).toBe(1);
    expect(await exists(live.temp)).toBe(true);
    expect(await exists(dead.temp)).toBe(false);
    expect(await fs.readdir(journalDir(state))).toHaveLength(1);

    await kill(live.child);
    expect(await cleanStaleTempFiles(state)).toBe(1);
    expect(await exists(live.temp)).toBe(false);
  });

  test('never removes a file the entry names unless it is that process’s temp file', async () => {
    const { child, temp } = await startWriter(path.join(ws.root, 'x.txt'));
    await kill(child);
    // An edited journal pointing the dead process's entry at a user's file.
    const [entry] = await fs.readdir(journalDir(state));
    const file = path.join(journalDir(state), entry!);
    const precious = path.join(ws.root, 'precious.txt');
    await fs.writeFile(precious, 'keep me');
    const record = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
    await fs.writeFile(file, JSON.stringify({ ...record, path: precious }));

    expect(await cleanStaleTempFiles(state)).toBe(0);
    expect(await fs.readFile(precious, 'utf8')).toBe('keep me');
    expect(await fs.readdir(journalDir(state))).toEqual([]);
    await fs.rm(temp);
  });

  test('does nothing when there is no journal yet', async () => {
    expect(await cleanStaleTempFiles(path.join(ws.base, 'no-state'))).toBe(0);
  });
});
