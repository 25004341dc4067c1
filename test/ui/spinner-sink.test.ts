// keel run's spinner follows the event stream as the chat's does: on while the run waits, off while anything prints.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/events.js';
import { type Spinner, spinningSink } from '../../src/ui/spinner.js';

function recorded() {
  const log: string[] = [];
  let on: string | undefined;
  const spinner: Spinner = {
    start: (label) => {
      on = label;
    },
    stop: () => {
      on = undefined;
    },
  };
  const sink = spinningSink((event) => {
    // Whatever prints an event finds the spinner's line cleared.
    log.push(`${event.type}${on ? ' (spinner drawn!)' : ''}`);
  }, spinner);
  return { sink, log, shown: () => on };
}

const events: Record<string, AgentEvent> = {
  turn_start: { type: 'turn_start', turn: 1 } as AgentEvent,
  text_delta: { type: 'text_delta', turn: 1, delta: 'hi' },
  tool_call: { type: 'tool_call', id: '1', name: 'read_file', input: {} } as unknown as AgentEvent,
  tool_result: { type: 'tool_result', id: '1', name: 'read_file', success: true } as unknown as AgentEvent,
  usage: { type: 'usage', input_tokens: 1, output_tokens: 1 } as AgentEvent,
  run_end: { type: 'run_end', reason: 'done' } as unknown as AgentEvent,
  user_question: { type: 'user_question', id: '1', question: 'which?' } as AgentEvent,
};

describe('spinningSink', () => {
  it.each([
    [['turn_start'], 'thinking'],
    [['turn_start', 'text_delta'], undefined],
    [['turn_start', 'tool_call'], 'running read_file'],
    [['turn_start', 'tool_call', 'tool_result'], undefined],
    [['turn_start', 'usage'], 'thinking'],
    [['turn_start', 'run_end'], undefined],
    // ask_user's prompt needs the line the spinner redraws.
    [['turn_start', 'tool_call', 'user_question'], undefined],
  ])('after %j the spinner shows %s', (sequence, label) => {
    const { sink, log, shown } = recorded();
    for (const name of sequence) sink(events[name]!);
    expect(shown()).toBe(label);
    expect(log.join('\n')).not.toContain('spinner drawn');
  });
});
