// Bench of long sessions and prompt caching (issue 20, items 5 and 6): `keel sessions list` over 200 generated
// sessions of 440 KB, resuming a 10,000-message session to its first model request, RSS after a full collection at
// the start and end of a 1,000-turn scripted run, and whether each request of a 20-turn Anthropic run repeats the
// previous one's bytes up to its last cache breakpoint. Called from bench.mjs; returns rows of [name, value, note, holds].
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleModule, keelLaunch, median, runTimed } from './lib.mjs';

/** Runs dist/keel.js; `onSpawn` gets the child (its pid for /proc). */
const keelRun = (keel, args, env, onSpawn) => {
  const launch = keelLaunch(keel);
  return runTimed(launch.command, [...launch.args, ...args], { env, onSpawn });
};

/** The session directory Keel uses for `workspace` under `data` (src/session/session-list.ts's sessionDir). */
async function sessionDirOf(root, data, workspace) {
  const outfile = join(await mkdtemp(join(tmpdir(), 'keel-bench-sd-')), 'sd.mjs');
  const contents = "export { sessionDir } from './src/session/session-list.ts';";
  const { sessionDir } = await bundleModule({ root, contents, outfile });
  await rm(join(outfile, '..'), { recursive: true, force: true });
  return sessionDir(join(data, 'keel'), await realpath(workspace));
}

