// Machine-readable outputs: `--output json` (one object at the end) and `--output stream-json` (one event per line).
import type { AgentEvent, EventSink } from '../core/events.js';

export function createStreamJsonOutput(stdout: NodeJS.WritableStream): EventSink {
  return (event) => {
    stdout.write(`${JSON.stringify(event)}\n`);
  };
}

interface CollectedCall {
  id: string;
  name: string;
  args: unknown;
  success?: boolean;
  error?: string;
}

/** Collects the run and prints one JSON object when it ends. */
export function createJsonOutput(
  stdout: NodeJS.WritableStream,
  info: { provider: string; model: string },
): EventSink {
  const calls: CollectedCall[] = [];
  let error: { code: string; message: string; hint?: string } | undefined;
  return (event: AgentEvent) => {
    switch (event.type) {
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
      case 'error':
        error = { code: event.code, message: event.message, ...(event.hint ? { hint: event.hint } : {}) };
        break;
      case 'run_end':
        stdout.write(
          `${JSON.stringify({
            answer: event.answer,
            reason: event.reason,
            turns: event.turns,
            tool_calls: calls,
            usage: event.usage,
            provider: info.provider,
            model: info.model,
            ...(error ? { error } : {}),
          })}\n`,
        );
        calls.length = 0;
        error = undefined;
        break;
      default:
        break;
    }
  };
}
