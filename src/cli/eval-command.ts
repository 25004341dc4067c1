// `keel eval tools`: the deterministic tool evals (evals/tools/*.json), a table per tool, exit 1 on any failure.
import { resolve } from 'node:path';
import { ExitCode, UsageError } from '../core/errors.js';
import { loadToolCases, runToolEvals } from '../evals/tool-evals.js';
import { formatToolEvals } from '../ui/eval-report.js';
import { jsonLine } from '../ui/json-output.js';
import { colorEnabled, createStyle } from '../ui/style.js';
import type { GlobalOptions } from './main.js';
import { reportFailure } from './report.js';
import { resolveWorkspaceDir } from './setup.js';

export interface EvalOptions extends GlobalOptions {
  filter?: string;
  /** The evals directory (default: `evals` in the workspace). */
  dir?: string;
}

/** `--dir`, relative to where keel was started, else `<workspace>/evals`. */
export async function evalsDir(options: EvalOptions): Promise<string> {
  if (options.dir !== undefined) return resolve(options.dir);
  return resolve(await resolveWorkspaceDir(options.cwd), 'evals');
}

export async function evalToolsCommand(options: EvalOptions): Promise<number> {
  const json = options.output !== 'text';
  try {
    const dir = await evalsDir(options);
    const cases = await loadToolCases(dir, options.filter);
    if (cases.length === 0)
      throw new UsageError(
        `no tool eval case${options.filter ? ` matches "${options.filter}"` : ''} in ${dir}`,
      );
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    const results = await runToolEvals(dir, cases, controller.signal).finally(() =>
      process.off('SIGINT', stop),
    );
    const failed = results.filter((r) => !r.passed).length;
    if (json) {
      process.stdout.write(
        jsonLine({ cases: results.length, passed: results.length - failed, failed, results }),
      );
    } else {
      process.stdout.write(formatToolEvals(results, createStyle(colorEnabled(process.stdout, process.env))));
    }
    return failed === 0 ? ExitCode.ok : ExitCode.failed;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json });
  }
}
