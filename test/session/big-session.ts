// A large session file written by the session store itself: turns of a user message, a tool call with its result
// (a file's worth of text), usage and an answer, and a compaction now and then that replaces the older messages.
import { createEventStream } from '../../src/core/events.js';
import { createRedactor } from '../../src/safety/redact.js';
import { createSessionStore } from '../../src/session/session-store.js';

/**
 * Writes turns to `file` until it holds about `bytes`, compacted every `compactEvery` turns (never when 0); returns
 * the number of turns written.
 */
export async function writeBigSession(
  file: string,
  id: string,
  workspace: string,
  bytes: number,
  compactEvery = 0,
): Promise<number> {
  const store = createSessionStore({
    file,
    resumed: false,
    redact: createRedactor({}),
    meta: { id, workspace, provider: 'ollama', model: 'm' },
  });
  const events = createEventStream(store.sink);
  const output = `${'const line = "a tool result as big as a source file";\n'.repeat(400)}`;
  const perTurn = 2 * JSON.stringify(output).length + 1_000;
  const turns = Math.max(1, Math.ceil(bytes / perTurn));
  events.emit({ type: 'run_start', provider: 'ollama', model: 'm', workspace });
  events.emit({ type: 'message', role: 'system', content: 'You are Keel.' });
  let messages = 1;
  for (let turn = 1; turn <= turns; turn++) {
    const id = `c${turn}`;
    events.emit({ type: 'message', role: 'user', content: `turn ${turn}: read src/file${turn}.ts` });
    const input = JSON.stringify({ path: `src/file${turn}.ts` });
    events.emit({
      type: 'message',
      role: 'assistant',
      content: '',
      tool_calls: [{ id, name: 'read_file', input }],
    });
    events.emit({ type: 'tool_call', turn, id, name: 'read_file', args: { path: `src/file${turn}.ts` } });
    events.emit({
      type: 'tool_result',
      turn,
      id,
      name: 'read_file',
      success: true,
      display: output,
      truncated: false,
      metadata: {},
      duration_ms: 1,
    });
    events.emit({ type: 'message', role: 'tool', tool_call_id: id, tool_name: 'read_file', content: output });
    events.emit({ type: 'message', role: 'assistant', content: `answer ${turn}` });
    events.emit({ type: 'usage', turn, provider: 'ollama', model: 'm', input_tokens: 10, output_tokens: 5 });
    messages += 4;
    if (compactEvery > 0 && turn % compactEvery === 0) {
      // Compacted: everything after the system prompt becomes one summary message.
      const summary = {
        type: 'message' as const,
        role: 'user' as const,
        content: `summary up to turn ${turn}`,
      };
      events.emit({
        type: 'compaction',
        turn,
        trigger: 'auto',
        tokens_before: 1000,
        tokens_after: 10,
        summary: summary.content,
        edits: [{ from: 1, count: messages - 1, messages: [summary] }],
      });
      messages = 2;
    }
    if (turn % 20 === 0) await events.flush();
  }
  events.emit({
    type: 'run_end',
    reason: 'done',
    answer: 'done',
    turns,
    tool_calls: turns,
    usage: { input_tokens: 10 * turns, output_tokens: 5 * turns },
  });
  await events.flush();
  await store.close();
  return turns;
}
