// Whether shell commands run in the sandbox: the user's choice (--sandbox / --no-sandbox, safety.sandbox), else
// the mode's default (full and auto modes are sandboxed where bubblewrap works), and whether bubblewrap works here, probed
// once and only when the answer matters, so runs that never sandbox never pay for it, and kept between runs.
import { execFile } from 'node:child_process';
import { SandboxUnavailableError } from '../core/errors.js';
import type { CommandRunner } from '../core/runner.js';
import type { ExecutionMode } from '../safety/modes.js';
import { findOnPath, keepAnswer, keptAnswer, MISSING, probeKey } from './probe-cache.js';
import { createProcessRunner } from './process-runner.js';
import { createSandboxRunner, probeArgs, type SandboxOptions } from './sandbox-runner.js';

export const SANDBOX_HINT =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and allow unprivileged user namespaces ' +
  '(sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later kernel.apparmor_restrict_unprivileged_userns=0), ' +
  'or run without --sandbox';

/** Why bubblewrap cannot run here, or undefined when it can. */
export type SandboxProbe = (network: boolean, env: NodeJS.ProcessEnv) => Promise<string | undefined>;

// One probe per process and network setting: its answer does not change while Keel runs.
const probes = new Map<string, Promise<string | undefined>>();

/** Runs `bwrap` with the sandbox's own isolation on `true`: it works, or the reason it does not. */
function runProbe(network: boolean, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('bwrap', probeArgs(network), { env, timeout: 10_000 }, (error, _stdout, stderr) => {
      if (!error) return resolve(undefined);
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return resolve(MISSING);
      const why = stderr.trim().split('\n')[0] || error.message;
      resolve(`bubblewrap cannot create its namespaces here (${why})`);
    });
  });
}

/**
 * Whether bubblewrap works here. The answer of an earlier run is reused while nothing it depends on changed
 * (probe-cache.ts), so starting a run spawns nothing; `fresh` (keel doctor) always runs bwrap.
 */
export const probeBubblewrap = (
  network: boolean,
  env: NodeJS.ProcessEnv,
  fresh = false,
): Promise<string | undefined> => {
  const key = `${network}:${env.PATH ?? ''}:${fresh}`;
  let probe = probes.get(key);
  if (!probe) {
    probe = (async () => {
      const bwrap = env.PATH === undefined ? undefined : findOnPath('bwrap', env.PATH);
      if (env.PATH !== undefined && bwrap === undefined) return MISSING;
      const cacheKey = bwrap === undefined ? undefined : probeKey(bwrap, network);
      const kept = cacheKey === undefined || fresh ? undefined : keptAnswer(env, cacheKey);
      if (kept) return kept.answer;
      const answer = await runProbe(network, env);
      if (cacheKey !== undefined) await keepAnswer(env, cacheKey, answer);
      return answer;
    })();
    probes.set(key, probe);
  }
  return probe;
};

/** How to get the sandbox, without the --sandbox alternative. */
export const INSTALL_HINT = SANDBOX_HINT.replace(/, or run without --sandbox$/, '');

/** The one warning of an auto run with no sandbox: why, what changes, and how to get bubblewrap. */
export const autoFallback = (broken: string): string =>
  `auto mode has no sandbox here (${broken}): commands beyond the read-only set are asked about, and refused in headless runs. To run them in the sandbox: ${INSTALL_HINT}`;

export interface RunnerChoice {
  runner: CommandRunner;
  sandboxed: boolean;
  /** Said once when full or auto mode falls back to running unsandboxed. */
  warning?: string;
}

export interface RunnerChoiceOptions {
  mode: ExecutionMode;
  /** --sandbox (true) / --no-sandbox (false), else safety.sandbox; undefined: the mode decides. */
  requested: boolean | undefined;
  /** The environment commands get (commandEnv). */
  env: NodeJS.ProcessEnv;
  sandbox: SandboxOptions;
  probe?: SandboxProbe;
}

export async function chooseCommandRunner(options: RunnerChoiceOptions): Promise<RunnerChoice> {
  const plain = (): CommandRunner => createProcessRunner(options.env);
  const wanted =
    options.requested ?? (options.mode === 'full' || options.mode === 'auto' ? 'if-possible' : false);
  if (wanted === false) {
    // Auto mode turned away from its sandbox: said once, as where it cannot be made.
    if (options.mode === 'auto')
      return {
        runner: plain(),
        sandboxed: false,
        warning: autoFallback('it is turned off by --no-sandbox or safety.sandbox: false'),
      };
    return { runner: plain(), sandboxed: false };
  }
  const broken = await (options.probe ?? probeBubblewrap)(options.sandbox.network, options.env);
  if (!broken) return { runner: createSandboxRunner(options.env, options.sandbox), sandboxed: true };
  if (wanted === true) {
    throw new SandboxUnavailableError(`the sandbox was asked for, but ${broken}`, { hint: SANDBOX_HINT });
  }
  if (options.mode === 'auto') return { runner: plain(), sandboxed: false, warning: autoFallback(broken) };
  return {
    runner: plain(),
    sandboxed: false,
    warning: `full mode runs shell commands without a sandbox: ${broken}; pass --no-sandbox to run unsandboxed without this warning`,
  };
}
