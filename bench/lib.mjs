// What every bench script shares: medians, a process timed with its output, TypeScript bundled for a script, a checkpointer.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';

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
