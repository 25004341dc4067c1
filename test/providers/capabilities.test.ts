// The model table lookup, merging server data over it, and the prompt budget a context window leaves.
import { describe, expect, it } from 'vitest';
import { pruneIfNeeded } from '../../src/agent/context-budget.js';
import { Conversation } from '../../src/agent/conversation.js';
import { capabilitiesOf, lookupModel, promptBudget } from '../../src/providers/capabilities.js';
import { modelTable } from '../../src/providers/model-table.js';

describe('model table lookup', () => {
  it('keeps the XZatoma token table as its floor', () => {
    expect(lookupModel('gpt-5-mini')?.contextWindow).toBe(128_000);
    expect(lookupModel('gpt-4o-mini')?.contextWindow).toBe(128_000);
    expect(lookupModel('qwen3')?.contextWindow).toBe(32_768);
    expect(lookupModel('llama3')?.contextWindow).toBe(8_192);
  });

  it('finds an id exactly, case-insensitively', () => {
    expect(lookupModel('GPT-4.1')).toMatchObject({
      id: 'gpt-4.1',
      contextWindow: 1_047_576,
      maxOutput: 32_768,
    });
    expect(lookupModel('claude-sonnet-4-5')).toMatchObject({ contextWindow: 200_000, maxOutput: 64_000 });
  });

  it('drops an Ollama tag or OpenRouter suffix: qwen3:8b is qwen3', () => {
    expect(lookupModel('qwen3:8b')?.id).toBe('qwen3');
    expect(lookupModel('gpt-4o-mini:free')?.id).toBe('gpt-4o-mini');
  });

  it('drops a vendor prefix: anthropic/claude-sonnet-4 is claude-sonnet-4', () => {
    expect(lookupModel('anthropic/claude-sonnet-4')?.id).toBe('claude-sonnet-4');
    expect(lookupModel('google/gemini-2.5-flash')?.id).toBe('gemini-2.5-flash');
  });

  it('takes the longest family the id starts with at a separator', () => {
    expect(lookupModel('llama3.1:8b')?.id).toBe('llama3.1');
    expect(lookupModel('llama3.3:70b')?.id).toBe('llama3');
    expect(lookupModel('claude-sonnet-4-5-20250929')?.id).toBe('claude-sonnet-4-5');
    expect(lookupModel('claude-sonnet-4-20250514')?.id).toBe('claude-sonnet-4');
    expect(lookupModel('gpt-4.1-mini-2025-04-14')?.id).toBe('gpt-4.1-mini');
    expect(lookupModel('qwen3-coder:30b')?.id).toBe('qwen3');
  });

  it('matches no family across a word: gpt-4o is not gpt-4, mystery models are unknown', () => {
    expect(lookupModel('gpt-4oo')).toBeUndefined();
    expect(lookupModel('mystery-model')).toBeUndefined();
    expect(capabilitiesOf('mystery-model')).toEqual({ id: 'mystery-model', source: 'unknown' });
  });

  it('holds sane data: unique ids, windows above outputs, non-negative prices', () => {
    expect(new Set(modelTable.map((e) => e.id)).size).toBe(modelTable.length);
    for (const entry of modelTable) {
      expect(entry.id).toBe(entry.id.toLowerCase());
      expect(entry.maxOutput ?? 0).toBeLessThanOrEqual(entry.contextWindow);
      if (entry.price)
        expect(Math.min(entry.price.inputPerMTok, entry.price.outputPerMTok)).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('capabilitiesOf', () => {
  it('prefers what the server said and fills gaps from the table', () => {
    const caps = capabilitiesOf('qwen3:latest', { id: 'qwen3:latest', contextWindow: 40_960, tools: false });
    expect(caps).toEqual({
      id: 'qwen3:latest',
      contextWindow: 40_960,
      tools: false,
      streaming: true,
      source: 'server',
    });
  });

  it('says table when only the table knows the model', () => {
    expect(capabilitiesOf('gpt-4.1-mini')).toMatchObject({
      source: 'table',
      price: { inputPerMTok: 0.4, outputPerMTok: 1.6 },
    });
  });
});

describe('promptBudget', () => {
  it('is unknown without a context window', () => {
    expect(promptBudget(undefined)).toBeUndefined();
    expect(promptBudget({ id: 'x', source: 'unknown' })).toBeUndefined();
  });

  it('leaves room for the answer: the output limit, at most 16k and a quarter of the window', () => {
    expect(promptBudget({ id: 'x', source: 'server', contextWindow: 40_960 })).toBe(40_960 - 8192);
    expect(promptBudget({ id: 'x', source: 'table', contextWindow: 8192 })).toBe(8192 - 2048);
    expect(promptBudget({ id: 'x', source: 'table', contextWindow: 200_000, maxOutput: 64_000 })).toBe(
      200_000 - 16_384,
    );
    expect(promptBudget({ id: 'x', source: 'table', contextWindow: 128_000, maxOutput: 4096 })).toBe(
      128_000 - 4096,
    );
  });

  it('makes a conversation with a small window prune where the configured budget would not', () => {
    const limits = { minRetainTurns: 1, pruneThreshold: 0.8 };
    const small = promptBudget(capabilitiesOf('llama3'))!;
    const configured = 100_000;
    const fill = (conversation: Conversation) => {
      conversation.push({ role: 'user', content: 'go' });
      for (let turn = 0; turn < 6; turn++) {
        conversation.push({
          role: 'assistant',
          content: '',
          toolCalls: [{ id: `c${turn}`, name: 'read_file', input: '{}' }],
        });
        conversation.push({
          role: 'tool',
          toolCallId: `c${turn}`,
          toolName: 'read_file',
          content: 'x'.repeat(4000),
        });
      }
      return pruneIfNeeded(conversation);
    };
    expect(fill(new Conversation('system', { ...limits, maxTokens: configured }))).toBeUndefined();
    const pruned = new Conversation('system', { ...limits, maxTokens: Math.min(configured, small) });
    expect(fill(pruned)?.summary).toMatch(/cut to head and tail|tool calls: read_file/);
    expect(pruned.tokenCount).toBeLessThan(small * 0.8);
  });
});
