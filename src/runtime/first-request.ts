// When a run's first model request is out. Work that only later calls need (creating the checkpoint store, hashing
// the tree for the first checkpoint) waits for it: forking git from a loaded Node process costs the main thread
// milliseconds per process, which would otherwise all come before that request.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { AgentEvent } from '../core/events.js';
import { requestSentChannel } from '../providers/http-fetch.js';

// The providers' fetch (providers/http-fetch.ts) publishes on requestSentChannel once a model request is out. Not on
// undici's channels: any fetch would open the gate there, an MCP server's over HTTP before the model's first request.

/** Events that follow a model response: the fallback for a model that does not fetch (replay, in-process tests). */
const RESPONDED = new Set<AgentEvent['type']>([
  'text_delta',
  'reasoning_delta',
  'tool_call',
  'usage',
  'turn_end',
]);

export interface FirstRequest {
  /** Runs `work` once the first request is out (at once after that). */
  after(work: () => void): void;
  /** Sees the run's events (a sink for runEvents). */
  seen(event: AgentEvent): void;
  /** Stops listening (the run ended before any request). */
  dispose(): void;
}

export function firstRequest(): FirstRequest {
  let out = false;
  let waiting: (() => void)[] = [];
  const release = () => {
    if (out) return;
    out = true;
    unsubscribe(requestSentChannel, release);
    const ready = waiting;
    waiting = [];
    for (const work of ready) work();
  };
  subscribe(requestSentChannel, release);
  return {
    after(work) {
      if (out) work();
      else waiting.push(work);
    },
    seen(event) {
      if (RESPONDED.has(event.type)) release();
    },
    dispose() {
      unsubscribe(requestSentChannel, release);
      waiting = [];
    },
  };
}
