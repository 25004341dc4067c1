// Session summaries and their sidecars: turns count model answers, titles leave Keel's notes out, the cost adds each
// request's at its own model's price (old files: at their meta's, cached tokens at cache prices), the store keeps
// `<id>.meta.json` current, and listing reads it instead of the messages.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentEvent, createEventStream } from '../../src/core/events.js';
import { createRedactor } from '../../src/safety/redact.js';
import { parseSidecar, sidecarOf } from '../../src/session/session-list.js';
import { listSessions } from '../../src/session/session-sidecar.js';
import { createSessionStore } from '../../src/session/session-store.js';
import { SessionTally, titleOf } from '../../src/session/session-summary.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keel-sidecar-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const meta = {
  id: 's1',
  workspace: '/w',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  started: '2026-01-01T00:00:00.000Z',
  price: { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 },
};
const at = (event: AgentEvent) => ({ ...event, time: '2026-01-01T00:01:00.000Z' });

describe('session titles', () => {
  it.each([
    ['fix the bug', 'fix the bug'],
    ['fix the bug\n\n[Keel: debug task, single file. Reproduce it first.]', 'fix the bug'],
    ['[Keel: your answer was cut off by the output limit.]', ''],
    ['two\nlines\n\n[Keel: note]\n\n[Keel: another]', 'two lines'],
    ['x'.repeat(100), `${'x'.repeat(71)}…`],
    ['why?\n\nInput piped to keel on stdin:\n<stdin>\nCONTEXT\n</stdin>\n\n[Keel: debug task.]', 'why?'],
    ['what is it?\n\nInput piped to keel on stdin: an ELF executable, 5 bytes, not shown.', 'what is it?'],
    [
      'what is in @a.json?\n\n<file path="a.json">\n{"name": "a"}\n</file>\n\n[Keel: explain.]',
      'what is in @a.json?',
    ],
    [
      'You are assisting with the following task:\n\nGOAL: Document the errors module\n\nINSTRUCTIONS (follow as guidance):\n1. List them',
      'Document the errors module',
    ],
  ])('titleOf(%j) is %j', (content, title) => {
    expect(titleOf(content)).toBe(title);
  });
});

describe('session tally', () => {
  it('counts model turns, not user prompts, and takes the first own user words as title', () => {
    const tally = new SessionTally(meta);
    tally.add(at({ type: 'message', role: 'user', content: '[Keel: a note]' }));
    tally.add(at({ type: 'message', role: 'user', content: 'build it\n\n[Keel: implement task.]' }));
    for (let i = 0; i < 500; i++) tally.add(at({ type: 'message', role: 'assistant', content: 'step' }));
    tally.add(at({ type: 'message', role: 'user', content: 'and more' }));
    expect(tally.current).toMatchObject({ title: 'build it', turns: 500 });
  });

  it('prices the cached input of a usage line written before per-request costs at the cache prices of its meta', () => {
    const tally = new SessionTally(meta);
    const legacy = {
      type: 'usage',
      turn: 1,
      input_tokens: 1_000_000,
      output_tokens: 0,
      cache_read_tokens: 800_000,
      cache_write_tokens: 100_000,
    };
    tally.add(at(legacy as AgentEvent));
    // 100k plain at $3 + 800k read at $0.30 + 100k written at $3.75
    expect(tally.current).toMatchObject({
      input_tokens: 1_000_000,
      cache_read_tokens: 800_000,
      cache_write_tokens: 100_000,
      cost: 0.3 + 0.24 + 0.375,
    });
    expect(tally.current.cost_partial).toBeUndefined();
  });
});

