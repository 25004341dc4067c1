// Start-up against its references (issue 20, items 1, 2 and 8): `--version`, launch → first model request, the
// whole scripted 3-step task (read notes.txt, write NOTES_UPPER.txt, done), its request sizes and peak RSS, for
// Keel, the previous Keel build (bench/references.mjs) and codex, interleaved in every round (at least 21 rounds,
// steadyRounds; the order rotates; round 0 warms caches and homes and is left out); and `keel ask` against
// `keel run` to the first model request.
// All three run with the same empty home and the scripted model server on loopback. Returns table rows.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keelLaunch, median, ollamaRunArgs, ratioRow, row, seconds, steadyRounds } from './lib.mjs';
import { codexExecArgs, codexHome, codexScript, findCodex, previousBuild } from './references.mjs';

const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const PROMPT = 'Read notes.txt and write NOTES_UPPER.txt with its text in upper case.';
const UPPER = 'BUY MILK\nCALL BOB\n';
const keelScript = () => [
  { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
  { toolCalls: [{ name: 'write_file', args: { path: 'NOTES_UPPER.txt', content: UPPER } }] },
  { text: 'done' },
];

/** Runs command (under /usr/bin/time for its peak RSS) with stdin ignored: exit code, ms, start (epoch ms), RSS. */
function spawnTimed(command, args, { cwd, env }) {
  return new Promise((resolvePromise, reject) => {
    const argv = timeBin ? ['-f', 'KEEL_BENCH_MAXRSS=%M', command, ...args] : args;
    const started = performance.now();
    const startedAt = Date.now();
    const child = spawn(timeBin ?? command, argv, {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...env },
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
        rssMiB: rss && Number(rss) / 1024,
        stderr,
      });
    });
  });
}

const tail = (text) => text.trim().split('\n').slice(-3).join(' | ').slice(0, 200);

