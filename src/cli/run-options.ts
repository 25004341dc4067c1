// The command line's side of a run: keel's flags as the runtime's RunSource (paths resolved against where keel was
// started), and the outputs that render the run's events. The run itself is assembled by runtime/assemble.ts.
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { dataDir } from '../config/paths.js';
import type { EventSink } from '../core/events.js';
import type { Run, RunOptions } from '../runtime/assemble.js';
import { loadRunConfig, type RunSource } from '../runtime/config.js';
import { resolveWorkspaceDir } from '../runtime/workspace-dir.js';
import { checkResumable, type ResumeRequest } from '../session/resume.js';
import { sessionDir } from '../session/session-list.js';
import type { GlobalOptions } from './global-options.js';
import { type OutputChoice, outputSink, type RunStreams } from './outputs.js';

/** Where the run starts, from keel's own flags. */
export function runSource(options: GlobalOptions): RunSource {
  return {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    // Paths given on the command line are relative to where keel was started, not to the workspace.
    ...(options.config === undefined ? {} : { configFile: resolve(options.config) }),
    ...(options.record === undefined ? {} : { record: resolve(options.record) }),
    flags: {
      provider: options.provider,
      model: options.model,
      baseUrl: options.baseUrl,
      maxTurns: options.maxTurns,
      cassette: options.cassette === undefined ? undefined : resolve(options.cassette),
    },
  };
}

export function loadConfigFor(options: GlobalOptions): Promise<LoadedConfig> {
  return loadRunConfig(runSource(options), process.env);
}

/**
 * --continue or --resume <id> name a session this workspace holds (else a usage error, exit 2): checked before a
 * provider is set up or needed, so a mistyped id is not reported as a missing provider.
 */
export async function checkResumeFlags(options: GlobalOptions & ResumeRequest): Promise<void> {
  if (options.resume === undefined && !options.continue) return;
  const workspace = await realpath(await resolveWorkspaceDir(options.cwd));
  await checkResumable(sessionDir(dataDir(process.env), workspace), options);
}

/** What a subcommand asks of its run: the runtime's options and how the CLI prints the events. */
export type CliRunOptions = Omit<RunOptions, keyof RunSource | 'outputs' | 'env'> &
  OutputChoice & {
    /** Prints the events in place of the --output choice: the chat's screen, which owns every byte it shows. */
    output?: EventSink;
  };

/**
 * Assembles the run for a subcommand, its events printed as --output says (or by the chat's screen), to `io`
 * (default: the process's stdout and stderr).
 */
export async function startRun(options: GlobalOptions, choice: CliRunOptions, io?: RunStreams): Promise<Run> {
  const { output, ...rest } = choice;
  // Loaded here, not imported: the run's modules (tools, safety, the agent loop) are evaluated once a run starts, so
  // the chat draws its prompt first and assembles its run while the user types.
  const { assembleRun } = await import('../runtime/assemble.js');
  return assembleRun({
    ...rest,
    ...runSource(options),
    outputs: (model, redact) => output ?? outputSink(options, model, choice, redact, io),
  });
}