describe('session cost across models', () => {
  /** A request's usage line as Keel writes it now: the model that served it, and its cost when the price is known. */
  const used = (model: string, tokens: number, cost?: number, parent?: string): AgentEvent => ({
    type: 'usage',
    turn: 1,
    provider: model.split('/')[0]!,
    model: model.split('/')[1]!,
    input_tokens: tokens,
    output_tokens: 0,
    ...(cost === undefined ? {} : { cost_usd: cost }),
    ...(parent === undefined ? {} : { parent }),
  });
  /** A usage line written before requests were priced one by one: no model, no cost. */
  const legacy = (tokens: number) =>
    ({ type: 'usage', turn: 1, input_tokens: tokens, output_tokens: 0 }) as AgentEvent;
  const sonnet = 'anthropic/claude-sonnet-4-5';
  const mini = 'openai-compatible/gpt-4o-mini';
  const qwen = 'ollama/qwen3';
  type Meta = ConstructorParameters<typeof SessionTally>[0];
  const unpricedMeta: Meta = { ...meta, price: undefined };

  it.each<[string, Meta, AgentEvent[], { cost?: number; cost_partial?: boolean }]>([
    ['one priced model', meta, [used(sonnet, 1000, 0.003)], { cost: 0.003 }],
    [
      'two priced models: each at its own price',
      meta,
      [used(sonnet, 1000, 0.003), used(mini, 1000, 0.00015)],
      { cost: 0.00315 },
    ],
    [
      'an unpriced model after a priced one keeps the known part',
      meta,
      [used(sonnet, 1000, 0.003), used(qwen, 10)],
      { cost: 0.003, cost_partial: true },
    ],
    [
      'a priced model after an unpriced one counts only its own',
      unpricedMeta,
      [used(qwen, 1000), used(mini, 1000, 0.00015)],
      { cost: 0.00015, cost_partial: true },
    ],
    ['only unpriced models: no cost', meta, [used(qwen, 1000), used(qwen, 10)], {}],
    [
      'an unpriced request with no tokens leaves the cost whole',
      meta,
      [used(sonnet, 1000, 0.003), used(qwen, 0)],
      { cost: 0.003 },
    ],
    [
      "a sub-agent's request at its model's price",
      meta,
      [used(sonnet, 1000, 0.003), used(mini, 1000, 0.00015, 'call-1')],
      { cost: 0.00315 },
    ],
    ['no requests: no cost', meta, [], {}],
    // Files written before this change: their usage lines at the meta's price, as they were listed then.
    ['old lines at the price of the meta', meta, [legacy(1_000_000), legacy(1_000_000)], { cost: 6 }],
    ['old lines without a price in the meta', unpricedMeta, [legacy(1000)], {}],
    [
      'an old session continued on an unpriced model',
      meta,
      [legacy(1_000_000), used(qwen, 1000)],
      { cost: 3, cost_partial: true },
    ],
    [
      'an unpriced old session continued on a priced model',
      unpricedMeta,
      [legacy(1000), used(sonnet, 1000, 0.003)],
      { cost: 0.003, cost_partial: true },
    ],
  ])('%s', (_, start, events, expected) => {
    const whole = new SessionTally(start);
    for (const event of events) whole.add(at(event));
    const { cost, cost_partial } = whole.current;
    expect({ cost, cost_partial }).toEqual({ cost: undefined, cost_partial: undefined, ...expected });
    // A resumed session's store continues from the summary so far: at any point, the same result as the whole file.
    for (let split = 0; split <= events.length; split++) {
      const first = new SessionTally(start);
      for (const event of events.slice(0, split)) first.add(at(event));
      const rest = new SessionTally(start, first.current);
      for (const event of events.slice(split)) rest.add(at(event));
      expect(rest.current, `continued after ${split} events`).toEqual(whole.current);
    }
  });

  it('adds many small costs without floating-point tails', () => {
    const tally = new SessionTally(meta);
    for (let i = 0; i < 10; i++) tally.add(at(used(mini, 100, 0.1)));
    tally.add(at(used(mini, 100, 0.2)));
    expect(tally.current.cost).toBe(1.2);
  });
});