/** A session file of `turns` model turns (user prompt every 100 turns), each tool result `resultChars` long. */
function sessionText(id, workspace, turns, resultChars) {
  const time = '2026-01-01T00:00:00.000Z';
  const lines = [
    { type: 'session', version: 1, id, workspace, provider: 'ollama', model: 'qwen3', started: time },
    { type: 'run_start', provider: 'ollama', model: 'qwen3', workspace, time },
    { type: 'message', role: 'system', content: 'You are Keel.', time },
  ];
  const result = 'x'.repeat(resultChars);
  for (let t = 0; t < turns; t++) {
    if (t % 100 === 0) lines.push({ type: 'message', role: 'user', content: `task ${t / 100}`, time });
    const call = { id: `c${t}`, name: 'read_file', input: `{"path":"f${t}.txt"}` };
    lines.push({ type: 'message', role: 'assistant', content: '', toolCalls: [call], time });
    lines.push({ type: 'usage', turn: t + 1, input_tokens: 1000, output_tokens: 20, time });
    lines.push({
      type: 'message',
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: result,
      time,
    });
  }
  lines.push({ type: 'message', role: 'assistant', content: 'done', time });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

export async function sessionsAndCacheBench({ root, keel, runs = 5 }) {
  const tmp = await mkdtemp(join(tmpdir(), 'keel-bench-sessions-'));
  const outfile = join(tmp, 'model-server.mjs');
  const { startModelServer } = await bundleModule({ root, entry: 'test/support/model-server.ts', outfile });
  const rows = [];
  try {
    const data = join(tmp, 'data');
    const ws = join(tmp, 'ws');
    await mkdir(ws, { recursive: true });
    await writeFile(join(ws, 'notes.txt'), 'buy milk\n');
    const env = { XDG_DATA_HOME: data, HOME: tmp, XDG_STATE_HOME: join(tmp, 'state') };
    const dir = await sessionDirOf(root, data, ws);
    await mkdir(dir, { recursive: true });

    // 200 sessions of about 440 KB (300 turns of 1.4 KB results), written as older Keel left them: no sidecar.
    for (let i = 0; i < 200; i++) {
      const id = `20260101-0000${String(i).padStart(3, '0')}`;
      await writeFile(join(dir, `${id}.jsonl`), sessionText(id, ws, 300, 1_300));
    }
    const list = (label) =>
      keelRun(keel, ['sessions', 'list', '--cwd', ws], env).then((r) => {
        if (r.code !== 0) throw new Error(`${label} failed: ${r.stderr}`);
        return r.ms;
      });
    const first = await list('sessions list (no sidecars)');
    const warm = [];
    for (let i = 0; i < runs; i++) warm.push(await list('sessions list'));
    const version = [];
    for (let i = 0; i < runs; i++) version.push((await keelRun(keel, ['--version'], env)).ms);
    rows.push(['sessions list 200×440 KB, first (no sidecar)', `${(first / 1000).toFixed(3)} s`, 'once']);
    rows.push([
      'sessions list 200×440 KB',
      `${(median(warm) / 1000).toFixed(3)} s`,
      `target ≤ 0.2 s (keel --version: ${(median(version) / 1000).toFixed(3)} s)`,
      median(warm) <= 200,
    ]);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });

    // Resume a 10,000-message session (4,950 model turns) headless: launch → first model request. Each resume saves
    // its turn to the session, as a user's does (--no-session cannot resume).
    const resumeId = '20260101-000000-big';
    await writeFile(join(dir, `${resumeId}.jsonl`), sessionText(resumeId, ws, 4_950, 200));
    const resume = [];
    for (let i = 0; i < runs; i++) {
      const server = await startModelServer({ script: [{ text: 'ok' }, { text: 'ok' }, { text: 'ok' }] });
      try {
        const r = await keelRun(
          keel,
          ['run', '--base-url', server.ollamaUrl, '--cwd', ws, '--resume', resumeId, '-p', 'go on'],
          env,
        );
        if (r.code !== 0 || server.requests.length === 0) throw new Error(`resume failed: ${r.stderr}`);
        resume.push(server.requests[0].receivedAt - r.startedAt);
      } finally {
        await server.close();
      }
    }
    rows.push([
      'resume 10k messages → first request',
      `${(median(resume) / 1000).toFixed(3)} s`,
      'target ≤ 1 s',
      median(resume) <= 1000,
    ]);

    // RSS of a 1,000-turn run, sampled every 10 requests after a full garbage collection (bench/gc-probe.cjs): a
    // sample at a random moment mostly says how much garbage V8 let pile up before its next collection (±40 MiB),
    // which read as growth in one run in three. What must not happen is growth per turn, so the target compares
    // turns 401–500 with 901–1,000 by the median of each window; the live heap after collection is shown beside.
    let pid;
    const samples = new Map();
    const turns = 1_000;
    const probeFile = join(tmp, 'probe.jsonl');
    let probed = 0;
    /** Signals the probe and waits for its line: RSS and live heap after a full collection, in MiB. */
    const probe = async () => {
      process.kill(pid, 'SIGUSR2');
      for (let waited = 0; waited < 5000; waited += 5) {
        const lines = (await readFile(probeFile, 'utf8').catch(() => '')).split('\n').filter(Boolean);
        if (lines.length > probed) {
          const { rss, heapUsed } = JSON.parse(lines[probed++]);
          return { rss: rss / 2 ** 20, heap: heapUsed / 2 ** 20 };
        }
        await new Promise((r) => setTimeout(r, 5));
      }
      return undefined;
    };
    const step = async (request) => {
      const n = server1000.requests.length;
      if (n % 10 === 0) samples.set(n, await probe());
      // The compaction request offers no tools: answer it with a summary.
      if (!request.body?.tools?.length) return { text: 'Summary: read notes.txt many times.' };
      return n >= turns
        ? { text: 'done' }
        : { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] };
    };
    const server1000 = await startModelServer({ script: Array.from({ length: turns + 20 }, () => step) });
    try {
      const r = await keelRun(
        keel,
        [
          'run',
          '--base-url',
          server1000.ollamaUrl,
          '--cwd',
          ws,
          '--max-turns',
          String(turns + 10),
          '-p',
          'Read notes.txt again and again.',
        ],
        {
          ...env,
          KEEL_BENCH_PROBE: probeFile,
          NODE_OPTIONS: `--require ${join(import.meta.dirname, 'gc-probe.cjs')}`,
        },
        (child) => {
          pid = child.pid;
        },
      );
      if (r.code !== 0) throw new Error(`1,000-turn run failed: ${r.stderr}`);
    } finally {
      await server1000.close();
    }
    const windowMedian = (from, to, key) => {
      const values = [...samples]
        .filter(([n, v]) => n > from && n <= to && v !== undefined)
        .map(([, v]) => v[key]);
      return values.length > 0 ? median(values) : undefined;
    };
    const at = (key) => [
      windowMedian(0, 100, key),
      windowMedian(400, 500, key),
      windowMedian(900, turns, key),
    ];
    const [early, mid, end] = at('rss');
    const [, heapMid, heapEnd] = at('heap');
    const measured = early && mid && end;
    rows.push([
      'RSS after GC, 1,000-turn run (median, turns ≤100 → 401–500 → 901–1,000)',
      measured ? `${early.toFixed(0)}→${mid.toFixed(0)}→${end.toFixed(0)} MiB` : 'n/a (no probe answer)',
      measured
        ? `×${(end / mid).toFixed(2)} from 401–500 (live heap ${heapMid.toFixed(1)}→${heapEnd.toFixed(1)} MiB), target ≤ ×1.1`
        : '',
      measured ? end / mid <= 1.1 : null,
    ]);

    // Anthropic: each request repeats the previous one's bytes (in cache order) up to its last breakpoint.
    const cacheTurns = 20;
    const anthropic = await startModelServer({
      script: Array.from({ length: cacheTurns }, (_, i) =>
        i < cacheTurns - 1
          ? { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] }
          : { text: 'done' },
      ),
    });
    let reused = 0;
    let cachedBytes = 0;
    let totalBytes = 0;
    try {
      const r = await keelRun(
        keel,
        [
          'run',
          '--provider',
          'anthropic',
          '--base-url',
          anthropic.anthropicUrl,
          '--model',
          'claude-sonnet-4-5',
          '--cwd',
          ws,
          '--no-session',
          '-p',
          'Read notes.txt twenty times.',
        ],
        { ...env, ANTHROPIC_API_KEY: 'sk-bench' },
      );
      if (r.code !== 0) throw new Error(`Anthropic run failed: ${r.stderr}`);
      const marker = ',"cache_control":{"type":"ephemeral"}';
      const ordered = anthropic.requests.map((q) => {
        const body = JSON.parse(q.rawBody);
        return JSON.stringify(body.tools) + JSON.stringify(body.system) + JSON.stringify(body.messages);
      });
      for (let i = 1; i < ordered.length; i++) {
        const prefix = ordered[i - 1].slice(0, ordered[i - 1].lastIndexOf(marker));
        if (ordered[i].startsWith(prefix)) reused += 1;
        cachedBytes += prefix.length;
        totalBytes += ordered[i].length;
      }
    } finally {
      await anthropic.close();
    }
    rows.push([
      `Anthropic cache prefix kept (${cacheTurns} turns)`,
      `${reused}/${cacheTurns - 1}`,
      `target ${cacheTurns - 1}/${cacheTurns - 1}; ${((100 * cachedBytes) / totalBytes).toFixed(0)}% of bytes cacheable`,
      reused === cacheTurns - 1,
    ]);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return rows;
}
