// `keel config show` and `keel config init`.
import { resolve } from 'node:path';
import { projectConfigPath, userConfigPath } from '../config/paths.js';
import { formatConfig } from '../config/show.js';
import { writeStarterConfig } from '../config/starter.js';
import { ExitCode } from '../core/errors.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure, reportWarnings } from './report.js';
import { loadConfigFor } from './run-options.js';

export async function configShowCommand(options: GlobalOptions): Promise<number> {
  try {
    const loaded = await loadConfigFor(options);
    reportWarnings(loaded.warnings);
    process.stdout.write(formatConfig(loaded));
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug });
  }
}

export async function configInitCommand(
  options: GlobalOptions & { project?: boolean; force?: boolean },
): Promise<number> {
  try {
    const path = options.project
      ? projectConfigPath(await resolveWorkspaceDir(options.cwd))
      : options.config !== undefined
        ? resolve(options.config)
        : userConfigPath(process.env);
    await writeStarterConfig(path, { force: options.force });
    process.stdout.write(`wrote ${path}\n`);
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug });
  }
}