describe('session sidecar', () => {
  async function writeSession(id: string, prompts: number) {
    const file = join(dir, `${id}.jsonl`);
    const store = createSessionStore({
      file,
      resumed: false,
      redact: createRedactor({}),
      meta: { id, workspace: '/w', provider: 'p', model: 'm' },
    });
    const events = createEventStream(store.sink);
    events.emit({ type: 'run_start', provider: 'p', model: 'm', workspace: '/w' });
    for (let p = 0; p < prompts; p++) {
      events.emit({ type: 'message', role: 'user', content: `prompt ${p}` });
      for (let turn = 1; turn <= 3; turn++) {
        events.emit({
          type: 'usage',
          turn,
          provider: 'p',
          model: 'm',
          input_tokens: 100,
          output_tokens: 10,
          cache_read_tokens: 60,
        });
        events.emit({ type: 'message', role: 'assistant', content: `answer ${turn}` });
        events.emit({ type: 'turn_end', turn, tool_calls: 0 });
      }
    }
    await events.flush();
    await store.close();
    return file;
  }

  it('is written at turn end and lists a session whose message lines are garbage', async () => {
    const file = await writeSession('garbled', 2);
    const sidecar = JSON.parse(await readFile(sidecarOf(file), 'utf8'));
    expect(sidecar.summary).toMatchObject({ turns: 6, input_tokens: 600, cache_read_tokens: 360 });
    // Same length, no longer JSON: only a reader of the messages would notice.
    const text = await readFile(file, 'utf8');
    const lines = text.split('\n');
    const garbled = [lines[0], ...lines.slice(1).map((l) => l.replace(/./g, '#'))].join('\n');
    await writeFile(file, garbled);
    const [listed] = (await listSessions(dir)).filter((s) => s.id === 'garbled');
    expect(listed).toMatchObject({ title: 'prompt 0', turns: 6, input_tokens: 600, output_tokens: 60 });
  });

  it('continues the totals of a resumed session and covers the whole file', async () => {
    const file = await writeSession('resumed', 1);
    const [before] = (await listSessions(dir)).filter((s) => s.id === 'resumed');
    const store = createSessionStore({
      file,
      resumed: true,
      summary: before!,
      redact: createRedactor({}),
      meta: {
        id: 'resumed',
        workspace: '/w',
        provider: 'p',
        model: 'm',
      },
    });
    const events = createEventStream(store.sink);
    events.emit({ type: 'message', role: 'user', content: 'go on' });
    events.emit({ type: 'usage', turn: 1, provider: 'p', model: 'm', input_tokens: 100, output_tokens: 10 });
    events.emit({ type: 'message', role: 'assistant', content: 'more' });
    events.emit({ type: 'turn_end', turn: 1, tool_calls: 0 });
    await events.flush();
    await store.close();
    const sidecar = JSON.parse(await readFile(sidecarOf(file), 'utf8'));
    expect(sidecar.summary).toMatchObject({
      title: 'prompt 0',
      turns: 4,
      input_tokens: 400,
      cache_read_tokens: 180,
    });
    expect(sidecar.bytes).toBe((await stat(file)).size);
  });

  it('rebuilds a missing or outdated sidecar from the session file once', async () => {
    const file = await writeSession('old', 1);
    await rm(sidecarOf(file));
    const [first] = (await listSessions(dir)).filter((s) => s.id === 'old');
    expect(first).toMatchObject({ turns: 3, title: 'prompt 0' });
    expect(JSON.parse(await readFile(sidecarOf(file), 'utf8')).summary.turns).toBe(3);
    // The file grew after the sidecar was written (a crash before the turn's end): the file wins.
    await writeFile(
      file,
      `${await readFile(file, 'utf8')}${JSON.stringify(at({ type: 'message', role: 'assistant', content: 'late' }))}\n`,
    );
    const [again] = (await listSessions(dir)).filter((s) => s.id === 'old');
    expect(again?.turns).toBe(4);
  });
});

describe('parseSidecar', () => {
  const summary = {
    id: 's',
    title: 't',
    workspace: '/w',
    provider: 'p',
    model: 'm',
    started: 'a',
    updated: 'b',
    turns: 1,
    input_tokens: 2,
    output_tokens: 3,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
  };

  it("keeps the summary's own fields in their order, with or without a cost", () => {
    const { id, ...rest } = summary;
    const text = JSON.stringify({ bytes: 9, extra: 1, summary: { ...rest, cost: 0.5, id, later: 'x' } });
    const parsed = parseSidecar(text);
    expect(parsed?.bytes).toBe(9);
    expect(JSON.stringify(parsed?.summary)).toBe(JSON.stringify({ ...summary, cost: 0.5 }));
    expect(parseSidecar(JSON.stringify({ bytes: 9, summary }))?.summary).toEqual(summary);
    const partial = { ...summary, cost: 0.5, cost_partial: true };
    expect(parseSidecar(JSON.stringify({ bytes: 9, summary: partial }))?.summary).toEqual(partial);
  });

  it.each([
    ['not JSON', '{"bytes":'],
    ['no bytes', JSON.stringify({ summary })],
    ['a field missing', JSON.stringify({ bytes: 1, summary: { ...summary, title: undefined } })],
    ['a field of another type', JSON.stringify({ bytes: 1, summary: { ...summary, turns: '1' } })],
    ['a null cost', JSON.stringify({ bytes: 1, summary: { ...summary, cost: null } })],
    [
      'a partial mark that is no boolean',
      JSON.stringify({ bytes: 1, summary: { ...summary, cost_partial: 1 } }),
    ],
    ['an array', '[]'],
  ])('is no sidecar with %s', (_, text) => {
    expect(parseSidecar(text)).toBeUndefined();
  });
});
