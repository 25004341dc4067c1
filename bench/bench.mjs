// npm run bench: every target of issue 20 (and the earlier start-up and map ones), each row as a ratio to its
// reference measured in the same run where one exists — start-up against codex and the previous Keel build
// (bench/startup.mjs), checkpoints against plain git, grep and glob against rg, read_file against cat — with ✓ / ✗
// and a summary of which targets hold. Also the chat's time to its first prompt in a terminal, the first request
// with every default tool, a checkpoint of a 10,000-file workspace and the codebase map.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  bundleModule,
  keelLaunch,
  median,
  ollamaRunArgs,
  printRows,
  printSummary,
  RG_SPEED_LIMIT,
  ratioRow,
  row,
  runTimed,
  seconds,
  startCheckpointer,
  steadyRounds,
} from './lib.mjs';
import { startupBench } from './startup.mjs';

const root = resolve(import.meta.dirname, '..');
const keel = join(root, 'dist/keel.js');
// Keel as a user starts it: the `keel` command.
const launch = keelLaunch(keel);
const runs = Number(process.env.BENCH_RUNS ?? 7);
const kb = (v) => `${v.toFixed(1)} KB`;

// The scripted model server is TypeScript test support, the checkpointer TypeScript source; bundle them for this script.
const bundleDir = await mkdtemp(join(tmpdir(), 'keel-bench-'));
const bundle = (entry, name) => bundleModule({ root, entry, outfile: join(bundleDir, name) });
const { startModelServer } = await bundle('test/support/model-server.ts', 'model-server.mjs');
const { createCheckpointer } = await bundle('src/checkpoint/checkpointer.ts', 'checkpointer.mjs');

const startup = await startupBench({ root, keel, runs, startModelServer });

// The first request with every default tool: a message the intent classifier cannot read gets every group.
let everyToolKb = 0;
{
  const ws = await mkdtemp(join(tmpdir(), 'keel-bench-ws-'));
  const server = await startModelServer({ script: [{ text: 'hello' }] });
  try {
    const r = await runTimed(
      launch.command,
      [...launch.args, ...ollamaRunArgs(server.ollamaUrl, ws, 'hello')],
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
  const command = [launch.command, ...launch.args, 'chat', '--base-url', server.ollamaUrl, '--cwd', ws]
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

/** A row against an absolute target (no reference names one): holds when value ≤ limit. */
const within = (what, value, limit, format = seconds) =>
  row(what, format(value), `target ≤ ${format(limit)}`, value <= limit);
const startupRows = [
  ...startup,
  within('first request body, every default tool', everyToolKb, 8, kb),
  hasScript
    ? within('chat: launch → first prompt (pty)', median(chatPrompt), 300)
    : row('chat: launch → first prompt (pty)', 'n/a', 'no script(1)', null),
];
// BENCH_ONLY=startup: the start-up rows alone, for quick rounds while working on start-up.
if (process.env.BENCH_ONLY === 'startup') {
  await rm(bundleDir, { recursive: true, force: true });
  printRows('Start-up, against codex and the previous Keel build in the same rounds', startupRows);
  printSummary(startupRows);
  process.exit(0);
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
const { createGrepTool, grepArgv, bundledRgPath, openWorkspace, userSecretLinks } = await bundleModule({
  root,
  contents:
    "export { createGrepTool, grepArgv } from './src/tools/grep.ts';" +
    "export { bundledRgPath } from './src/tools/ripgrep.ts';" +
    "export { openWorkspace } from './src/safety/workspace.ts';" +
    "export { userSecretLinks } from './src/safety/secret-links.ts';",
  outfile: grepHarness,
  packages: 'external',
});
const tree = join(root, 'node_modules');
const grepTool = createGrepTool();
const grepCtx = {
  // With the home directory's secret links checked, as a run checks them.
  workspace: await openWorkspace(tree, [], [], userSecretLinks(process.env)),
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
  const keelOnce = async () => {
    const started = performance.now();
    result = await grepTool.execute(args, grepCtx);
    return performance.now() - started;
  };
  for (let i = 0; i <= steadyRounds(runs); i++) {
    // Each goes first in every other round, so neither always meets the cache the other just warmed.
    const keelFirst = i % 2 === 1 ? await keelOnce() : undefined;
    const rgMs = await rgDirect(args);
    const keelMs = keelFirst ?? (await keelOnce());
    // The first round warms the file cache for both.
    if (i === 0) continue;
    rgTimes.push(rgMs);
    keelTimes.push(keelMs);
  }
  if (result.metadata.backend !== 'rg')
    throw new Error(`grep bench ran the ${result.metadata.backend} fallback`);
  grepRows.push(
    ratioRow(`grep ${label} (${result.metadata.matches} lines)`, median(keelTimes), median(rgTimes), {
      name: 'rg',
      limit: RG_SPEED_LIMIT,
    }),
  );
}
await rm(grepHarness, { force: true });

const section = (heading, rows) => {
  printRows(heading, rows);
  all.push(...rows);
};
const all = [];
process.stdout.write(
  `Keel bench: medians of ${runs} runs (${steadyRounds(runs)} for start-up and the rows against rg; round 0 left out), scripted model server on loopback\n`,
);
section('Start-up, against codex and the previous Keel build in the same rounds', startupRows);
section('Code map and grep', [
  within('checkpoint, 10k files, 1 edit', median(checkpointTimes), 150),
  within(`codebase map, cold (${mapFiles} files)`, median(cold), 3000),
  within('codebase map, warm (cached)', median(warm), 300),
  ...grepRows,
  ...(await (await import('./code-map.mjs')).codeMapBench({ root, keel, runs })),
]);
section(
  'Sessions and prompt caching',
  await (await import('./sessions-and-cache.mjs')).sessionsAndCacheBench({ root, keel, runs }),
);
section(
  'Checkpoints on big trees, against plain git in the same run',
  await (await import('./checkpoints.mjs')).checkpointBench({ root, runs }),
);
section(
  'MCP servers and big files, against rg and cat in the same run',
  await (await import('./mcp-and-files.mjs')).benchMcpAndFiles({ keel, runs, startModelServer }),
);
printSummary(all);
