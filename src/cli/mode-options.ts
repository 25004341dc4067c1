// The execution mode and one-run rules chosen on the command line: --mode, --allow-dangerous (its alias for full)
// and --allow, shared by run, chat and `keel policy check`.
import { Option } from 'commander';
import { UsageError } from '../core/errors.js';
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