export async function startupBench({ root, keel, runs, startModelServer }) {
  const home = await mkdtemp(join(tmpdir(), 'keel-bench-home-'));
  const keelEnv = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CACHE_HOME: join(home, 'cache'),
  };
  const previous = await previousBuild(root);
  const codex = findCodex();
  const cxHome = codex.missing ? undefined : await codexHome(root);
  const programs = [
    { name: 'keel', ...keelLaunch(keel), env: keelEnv, codex: false },
    { name: 'previous', ...previous, env: keelEnv, codex: false },
    { name: 'codex', ...codex, env: { ...keelEnv, HOME: cxHome, CODEX_HOME: cxHome }, codex: true },
  ];
  const results = Object.fromEntries(
    programs.map((p) => [p.name, { version: [], first: [], whole: [], rss: [], firstKb: 0, totalKb: 0 }]),
  );
  const ask = { first: [], whole: [] };
  // Node's own boot (`node -e 0`) as the keel command starts it (NODE_EXTRA_CA_CERTS handed over, not parsed at
  // boot: scripts/launcher.sh): the floor under every start-up row of Keel's, shown beside codex's.
  const nodeBoot = [];

  // Each program's model server keeps its address from round to round, as a user's Ollama does from run to run, so
  // what a program keeps of its server between runs (Keel: /api/show's answer) is used as it would be; round 0,
  // left out, is each one's first run against it.
  const ports = new Map();
  const serve = async (name, script) => {
    const server = await startModelServer({ script, port: ports.get(name) }).catch(() =>
      startModelServer({ script }),
    );
    ports.set(name, Number(new URL(server.url).port));
    return server;
  };

  /** One scripted run: `build(server, ws)` gives the argv; the task's file is checked unless `check` is false. */
  const scripted = async (program, script, build, check = true) => {
    const ws = await mkdtemp(join(tmpdir(), 'keel-bench-ws-'));
    await writeFile(join(ws, 'notes.txt'), 'buy milk\ncall bob\n');
    const server = await serve(program.name, script);
    try {
      const r = await spawnTimed(program.command, [...program.args, ...build(server, ws)], {
        cwd: ws,
        env: program.env,
      });
      const written = await readFile(join(ws, 'NOTES_UPPER.txt'), 'utf8').catch(() => '');
      if (r.code !== 0 || server.requests.length !== script.length || (check && written !== UPPER))
        throw new Error(
          `${program.name} did not do the task (exit ${r.code}, ${server.requests.length} requests): ${tail(r.stderr)}`,
        );
      const kb = (q) => Buffer.byteLength(q.rawBody) / 1000;
      return {
        first: server.requests[0].receivedAt - r.startedAt,
        whole: r.ms,
        rss: r.rssMiB,
        firstKb: kb(server.requests[0]),
        totalKb: server.requests.reduce((sum, q) => sum + kb(q), 0),
      };
    } finally {
      await server.close();
      await rm(ws, { recursive: true, force: true });
    }
  };
  const task = (program) =>
    program.codex
      ? scripted(program, codexScript(), (server, ws) => codexExecArgs(server.url, ws, PROMPT))
      : scripted(program, keelScript(), (server, ws) => ollamaRunArgs(server.ollamaUrl, ws, PROMPT));
  /** A reference that fails is left out from then on, its rows n/a with why; Keel failing ends the bench. */
  const attempt = async (program, fn) => {
    if (program.missing) return;
    try {
      await fn();
    } catch (error) {
      if (program.name === 'keel') throw error;
      program.missing = error instanceof Error ? error.message : String(error);
    }
  };

  try {
    for (let round = 0; round <= steadyRounds(runs); round++) {
      const keep = round > 0;
      const order = programs.map((_, k) => programs[(k + round) % programs.length]);
      for (const program of order)
        await attempt(program, async () => {
          const r = await spawnTimed(program.command, [...program.args, '--version'], { env: program.env });
          if (r.code !== 0) throw new Error(`--version exited ${r.code}: ${tail(r.stderr)}`);
          if (keep) results[program.name].version.push(r.ms);
        });
      for (const program of order)
        await attempt(program, async () => {
          const r = await task(program);
          if (!keep) return;
          const into = results[program.name];
          into.first.push(r.first);
          into.whole.push(r.whole);
          if (r.rss) into.rss.push(r.rss);
          into.firstKb = r.firstKb;
          into.totalKb = r.totalKb;
        });
      const boot = await spawnTimed(process.execPath, ['-e', '0'], {
        env: { ...keelEnv, NODE_EXTRA_CA_CERTS: undefined },
      });
      if (keep) nodeBoot.push(boot.ms);
      // keel ask with the task's prompt, answered at once: its launch → first request against run's above.
      const r = await scripted(
        programs[0],
        [{ text: 'done' }],
        (server, ws) => ['ask', '--provider', 'ollama', '--base-url', server.ollamaUrl, '--cwd', ws, PROMPT],
        false,
      );
      if (keep) {
        ask.first.push(r.first);
        ask.whole.push(r.whole);
      }
    }
  } finally {
    await rm(home, { recursive: true, force: true });
    if (cxHome) await rm(cxHome, { recursive: true, force: true });
  }

  const [, previousProgram, codexProgram] = programs;
  /** The median of a reference's `key` (or its last value), or why it is missing, for ratioRow. */
  const ref = (program, key, last = false) => {
    if (program.missing)
      return {
        missing: program.name === 'previous' ? `previous build: ${program.missing}` : program.missing,
      };
    const values = results[program.name][key];
    return last ? values : median(values);
  };
  const our = (key) => median(results.keel[key]);
  const prevName = `previous ${previous.label ?? 'build'}`;
  const vsPrev = { name: prevName };
  const kb = (v) => `${v.toFixed(1)} KB`;
  const mib = (v) => `${v.toFixed(0)} MiB`;
  /** A ratio row that also has an absolute target (issue 20 names no reference for it). */
  const alsoWithin = ([what, value, note], ok, target) => row(what, value, `${note}; target ${target}`, ok);
  const firstKb = results.keel.firstKb;
  const rss = results.keel.rss.length ? our('rss') : undefined;
  return [
    ratioRow('--version', our('version'), ref(codexProgram, 'version'), { name: 'codex', limit: 1 }),
    ratioRow('--version vs the previous build', our('version'), ref(previousProgram, 'version'), vsPrev),
    ratioRow('launch → first model request', our('first'), ref(codexProgram, 'first'), {
      name: 'codex',
      limit: 0.4,
    }),
    ratioRow('launch → first model request vs previous', our('first'), ref(previousProgram, 'first'), {
      ...vsPrev,
      limit: 1,
    }),
    ratioRow("Node's own boot (node -e 0), Keel's floor", median(nodeBoot), ref(codexProgram, 'first'), {
      name: 'codex to its first request',
    }),
    ratioRow('keel ask: launch → first model request', median(ask.first), our('first'), {
      name: 'keel run',
      limit: 0.7,
    }),
    // The same two past Node's own boot, which both pay alike (information beside the target, not a target).
    ratioRow(
      "keel ask past Node's boot",
      median(ask.first) - median(nodeBoot),
      our('first') - median(nodeBoot),
      { name: "keel run's" },
    ),
    row('keel ask: whole (one answer)', seconds(median(ask.whole)), ''),
    ratioRow('whole 3-step task', our('whole'), ref(previousProgram, 'whole'), vsPrev),
    ratioRow('whole 3-step task vs codex', our('whole'), ref(codexProgram, 'whole'), { name: 'codex' }),
    alsoWithin(
      ratioRow('first request body, basic tools', firstKb, ref(previousProgram, 'firstKb', true), {
        ...vsPrev,
        format: kb,
      }),
      firstKb <= 3.5,
      '≤ 3.5 KB',
    ),
    ratioRow('all requests of the task', results.keel.totalKb, ref(previousProgram, 'totalKb', true), {
      ...vsPrev,
      format: kb,
    }),
    rss === undefined
      ? row('peak RSS', 'n/a', 'no /usr/bin/time', null)
      : alsoWithin(
          ratioRow('peak RSS', rss, ref(previousProgram, 'rss'), { ...vsPrev, format: mib }),
          rss < 100,
          '< 100 MiB',
        ),
    ...(rss === undefined
      ? []
      : [ratioRow('peak RSS vs codex', rss, ref(codexProgram, 'rss'), { name: 'codex', format: mib })]),
  ];
}
