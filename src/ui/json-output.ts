// Machine-readable outputs: `--output json` (one object at the end) and `--output stream-json` (one event per line).
import type { AgentEvent, EventSink } from '../core/events.js';
import type { TodoItem } from '../core/todos.js';
import { trackPlan } from '../plan/progress.js';

/**
 * One JSON line a terminal may show as is: JSON escapes C0 controls itself; C1 controls and bidi overrides
 * (which can reorder what a person reads) are escaped too, and still parse to the same string.
 */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(
    /[\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )}\n`;
}

export function createStreamJsonOutput(stdout: NodeJS.WritableStream): EventSink {
  return (event) => {
    stdout.write(jsonLine(event));
  };
}

/** The object `--output json` ends a run with, for a run that failed before it started: nothing done, the error. */
export function failedRunObject(error: { code: string; message: string; hint?: string }) {
  return {
    answer: '',
    reason: 'failed',
    turns: 0,
    tool_calls: [],
    usage: { input_tokens: 0, output_tokens: 0 },
    error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) },
  };
}

interface CollectedCall {
  id: string;
  name: string;
  args: unknown;
  success?: boolean;
  error?: string;
}

/** Collects the run and prints one JSON object when it ends; a plan run's ends with each instruction's status. */
export function createJsonOutput(
  stdout: NodeJS.WritableStream,
  /**
   * `planGoal`: a plan-mode run, whose object carries its goal (read at the end: a piped goal is cut once the run is
   * assembled) and its plan (the last todo list) for --plan-file.
   */
  info: { provider: string; model: string; plan?: readonly string[]; planGoal?: () => string },
): EventSink {
  const calls: CollectedCall[] = [];
  const plan = info.plan ? trackPlan(info.plan) : undefined;
  let planned: TodoItem[] = [];
  let error: { code: string; message: string; hint?: string } | undefined;
  /** Sources the answer may cite (provider annotations, web_search's results), once each. */
  let citations: { url: string; title?: string }[] = [];
  return (event: AgentEvent) => {
    // A sub-agent's work is in its task's result; stream-json shows it whole.
    if (event.parent !== undefined) return;
    switch (event.type) {
      case 'citation':
        if (!citations.some((c) => c.url === event.url))
          citations.push({ url: event.url, ...(event.title ? { title: event.title } : {}) });
        break;
      case 'tool_call':
        calls.push({ id: event.id, name: event.name, args: event.args });
        break;
      case 'tool_result': {
        const call = calls.find((c) => c.id === event.id);
        if (call) {
          call.success = event.success;
          if (event.error) call.error = event.error;
        }
        break;
      }
      case 'todo':
        plan?.update(event.todos);
        planned = event.todos;
        break;
      case 'error':
        error = { code: event.code, message: event.message, ...(event.hint ? { hint: event.hint } : {}) };
        break;
      case 'run_end':
        stdout.write(
          jsonLine({
            answer: event.answer,
            reason: event.reason,
            turns: event.turns,
            tool_calls: calls,
            usage: event.usage,
            provider: info.provider,
            model: info.model,
            ...(error ? { error } : {}),
            ...(citations.length > 0 ? { citations } : {}),
            ...(plan ? { plan: plan.steps() } : {}),
            ...(info.planGoal !== undefined && !plan
              ? {
                  goal: info.planGoal(),
                  plan: planned.map((todo) => ({
                    id: todo.id,
                    instruction: todo.content,
                    status: todo.status,
                  })),
                }
              : {}),
          }),
        );
        calls.length = 0;
        error = undefined;
        citations = [];
        break;
      default:
        break;
    }
  };
}

/**
 * stream-json's last line for a run that failed before its loop started (a missing key, a cassette that does not
 * load, no goal): after its `error` event, the `run_end` the loop ends every run it starts with.
 */
export function writeUnstartedRunEnd(stdout: NodeJS.WritableStream): void {
  const end: AgentEvent = {
    type: 'run_end',
    reason: 'failed',
    answer: '',
    turns: 0,
    tool_calls: 0,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
  stdout.write(jsonLine(end));
}
