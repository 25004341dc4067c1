// `keel eval tools`: the deterministic tool evals (evals/tools/*.json), a table per tool, exit 1 on any failure.
// `keel eval llm`: how well a model picks its first tool (evals/llm/*.json), CodeCraft's metrics and a JSON report.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { atPath, ExitCode, environmentError, UsageError } from '../core/errors.js';
import { outputPathProblem } from '../core/output-path.js';
import { loadLlmCases } from '../evals/llm-cases.js';
import { runLlmEvals } from '../evals/llm-evals.js';
import { summarize } from '../evals/llm-score.js';
import { loadToolCases, runToolEvals } from '../evals/tool-evals.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { openModel } from '../runtime/git-work.js';
import { caseToolsOpener } from '../runtime/tool-host.js';
import type { CommandOutput } from '../ui/command-output.js';
import { formatLlmEvals, formatToolEvals } from '../ui/eval-report.js';
import { jsonLine } from '../ui/json-output.js';
import { streamStyle } from '../ui/style.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure } from './report.js';
import { runSource } from './run-options.js';

/** Where an eval command prints: the process's streams, or a test's capture of them. */
export interface EvalStreams {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

/** Errors go to the command's streams too, not past them to the process's. */
const outputOf = ({ stdout, stderr }: EvalStreams): CommandOutput => ({
  print: (text) => void stdout.write(text),
  notice: (text) => void stderr.write(text),
});

export interface EvalOptions extends GlobalOptions {
  filter?: string;
  /** The evals directory (default: `evals` in the workspace). */
  dir?: string;
  /** keel eval llm: runs of each case, and where to write the JSON report. */
  repeat?: number;
  report?: string;
}

/**
 * The evals Keel ships (the package's `evals/`, beside `dist/`; the repository's from the sources) that hold `kind`'s
 * cases, or undefined.
 */
export function shippedEvalsDir(kind: 'tools' | 'llm'): string | undefined {
  for (const relative of ['../evals', '../../evals']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(join(dir, kind))) return dir;
  }
  return undefined;
}

/**
 * `--dir`, relative to where keel was started; else the workspace's `evals/` when it holds `kind`'s cases (a
 * project's own evals, or Keel's repository); else the evals shipped with Keel, so an installed `keel eval llm`
 * measures a model from any directory.
 */
export async function evalsDir(options: EvalOptions, kind: 'tools' | 'llm'): Promise<string> {
  if (options.dir !== undefined) return resolve(options.dir);
  const workspace = resolve(await resolveWorkspaceDir(options.cwd), 'evals');
  if (existsSync(join(workspace, kind))) return workspace;
  return shippedEvalsDir(kind) ?? workspace;
}

export async function evalToolsCommand(
  options: EvalOptions,
  streams: EvalStreams = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const { stdout } = streams;
  const json = options.output !== 'text';
  try {
    const dir = await evalsDir(options, 'tools');
    const cases = await loadToolCases(dir, options.filter);
    if (cases.length === 0)
      throw new UsageError(
        `no tool eval case${options.filter ? ` matches "${options.filter}"` : ''} in ${dir}`,
      );
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    const results = await runToolEvals(dir, cases, controller.signal, caseToolsOpener()).finally(() =>
      process.off('SIGINT', stop),
    );
    const failed = results.filter((r) => !r.passed).length;
    if (json) {
      stdout.write(jsonLine({ cases: results.length, passed: results.length - failed, failed, results }));
    } else {
      stdout.write(formatToolEvals(results, streamStyle(stdout, process.env)));
    }
    // Ctrl-C: the cases run before it are reported above, and the exit code says the run was cut short.
    if (controller.signal.aborted) {
      streams.stderr.write('interrupted\n');
      return ExitCode.interrupted;
    }
    return failed === 0 ? ExitCode.ok : ExitCode.failed;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json, out: outputOf(streams) });
  }
}

export async function evalLlmCommand(
  options: EvalOptions,
  streams: EvalStreams = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const { stdout, stderr } = streams;
  const json = options.output !== 'text';
  const controller = new AbortController();
  const interrupted = controller.signal;
  try {
    const dir = await evalsDir(options, 'llm');
    const cases = await loadLlmCases(dir, options.filter);
    if (cases.length === 0) {
      throw new UsageError(
        `no LLM eval case${options.filter ? ` matches "${options.filter}"` : ''} in ${dir}`,
      );
    }
    const report = options.report === undefined ? undefined : resolve(options.report);
    // Before any model call: a report that cannot be written would otherwise fail after the whole (paid) run.
    const unwritable = report === undefined ? undefined : await outputPathProblem(report);
    if (unwritable) {
      throw new UsageError(`cannot write the report to ${report}: ${unwritable.problem}`, {
        hint: unwritable.hint,
      });
    }
    // As a run builds it: config, credentials, retries, and --record (a cassette --cassette replays offline).
    const { model } = await openModel(runSource(options), process.env);
    const style = streamStyle(stderr, process.env);
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    const started = new Date().toISOString();
    const results = await runLlmEvals(cases, {
      model,
      evalsDir: dir,
      repeat: options.repeat ?? 1,
      signal: controller.signal,
      onWarning: (message) => stderr.write(`${style.yellow('warning:')} ${message}\n`),
      onResult: (r) => {
        if (!json) stderr.write(style.dim(`${r.id} #${r.run}: ${r.outcome} ${r.tool ?? ''}\n`));
      },
    }).finally(() => process.off('SIGINT', stop));
    const summary = summarize(results);
    const written = {
      provider: model.provider,
      model: model.modelId,
      started,
      repeat: options.repeat ?? 1,
      summary,
      results,
    };
    if (report !== undefined) {
      await writeFile(report, `${JSON.stringify(written, null, 2)}\n`).catch((error: unknown) => {
        throw environmentError(atPath(error, report)) ?? error;
      });
    }
    if (json) stdout.write(jsonLine(written));
    else stdout.write(formatLlmEvals(results, summary, streamStyle(stdout, process.env)));
    return ExitCode.ok;
  } catch (error) {
    if (interrupted.aborted) {
      stderr.write('interrupted\n');
      return ExitCode.interrupted;
    }
    return reportFailure(error, { debug: options.debug, json, out: outputOf(streams) });
  }
}
