// npm run bench: Keel's start-up time, time from launch to the first model request, the chat's time to its
// first prompt in a terminal, whole-task time,
// request sizes and peak memory for a scripted 3-step task against the scripted model server (medians), the
// time of a checkpoint of a 10,000-file workspace after a one-file change, and Keel's grep tool over a large real
// tree against rg run directly with the same arguments.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleModule, median, startCheckpointer } from './lib.mjs';

const root = resolve(import.meta.dirname, '..');
const keel = join(root, 'dist/keel.js');
const runs = Number(process.env.BENCH_RUNS ?? 7);
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

// The scripted model server is TypeScript test support, the checkpointer TypeScript source; bundle them for this script.
const bundleDir = await mkdtemp(join(tmpdir(), 'keel-bench-'));
const bundle = (entry, name) => bundleModule({ root, entry, outfile: join(bundleDir, name) });
const { startModelServer } = await bundle('test/support/model-server.ts', 'model-server.mjs');
const { createCheckpointer } = await bundle('src/checkpoint/checkpointer.ts', 'checkpointer.mjs');

function spawnTimed(args, options = {}) {
  return new Promise((resolvePromise, reject) => {
    const command = timeBin ? timeBin : process.execPath;
    const argv = timeBin ? ['-f', 'KEEL_BENCH_MAXRSS=%M', process.execPath, keel, ...args] : [keel, ...args];
    const started = performance.now();
    const startedAt = Date.now();
    const child = spawn(command, argv, {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const rss = /KEEL_BENCH_MAXRSS=(\d+)/.exec(stderr)?.[1];
      resolvePromise({
        code,
        ms: performance.now() - started,
        startedAt,
        maxRssKb: rss ? Number(rss) : undefined,
        stderr,
      });
    });
  });
}

const versionTimes = [];
for (let i = 0; i < runs; i++) versionTimes.push((await spawnTimed(['--version'])).ms);

