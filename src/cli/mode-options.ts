// The execution mode and one-run rules chosen on the command line: --mode, --allow-dangerous (its alias for full)
// and --allow, shared by run, chat and `keel policy check`; the default mode (auto where the sandbox works).
import { Option } from 'commander';
import type { KeelConfig } from '../config/schema.js';
import { UsageError } from '../core/errors.js';
import { commandEnv } from '../exec/process-runner.js';
import { probeBubblewrap, type SandboxProbe } from '../exec/sandbox-choice.js';
import { type ExecutionMode, MODES } from '../safety/modes.js';

export interface ModeFlags {
  mode?: ExecutionMode;
  allowDangerous?: boolean;
  /** --allow rules, one per flag. */
  allow?: string[];
}

export const modeOption = (): Option =>
  new Option('--mode <mode>', 'execution mode (keel policy show prints what each allows)').choices([
    ...MODES,
  ]);

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const allowOption = (): Option =>
  new Option('--allow <rule>', 'allow a command for this run, e.g. --allow "npm test" (repeatable)')
    .argParser(collect)
    .default([]);

/** --mode, else --allow-dangerous (full), else agent.terminal.default_mode, else the command's own default. */
export function chooseMode(
  flags: ModeFlags,
  configured: ExecutionMode | undefined,
  fallback: ExecutionMode,
): ExecutionMode {
  if (flags.allowDangerous && flags.mode !== undefined && flags.mode !== 'full') {
    throw new UsageError(`--allow-dangerous means --mode full, which contradicts --mode ${flags.mode}`, {
      hint: 'pass only one of them',
    });
  }
  return flags.mode ?? (flags.allowDangerous ? 'full' : (configured ?? fallback));
}

/** The mode a run takes and why, for `keel policy show`. */
export interface ModeChoice {
  mode: ExecutionMode;
  why: string;
}

export interface DefaultModeOptions {
  /** agent.terminal.default_mode. */
  configured: ExecutionMode | undefined;
  /** --sandbox / --no-sandbox, else safety.sandbox. */
  sandbox: boolean | undefined;
  /** The command's default where auto cannot sandbox: restricted for run, interactive for chat. */
  fallback: ExecutionMode;
  /** Why bubblewrap cannot run here, or undefined; called only when the answer decides the mode. */
  probe: () => Promise<string | undefined>;
}

/**
 * The default mode: the configured one, else auto where its sandbox works, else the command's own. Auto without a
 * sandbox would only ask about every command, so a run whose sandbox is off or broken keeps the older default.
 */
export async function defaultMode(options: DefaultModeOptions): Promise<ModeChoice> {
  if (options.configured) return { mode: options.configured, why: 'agent.terminal.default_mode sets it' };
  if (options.sandbox === false)
    return {
      mode: options.fallback,
      why: 'the sandbox is turned off (--no-sandbox or safety.sandbox: false)',
    };
  const problem = await options.probe();
  if (problem !== undefined) return { mode: options.fallback, why: `no sandbox here: ${problem}` };
  return { mode: 'auto', why: 'bubblewrap works here, so commands run in its sandbox' };
}

/**
 * Starts the sandbox probe (a bwrap process, unless an earlier run's answer is kept) before the command's modules
 * load, where the run will ask for it: the default mode depends on it, and so does full or auto mode's runner. It
 * runs with the default network setting, which is the one almost every config keeps; another setting probes again.
 */
export function probeEarly(flags: ModeFlags & { sandbox?: boolean }): void {
  const mode = flags.allowDangerous ? 'full' : flags.mode;
  if (flags.sandbox === false || (mode !== undefined && mode !== 'full' && mode !== 'auto')) return;
  void probeBubblewrap(false, commandEnv(process.env));
}

/** --mode or --allow-dangerous when given; else the default, probing the sandbox only then. */
export async function resolveMode(
  flags: ModeFlags & { sandbox?: boolean },
  config: KeelConfig,
  fallback: ExecutionMode,
  probe: SandboxProbe = probeBubblewrap,
): Promise<ExecutionMode> {
  return (await resolveModeChoice(flags, config, fallback, probe)).mode;
}

/** As resolveMode, with why the default was taken (`why` is absent when a flag chose the mode). */
export async function resolveModeChoice(
  flags: ModeFlags & { sandbox?: boolean },
  config: KeelConfig,
  fallback: ExecutionMode,
  probe: SandboxProbe = probeBubblewrap,
): Promise<{ mode: ExecutionMode; why?: string }> {
  const chosen = chooseMode(flags, undefined, fallback);
  if (flags.mode !== undefined || flags.allowDangerous) return { mode: chosen };
  const { safety } = config;
  const env = commandEnv(process.env, safety.env_passthrough);
  return defaultMode({
    configured: config.agent.terminal.default_mode,
    sandbox: flags.sandbox ?? safety.sandbox,
    fallback,
    probe: () => probe(safety.sandbox_network, env),
  });
}
