// web_fetch's page condensing asks the run's model: what that request spends is the run's too (its totals and
// cost, through the tool spend), and a usage event (turn 0) for the session and the chat's /cost.
import { expect, it } from 'vitest';
import { ToolSpend } from '../../src/agent/tool-spend.js';
import type { AgentEvent } from '../../src/core/events.js';
import type { Model, ModelEvent } from '../../src/core/model.js';
import { modelCondenser } from '../../src/runtime/web.js';

const model: Model = {
  provider: 'anthropic',
  modelId: 'm',
  capabilities: { price: { inputPerMTok: 3, outputPerMTok: 15 } } as Model['capabilities'],
  async *stream(): AsyncIterable<ModelEvent> {
    yield { type: 'text', delta: 'The page says 42.' };
    yield { type: 'usage', usage: { inputTokens: 1_000_000, outputTokens: 100_000 } };
  },
};

it("counts a condensing request's tokens and cost in the run's, and says so in a usage event", async () => {
  const spend = new ToolSpend();
  const events: AgentEvent[] = [];
  const condense = modelCondenser(model, spend, (e) => events.push(e));
  expect(await condense('<p>42</p>', 'what number?', new AbortController().signal)).toBe('The page says 42.');
  expect(spend.take()).toEqual({ usage: { inputTokens: 1_000_000, outputTokens: 100_000 }, costUsd: 4.5 });
  expect(spend.take()).toBeUndefined();
  expect(events).toEqual([
    {
      type: 'usage',
      turn: 0,
      provider: 'anthropic',
      model: 'm',
      input_tokens: 1_000_000,
      output_tokens: 100_000,
      cost_usd: 4.5,
    },
  ]);
});

it('leaves the cost unknown once any part of what was spent has no known price', () => {
  const spend = new ToolSpend();
  spend.add({ inputTokens: 10, outputTokens: 1 }, 0.5);
  spend.add({ inputTokens: 5, outputTokens: 1 }, undefined);
  expect(spend.take()).toEqual({ usage: { inputTokens: 15, outputTokens: 2 } });
});
