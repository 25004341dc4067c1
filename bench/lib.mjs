// What every bench script shares: medians, a process timed with its output, TypeScript bundled for a script, a checkpointer.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/**
 * How a user starts a Keel build: its `keel` command (dist/keel, the package's bin: a shell script that starts Node)
 * where the build has one, else node on its dist/keel.js. { command, args } to spawn with the command line after args.
 */
export function keelLaunch(keelJs) {
  const command = join(dirname(keelJs), 'keel');
  return existsSync(command) ? { command, args: [] } : { command: process.execPath, args: [keelJs] };
}

/** `keel run`'s arguments for a prompt against a scripted Ollama at `url`, in `ws`. */
export const ollamaRunArgs = (url, ws, prompt) => [
  'run',
  '--provider',
  'ollama',
  '--base-url',
  url,
  '--cwd',
  ws,
  '--prompt',
  prompt,
];

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const seconds = (ms) => `${(ms / 1000).toFixed(3)} s`;

/**
 * Runs argv and resolves with its exit code, wall time in ms, start and end (epoch ms) and its output; `env` adds to
 * process.env (colour off); `onSpawn` gets the child (its pid for /proc).
 */
export function runTimed(command, argv, { cwd, env, onSpawn } = {}) {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const startedAt = Date.now();
    const child = spawn(command, argv, {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) =>
      resolvePromise({
        code,
        ms: performance.now() - started,
        startedAt,
        endedAt: Date.now(),
        stdout,
        stderr,
      }),
    );
  });
}

/**
 * Bundles TypeScript for a bench script (a module to import or a script to run): an `entry` file of the
 * repository, or `contents` resolved from its root. `outfile` inside the repository lets the bundle's require()
 * find packages kept `external`.
 */
export async function bundleScript({ root, entry, contents, outfile, external, packages }) {
  await build({
    ...(entry
      ? { entryPoints: [join(root, entry)] }
      : { stdin: { contents, resolveDir: root, loader: 'ts' } }),
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    ...(external ? { external } : {}),
    ...(packages ? { packages } : {}),
    // Packages kept external may be CommonJS that require() their own dependencies.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    logLevel: 'warning',
  });
}

/** bundleScript, then the bundle imported. */
export async function bundleModule(options) {
  await bundleScript(options);
  return import(options.outfile);
}

/** A checkpointer for `ws` with its own state dir, started for one run; any warning fails the bench. */
export function startCheckpointer(createCheckpointer, ws, stateDir) {
  const checkpointer = createCheckpointer({
    root: ws,
    stateDir,
    env: process.env,
    warn: (m) => {
      throw new Error(m);
    },
  });
  checkpointer.startRun('bench');
  return checkpointer;
}

/**
 * A row of the bench's table: [what, value, note, holds]. `holds` is true or false where the row has a target,
 * null where its target could not be measured (n/a), undefined where it has none; the table marks ✓ / ✗ and the
 * summary lists every row with a target.
 */
export const row = (what, value, note = '', holds = undefined) => [what, value, note, holds];

/**
 * A row of `ours` against a reference measured in the same run: "0.35× codex (0.900 s), target ≤ 0.4×". `ref` is a
 * number, or { missing: 'why' } (the row says n/a); without `limit` the ratio is shown with no target.
 */
/** Issue 20: grep and glob at ripgrep's speed, at least 0.9× rg's, that is in at most 1/0.9 of its time. */
export const RG_SPEED_LIMIT = 1 / 0.9;

/**
 * Rounds for the rows compared with rg, and for start-up: each takes tens of milliseconds, and on this host one
 * round's time swings by ±15% (a start-up by ±20 ms of 0.1 s), so seven rounds' median can land either side of a
 * limit only 10% away; at least 21 rounds steady it.
 */
export const steadyRounds = (runs) => Math.max(runs, 21);

export function ratioRow(what, ours, ref, { name, limit, format = seconds }) {
  if (typeof ref !== 'number' || !Number.isFinite(ref) || ref <= 0)
    return row(
      what,
      format(ours),
      `n/a (${ref?.missing ?? `no ${name} measurement`})`,
      limit ? null : undefined,
    );
  const ratio = ours / ref;
  const note = `${ratio.toFixed(2)}× ${name} (${format(ref)})`;
  if (limit === undefined) return row(what, format(ours), note);
  return row(what, format(ours), `${note}, target ≤ ${Number(limit.toFixed(2))}×`, ratio <= limit);
}

const mark = (holds) => (holds === true ? '  ✓' : holds === false ? '  ✗' : holds === null ? '  –' : '');

/** Prints rows under a heading; the value column right-aligned. */
export function printRows(heading, rows, width = 52) {
  process.stdout.write(`${heading}\n`);
  for (const [what, value, note, holds] of rows)
    process.stdout.write(`  ${what.padEnd(width)} ${value.padStart(12)}   ${note}${mark(holds)}\n`);
}

/** The summary: every row with a target, whether it holds (✓), misses (✗) or could not be measured (–). */
export function printSummary(rows) {
  const targets = rows.filter((r) => r[3] !== undefined);
  const held = targets.filter((r) => r[3] === true).length;
  const missed = targets.filter((r) => r[3] === false);
  const unmeasured = targets.filter((r) => r[3] === null);
  process.stdout.write(
    `Summary: ${held} of ${targets.length} targets hold, ${missed.length} missed, ${unmeasured.length} not measured\n`,
  );
  for (const [what, value, note, holds] of targets)
    process.stdout.write(`  ${mark(holds).trim()} ${what}: ${value}, ${note}\n`);
}
