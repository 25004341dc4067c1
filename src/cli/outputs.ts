// The event consumers that print a run: text for people, one JSON object, or a JSON line per event.
import { type EventSink, fanOut } from '../core/events.js';
import type { Model } from '../core/model.js';
import type { Redactor } from '../safety/redact.js';
import { redactingSink } from '../safety/redact-stream.js';
import { createJsonOutput, createStreamJsonOutput } from '../ui/json-output.js';
import { createPlanReport } from '../ui/plan-report.js';
import { createRunSummary } from '../ui/run-summary.js';
import { createSpinner, spinningSink } from '../ui/spinner.js';
import { richTerminal, streamStyle } from '../ui/style.js';
import { createTextRenderer } from '../ui/text-renderer.js';
import { asciiTerminal } from '../ui/todo-list.js';
import { wrappingStream } from '../ui/wrap.js';
import type { GlobalOptions } from './global-options.js';

/** Where a run prints: the process's own streams, or a caller's in the same process (the tests of `keel run`). */
export interface RunStreams {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export const processStreams = (): RunStreams => ({ stdout: process.stdout, stderr: process.stderr });

export interface OutputChoice {
  /** Write answer text to stdout as it streams. */
  streamText: boolean;
  /** false: reasoning is never shown; otherwise it is on a terminal. */
  reasoning?: boolean;
  /** false: the final answer is not printed (the command does something else with it). */
  printAnswer?: boolean;
  /** End a text-mode run with one summary line on stderr. */
  summary?: boolean;
  /** A plan file's instructions: their statuses end the JSON object, and those not done are named on stderr. */
  plan?: readonly string[];
  /**
   * Plan mode: the goal, read when the run ends; the answer is the plan and its rationale (JSON: `goal` and a `plan`
   * array).
   */
  planGoal?: () => string;
}

/**
 * What prints the run for the chosen --output: the text renderer (plus the summary line), JSON, or stream-json.
 * `redact`: JSON and stream-json pass every event through it first (they are kept, piped and logged like sessions).
 */
export function outputSink(
  options: GlobalOptions,
  model: Model,
  setup: OutputChoice,
  redact?: Redactor,
  io: RunStreams = processStreams(),
): EventSink {
  const { stderr } = io;
  const sink = textSink(options, model, setup, io);
  // The plan report and the summary wrap at word boundaries on a terminal, as the tool lines do; a pipe gets them whole.
  const notes = stderr.isTTY ? wrappingStream(stderr, () => stderr.columns || 80) : stderr;
  const printed: EventSink = redact && options.output !== 'text' ? redactingSink(sink, redact) : sink;
  // Whatever the output, a plan run that stops with steps left says which on stderr.
  const text = setup.plan
    ? fanOut(
        printed,
        createPlanReport({
          stderr: notes,
          style: streamStyle(stderr, process.env),
          instructions: setup.plan,
          ascii: asciiTerminal(process.env),
        }),
      )
    : printed;
  if (options.output !== 'text') return text;
  const style = streamStyle(stderr, process.env);
  const all = setup.summary ? fanOut(text, createRunSummary({ stderr: notes, style })) : text;
  // The chat's spinner while the run waits for the model or a tool: at a terminal only, never in a pipe or JSON.
  return richTerminal(stderr, process.env) ? spinningSink(all, createSpinner(stderr, style.dim)) : all;
}

function textSink(options: GlobalOptions, model: Model, setup: OutputChoice, io: RunStreams): EventSink {
  const { stdout, stderr } = io;
  // A plan run's answer is its plan above the rationale, printed once the run has written both.
  const planAnswer = setup.planGoal !== undefined;
  const streamText = setup.streamText && !planAnswer;
  const printAnswer = setup.printAnswer !== false;
  if (options.output === 'stream-json') return createStreamJsonOutput(stdout);
  if (options.output === 'json') {
    // Humans still see errors on stderr; stdout carries only the JSON object.
    const style = streamStyle(stderr, process.env);
    const text = createTextRenderer({
      stdout: devNull,
      stderr,
      style,
      streamText: false,
      showReasoning: false,
    });
    return fanOut(
      createJsonOutput(stdout, {
        provider: model.provider,
        model: model.modelId,
        ...(setup.plan ? { plan: setup.plan } : {}),
        ...(setup.planGoal !== undefined ? { planGoal: setup.planGoal } : {}),
      }),
      (e) => {
        if (e.type === 'error' || e.type === 'warning' || e.type === 'status' || e.type === 'run_end')
          text(e);
      },
    );
  }
  const style = streamStyle(stderr, process.env);
  return createTextRenderer({
    stdout: printAnswer ? stdout : devNull,
    stderr,
    style,
    streamText,
    showReasoning: setup.reasoning !== false && Boolean(stderr.isTTY),
    ascii: asciiTerminal(process.env),
    // TERM=dumb and a pipe get the answer exactly as the model wrote it (NO_COLOR only drops the colour).
    ...(printAnswer && streamText && richTerminal(stdout, process.env)
      ? { markdown: { width: () => stdout.columns || 80 } }
      : {}),
    // Tool lines and notes wrap at word boundaries on a terminal, a dumb one too; a pipe gets them whole.
    ...(stderr.isTTY ? { columns: () => stderr.columns || 80 } : {}),
    planAnswer,
  });
}

const devNull = { write: () => true } as unknown as NodeJS.WritableStream;