const script = () => [
  { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
  { toolCalls: [{ name: 'write_file', args: { path: 'NOTES_UPPER.txt', content: 'BUY MILK\nCALL BOB\n' } }] },
  { text: 'done' },
];

const firstRequest = [];
const whole = [];
const rss = [];
let firstKb = 0;
let totalKb = 0;
for (let i = 0; i < runs; i++) {
  const ws = await mkdtemp(join(tmpdir(), 'keel-bench-ws-'));
  await writeFile(join(ws, 'notes.txt'), 'buy milk\ncall bob\n');
  const server = await startModelServer({ script: script() });
  try {
    const r = await spawnTimed(
      [
        'run',
        '--provider',
        'ollama',
        '--base-url',
        server.ollamaUrl,
        '--cwd',
        ws,
        '--prompt',
        'Read notes.txt and write NOTES_UPPER.txt with its text in upper case.',
      ],
      { cwd: ws },
    );
    if (r.code !== 0 || (await readFile(join(ws, 'NOTES_UPPER.txt'), 'utf8')) === '')
      throw new Error(`bench run failed (exit ${r.code}): ${r.stderr}`);
    firstRequest.push(server.requests[0].receivedAt - r.startedAt);
    whole.push(r.ms);
    if (r.maxRssKb) rss.push(r.maxRssKb / 1024);
    firstKb = Buffer.byteLength(server.requests[0].rawBody) / 1000;
    totalKb = server.requests.reduce((sum, q) => sum + Buffer.byteLength(q.rawBody), 0) / 1000;
  } finally {
    await server.close();
    await rm(ws, { recursive: true, force: true });
  }
}
// The first request with every default tool: a message the intent classifier cannot read gets every group.
let everyToolKb = 0;
{
  const ws = await mkdtemp(join(tmpdir(), 'keel-bench-ws-'));
  const server = await startModelServer({ script: [{ text: 'hello' }] });
  try {
    const r = await spawnTimed(
      ['run', '--provider', 'ollama', '--base-url', server.ollamaUrl, '--cwd', ws, '--prompt', 'hello'],
      { cwd: ws },
    );
    if (r.code !== 0) throw new Error(`bench run failed (exit ${r.code}): ${r.stderr}`);
    everyToolKb = Buffer.byteLength(server.requests[0].rawBody) / 1000;
  } finally {
    await server.close();
    await rm(ws, { recursive: true, force: true });
  }
}
// `keel chat` in a terminal (a pty from script(1)): launch → the prompt glyph on screen; then Ctrl-D ends it.
const chatPrompt = [];
const hasScript = existsSync('/usr/bin/script');
if (hasScript) {
  const server = await startModelServer({ script: [] });
  const ws = await mkdtemp(join(tmpdir(), 'keel-bench-chat-'));
  const home = await mkdtemp(join(tmpdir(), 'keel-bench-home-'));
  const quote = (a) => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, keel, 'chat', '--base-url', server.ollamaUrl, '--cwd', ws]
    .map(quote)
    .join(' ');
  try {
    for (let i = 0; i < runs; i++) {
      chatPrompt.push(
        await new Promise((resolvePromise, reject) => {
          const started = performance.now();
          const child = spawn('script', ['-qfc', command, '/dev/null'], {
            env: {
              ...process.env,
              HOME: home,
              XDG_STATE_HOME: join(home, 'state'),
              XDG_DATA_HOME: join(home, 'data'),
            },
            stdio: ['pipe', 'pipe', 'ignore'],
          });
          let screen = '';
          let ms;
          child.stdout.on('data', (d) => {
            screen += d;
            if (ms === undefined && screen.includes('› ')) {
              ms = performance.now() - started;
              child.stdin.write('\x04');
            }
          });
          child.on('error', reject);
          child.on('close', () =>
            ms === undefined
              ? reject(new Error(`chat never showed its prompt:\n${screen}`))
              : resolvePromise(ms),
          );
        }),
      );
    }
  } finally {
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
}

// A checkpoint of a 10,000-file workspace (100 directories of 100 files) after one file changed: what every
// mutating tool call pays before it runs.
const checkpointTimes = [];
{
  const ws = await mkdtemp(join(tmpdir(), 'keel-bench-cp-'));
  const state = await mkdtemp(join(tmpdir(), 'keel-bench-state-'));
  for (let d = 0; d < 100; d++) {
    await mkdir(join(ws, `d${d}`));
    await Promise.all(
      Array.from({ length: 100 }, (_, f) =>
        writeFile(join(ws, `d${d}`, `f${f}.ts`), `export const v${f} = ${d};\n`),
      ),
    );
  }
  const checkpointer = startCheckpointer(createCheckpointer, ws, state);
  const take = (i) =>
    checkpointer.take({
      callId: `c${i}`,
      tool: 'write_file',
      preview: { reads: [], writes: [], summary: 'bench' },
    });
  await take(0);
  for (let i = 1; i <= runs; i++) {
    await writeFile(join(ws, `d${i}`, 'f1.ts'), `export const changed = ${i};\n`);
    const started = performance.now();
    await take(i);
    checkpointTimes.push(performance.now() - started);
  }
  await rm(ws, { recursive: true, force: true });
  await rm(state, { recursive: true, force: true });
}
await rm(bundleDir, { recursive: true, force: true });

// get_codebase_map on a real TypeScript codebase shipped in node_modules: the sources of the AI SDK packages and
// zod, copied into a temp workspace (a map skips node_modules). Cold: empty cache; warm: every file cached.
// Bundled inside the repository, so its require() finds @ast-grep in node_modules.
const codeModule = join(root, 'node_modules/.cache/keel-bench/code.mjs');
const { loadCodeIndex, buildRepoMap } = await bundleModule({
  root,
  contents:
    "export { loadCodeIndex } from './src/code/code-index.ts'; export { buildRepoMap } from './src/code/repo-map.ts';",
  outfile: codeModule,
  external: ['@ast-grep/*'],
});
const corpus = await mkdtemp(join(tmpdir(), 'keel-bench-corpus-'));
const sdk = join(root, 'node_modules/@ai-sdk');
const sources = [
  ...(await readdir(sdk)).map((name) => [join(sdk, name, 'src'), `ai-sdk-${name}`]),
  [join(root, 'node_modules/ai/src'), 'ai'],
  [join(root, 'node_modules/zod/src'), 'zod'],
].filter(([from]) => existsSync(from));
for (const [from, to] of sources) await cp(from, join(corpus, to), { recursive: true });
const mapCache = join(corpus, '..', `${corpus.split('/').pop()}-cache`);
const mapOnce = async () => {
  const started = performance.now();
  const index = await loadCodeIndex(corpus, { cacheDir: mapCache });
  buildRepoMap(index, 2000, '');
  return { ms: performance.now() - started, files: index.stats.files, parsed: index.stats.parsed };
};
const cold = [];
const warm = [];
let mapFiles = 0;
for (let i = 0; i < Math.min(runs, 3); i++) {
  await rm(mapCache, { recursive: true, force: true });
  const r = await mapOnce();
  cold.push(r.ms);
  mapFiles = r.files;
  for (let j = 0; j < 2; j++) warm.push((await mapOnce()).ms);
}
await rm(mapCache, { recursive: true, force: true });
await rm(corpus, { recursive: true, force: true });
await rm(codeModule, { force: true });

// grep: the tool's own code path (bundled from src, run in this process) over this repository's node_modules,
// against rg spawned directly with the argv the tool builds; runs interleaved so both see the same load and cache.
const grepHarness = join(root, 'dist', 'bench-grep.mjs');
const { createGrepTool, grepArgv, bundledRgPath, openWorkspace } = await bundleModule({
  root,
  contents:
    "export { createGrepTool, grepArgv } from './src/tools/grep.ts';" +
    "export { bundledRgPath } from './src/tools/ripgrep.ts';" +
    "export { openWorkspace } from './src/safety/workspace.ts';",
  outfile: grepHarness,
  packages: 'external',
});
const tree = join(root, 'node_modules');
const grepTool = createGrepTool();
const grepCtx = {
  workspace: await openWorkspace(tree),
  signal: new AbortController().signal,
  emit: () => {},
  limits: { maxOutputSize: 1_048_576, maxFileReadSize: 1_048_576 },
};
const rgPath = await bundledRgPath();
const rgDirect = (args) =>
  new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(rgPath, grepArgv(args, '.'), { cwd: tree, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', () => resolvePromise(performance.now() - started));
  });
const grepRows = [];
for (const [label, args] of [
  ['rare identifier', { pattern: 'createTwoFilesPatch' }],
  ['common word, capped', { pattern: 'function' }],
]) {
  const rgTimes = [];
  const keelTimes = [];
  let result;
  for (let i = 0; i <= runs; i++) {
    const rgMs = await rgDirect(args);
    const started = performance.now();
    result = await grepTool.execute(args, grepCtx);
    // The first round warms the file cache for both.
    if (i === 0) continue;
    rgTimes.push(rgMs);
    keelTimes.push(performance.now() - started);
  }
  if (result.metadata.backend !== 'rg')
    throw new Error(`grep bench ran the ${result.metadata.backend} fallback`);
  const ratio = median(keelTimes) / median(rgTimes);
  const what = `grep ${label} (${result.metadata.matches} lines)`;
  grepRows.push([`${what}: rg`, `${(median(rgTimes) / 1000).toFixed(3)} s`, '']);
  grepRows.push([
    `${what}: keel`,
    `${(median(keelTimes) / 1000).toFixed(3)} s`,
    `${ratio.toFixed(2)}× rg, target ≤ 1.1×`,
  ]);
}
await rm(grepHarness, { force: true });

const rows = [
  ['--version', `${(median(versionTimes) / 1000).toFixed(3)} s`, ''],
  ['launch → first model request', `${(median(firstRequest) / 1000).toFixed(3)} s`, 'target ≤ 0.15 s'],
  [
    'chat: launch → first prompt (pty)',
    hasScript ? `${(median(chatPrompt) / 1000).toFixed(3)} s` : 'n/a (no script(1))',
    'target ≤ 0.3 s',
  ],
  ['whole 3-step task', `${(median(whole) / 1000).toFixed(3)} s`, 'target ≤ 0.3 s'],
  ['first request body, basic tools', `${firstKb.toFixed(1)} KB`, 'target ≤ 3.5 KB'],
  ['first request body, every default tool', `${everyToolKb.toFixed(1)} KB`, 'target ≤ 8 KB'],
  ['all requests of the task', `${totalKb.toFixed(1)} KB`, ''],
  ['checkpoint, 10k files, 1 edit', `${(median(checkpointTimes) / 1000).toFixed(3)} s`, 'target ≤ 0.15 s'],
  [`codebase map, cold (${mapFiles} files)`, `${(median(cold) / 1000).toFixed(3)} s`, 'target ≤ 3 s'],
  ['codebase map, warm (cached)', `${(median(warm) / 1000).toFixed(3)} s`, 'target ≤ 0.3 s'],
  ['peak RSS', rss.length ? `${median(rss).toFixed(0)} MiB` : 'n/a (no /usr/bin/time)', 'target < 100 MiB'],
  ...grepRows,
  ...(await (await import('./code-map.mjs')).codeMapBench({ root, keel, runs })),
];
rows.push(...(await (await import('./sessions-and-cache.mjs')).sessionsAndCacheBench({ root, keel, runs })));
rows.push(...(await (await import('./checkpoints.mjs')).checkpointBench({ root, runs })));
process.stdout.write(`Keel bench: medians of ${runs} runs, scripted model server on loopback\n`);
for (const [name, value, target] of rows)
  process.stdout.write(`  ${name.padEnd(44)} ${value.padStart(12)}   ${target}\n`);
await (await import('./mcp-and-files.mjs')).benchMcpAndFiles({ keel, runs, startModelServer });
