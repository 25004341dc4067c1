// npm run bench, issue 20 items 4 and 7: MCP tools from the first request and big files. A headless run with three
// slow-starting MCP servers (test/fixtures/mcp/gated-server.mjs --delay) against the same run without servers, cold
// (no cached tool lists) and warm (cached); read_file of a line near the end of a generated 500 MB file against
// cat reading the whole file (and sed reading up to the line); grep and glob against rg run directly with the
// same arguments. Called from bench.mjs, returns its rows; BENCH_FILES_ONLY=1 skips the MCP runs.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  bundleModule,
  keelLaunch,
  median,
  RG_SPEED_LIMIT,
  ratioRow,
  row,
  runTimed,
  seconds,
  steadyRounds,
} from './lib.mjs';

const root = resolve(import.meta.dirname, '..');
const timed = runTimed;

async function benchMcp({ keel, runs, startModelServer }) {
  const delayMs = 1000;
  const servers = Object.fromEntries(
    ['s1', 's2', 's3'].map((name) => [
      name,
      {
        command: process.execPath,
        args: [join(root, 'test/fixtures/mcp/gated-server.mjs'), '--delay', String(delayMs), '--name', name],
      },
    ]),
  );
  const calls = ['s1__ping', 's2__ping', 's3__ping'];
  const script = () => [{ toolCalls: calls.map((name) => ({ name, args: {} })) }, { text: 'done' }];
  const kinds = { none: {}, cold: servers, warm: servers };
  const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, { first: [], total: [], exit: [] }]));
  let seen = 0;
  let answered = 0;
  const home = await mkdtemp(join(tmpdir(), 'keel-bench-mcp-'));
  try {
    for (let i = 0; i < runs; i++) {
      for (const [kind, configured] of Object.entries(kinds)) {
        const ws = await mkdtemp(join(tmpdir(), 'keel-bench-mcp-ws-'));
        const config = join(ws, 'keel.json');
        await writeFile(config, JSON.stringify({ mcp: { servers: configured } }));
        // Cold runs start from an empty cache; warm runs use the one the cold run of this round left.
        const cache = join(home, `cache-${i}`);
        const server = await startModelServer({ script: script() });
        try {
          const launch = keelLaunch(keel);
          const r = await timed(
            launch.command,
            [
              ...launch.args,
              'run',
              '--base-url',
              server.ollamaUrl,
              '--cwd',
              ws,
              '--config',
              config,
              '--prompt',
              'ping all',
            ],
            { cwd: ws, env: { HOME: home, XDG_CACHE_HOME: cache } },
          );
          if (r.code !== 0) throw new Error(`MCP bench run failed (exit ${r.code}): ${r.stderr}`);
          const [first] = server.requests;
          const last = server.requests.at(-1);
          times[kind].first.push(first.receivedAt - r.startedAt);
          times[kind].total.push(r.ms);
          times[kind].exit.push(r.endedAt - last.receivedAt);
          if (kind !== 'none') {
            const offered = (first.body.tools ?? []).map((t) => t.function?.name ?? t.name);
            seen += calls.filter((name) => offered.includes(name)).length;
            const results = last.body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
            answered += results.filter((text) => / from s\d$/.test(text)).length;
          }
        } finally {
          await server.close();
          await rm(ws, { recursive: true, force: true });
        }
      }
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
  const none = times.none;
  const rows = (kind, label) => {
    const exit = median(times[kind].exit);
    return [
      ratioRow(
        `MCP ×3 (${delayMs / 1000} s start), ${label}: first request`,
        median(times[kind].first),
        median(none.first),
        { name: 'no servers' },
      ),
      ratioRow(`MCP ×3, ${label}: whole run`, median(times[kind].total), median(none.total), {
        name: 'no servers',
      }),
      row(
        `MCP ×3, ${label}: last request → exit`,
        seconds(exit),
        `no servers ${seconds(median(none.exit))}; target ≤ +0.05 s`,
        exit <= median(none.exit) + 50,
      ),
    ];
  };
  return [
    row('no MCP servers: first request', seconds(median(none.first))),
    row('no MCP servers: whole run', seconds(median(none.total))),
    ...rows('cold', 'cold'),
    ...rows('warm', 'cached tools'),
    row(
      'MCP tools in the first request / calls answered',
      `${seen}/${runs * 6} ${answered}/${runs * 6}`,
      'target all',
      seen === runs * 6 && answered === runs * 6,
    ),
  ];
}

/** A text file of about `mb` MB: numbered lines of 100 bytes. Returns its line count. */
async function bigFile(file, mb) {
  const lines = Math.floor((mb * 1024 * 1024) / 100);
  const out = createWriteStream(file);
  const pad = 'x'.repeat(80);
  for (let n = 1; n <= lines; ) {
    let chunk = '';
    for (let k = 0; k < 10000 && n <= lines; k++, n++)
      chunk += `${String(n).padStart(10, '0')} ${pad} line\n`;
    if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
  return lines;
}

async function benchFiles({ runs }) {
  const harness = join(root, 'dist', 'bench-files.mjs');
  const harnessModule = bundleModule({
    root,
    contents:
      "export { readFileTool } from './src/tools/read-file.ts';" +
      "export { LineIndexes } from './src/tools/line-index.ts';" +
      "export { createGrepTool, grepArgv } from './src/tools/grep.ts';" +
      "export { createGlobTool, globArgv } from './src/tools/glob.ts';" +
      "export { bundledRgPath } from './src/tools/ripgrep.ts';" +
      "export { openWorkspace } from './src/safety/workspace.ts';" +
      "export { userSecretLinks } from './src/safety/secret-links.ts';",
    outfile: harness,
    packages: 'external',
  });
  const {
    readFileTool,
    LineIndexes,
    createGrepTool,
    grepArgv,
    createGlobTool,
    globArgv,
    bundledRgPath,
    openWorkspace,
    userSecretLinks,
  } = await harnessModule;
  await rm(harness, { force: true });
  const rows = [];
  const rgPath = await bundledRgPath();
  const context = async (dir) => ({
    workspace: await openWorkspace(dir, [], [], userSecretLinks(process.env)),
    signal: new AbortController().signal,
    emit: () => {},
    limits: { maxOutputSize: 1_048_576, maxFileReadSize: 10 * 1024 * 1024 },
  });
  /**
   * Interleaved rounds (the first only warms the page cache), Keel going first in every other one so neither side
   * always runs in the other's wake: keel's median and the reference's (and a second's). `rewarm`: the reference
   * runs once untimed before each round, as this host pages out file cache (DAMON) it does not see used, so a round
   * would otherwise time reads of the disk that differ from one side to the other.
   */
  const compare = async (keelOnce, referenceOnce, secondOnce, rewarm = false, rounds = runs) => {
    const keelTimes = [];
    const refTimes = [];
    const secondTimes = [];
    const keelTimed = async () => {
      const started = performance.now();
      await keelOnce();
      return performance.now() - started;
    };
    for (let i = 0; i <= rounds; i++) {
      if (rewarm && i > 0) await referenceOnce();
      const first = i % 2 === 1 ? await keelTimed() : undefined;
      const ref = await referenceOnce();
      const second = await secondOnce?.();
      const keel = first ?? (await keelTimed());
      if (i === 0) continue;
      keelTimes.push(keel);
      refTimes.push(ref);
      secondTimes.push(second);
    }
    return { keel: median(keelTimes), ref: median(refTimes), second: median(secondTimes) };
  };

  // read_file of a line near the end of a 500 MB file, against cat reading the file (to /dev/null: the cost of
  // reading it) and sed reading up to the line and printing it.
  const dir = await mkdtemp(join(tmpdir(), 'keel-bench-big-'));
  try {
    const file = join(dir, 'big.log');
    const lines = await bigFile(file, 500);
    const line = lines - 10;
    const ctx = await context(dir);
    let output = '';
    const readOnce = async () => {
      output = (await readFileTool.execute({ path: 'big.log', offset: line, limit: 1 }, ctx)).output;
    };
    const read = await compare(
      readOnce,
      async () => (await timed('sh', ['-c', 'cat "$0" >/dev/null', file])).ms,
      async () => (await timed('sed', ['-n', `${line}{p;q}`, file])).ms,
    );
    if (!output.includes(`${String(line).padStart(10, '0')} `)) throw new Error(`read_file read: ${output}`);
    rows.push(
      ratioRow('read_file line near the end of 500 MB', read.keel, read.ref, { name: 'cat', limit: 1.1 }),
    );
    rows.push(
      ratioRow('read_file line near the end of 500 MB vs sed', read.keel, read.second, { name: 'sed -n' }),
    );
    // A model paging through the file: each read a few lines further back, with the run's line index.
    const paging = { ...ctx, lineIndexes: new LineIndexes() };
    let page = 0;
    const paged = await compare(
      async () => {
        page += 1;
        output = (
          await readFileTool.execute({ path: 'big.log', offset: line - 20 * page, limit: 20 }, paging)
        ).output;
      },
      async () => (await timed('sh', ['-c', 'cat "$0" >/dev/null', file])).ms,
    );
    if (!output.includes(`${String(line - 20 * page).padStart(10, '0')} `))
      throw new Error(`paged: ${output}`);
    rows.push(
      ratioRow('read_file paging near the end of 500 MB (line index)', paged.keel, paged.ref, {
        name: 'cat',
        limit: 0.1,
      }),
    );
    // grep in the big file, against rg with the tool's own argv.
    const grepTool = createGrepTool();
    const args = { pattern: `^${String(line).padStart(10, '0')} ` };
    // Re-warmed as the glob rows are: run right after the other side, either would read a file the host had paged.
    const grep = await compare(
      () => grepTool.execute(args, ctx),
      async () => (await timed(rgPath, grepArgv(args, '.'), { cwd: dir })).ms,
      undefined,
      true,
      steadyRounds(runs),
    );
    rows.push(ratioRow('grep in 500 MB', grep.keel, grep.ref, { name: 'rg', limit: RG_SPEED_LIMIT }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  // glob over this repository's node_modules, against rg run with the argv the tool gives it (globArgv), as the grep
  // rows do: what Keel adds to rg is what is measured. (rg's --glob would be another query: it overrides .gitignore.)
  const tree = join(root, 'node_modules');
  const ctx = await context(tree);
  const globTool = createGlobTool();
  for (const pattern of ['**/*.d.ts', '**/package.json']) {
    let files = 0;
    const glob = await compare(
      async () => {
        files = (await globTool.execute({ pattern }, ctx)).metadata.files;
      },
      async () => (await timed(rgPath, globArgv(pattern, '.'), { cwd: tree })).ms,
      undefined,
      true,
      steadyRounds(runs),
    );
    rows.push(
      ratioRow(`glob ${pattern} (${files} files)`, glob.keel, glob.ref, {
        name: 'rg',
        limit: RG_SPEED_LIMIT,
      }),
    );
  }
  return rows;
}

/** The rows of items 4 and 7; `startModelServer` is the bundled scripted model server bench.mjs loaded. */
export async function benchMcpAndFiles({ keel, runs, startModelServer }) {
  const mcp = process.env.BENCH_FILES_ONLY ? [] : await benchMcp({ keel, runs, startModelServer });
  return [...mcp, ...(await benchFiles({ runs }))];
}
