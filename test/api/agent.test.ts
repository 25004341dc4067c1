// The library API in process against the scripted model server: runs as event iterators over one conversation,
// canUseTool answering the policy's questions, custom tools (zod and JSON Schema) through the executor, sessions
// resumed by id, and an aborted run.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approvalAnswer } from '../../src/api/agent.js';
import {
  type Agent,
  type AgentEvent,
  type AgentOptions,
  createAgent,
  type ToolUse,
} from '../../src/api/index.js';
import { homeEnv, toolMessages, useE2E } from '../support/e2e.js';
import type { ModelServer } from '../support/model-server.js';

const { server, workspace } = useE2E();
// Closed before the workspaces are removed (after-each hooks run last registered first).
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});
const kept = (agent: Agent) => {
  agents.push(agent);
  return agent;
};

async function options(s: ModelServer, extra: AgentOptions = {}): Promise<AgentOptions> {
  const home = await workspace();
  return {
    cwd: await workspace({ 'a.txt': 'alpha\n' }),
    provider: 'ollama',
    baseUrl: s.ollamaUrl,
    model: 'test-model',
    // Checkpoints off, as for the other end-to-end runs (test/support/cli.ts): no test here undoes, and each call's
    // checkpoint started git processes from this worker, the costliest process to fork.
    env: { PATH: process.env.PATH, ...homeEnv(home), KEEL_CHECKPOINTS: 'off' },
    ...extra,
  };
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

const userTexts = (body: unknown) =>
  (body as { messages: { role: string; content: string }[] }).messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content.split('\n\n[Keel:')[0]);

describe('approvalAnswer', () => {
  it.each([
    ['allow', { decision: 'once' }],
    ['always', { decision: 'always' }],
    ['deny', { decision: 'deny' }],
    [
      { decision: 'deny', feedback: 'no' },
      { decision: 'deny', feedback: 'no' },
    ],
    [
      { decision: 'edit', edited: 'ls' },
      { decision: 'edit', edited: 'ls' },
    ],
    [{ decision: 'edit' }, { decision: 'deny' }],
    ['yes', { decision: 'deny' }],
    [undefined, { decision: 'deny' }],
  ])('maps %j to %j', (given, expected) => {
    expect(approvalAnswer(given as never)).toEqual(expected);
  });
});

describe('createAgent', () => {
  it('refuses an unknown mode or provider or a custom tool without a valid name at once, saying which', () => {
    expect(() => createAgent({ mode: 'yolo' as never })).toThrow('unknown mode "yolo"');
    // In the library's words: the option, not the command line's --provider.
    expect(() => createAgent({ provider: 'nope' as never })).toThrow(
      'unknown provider "nope" in the provider option',
    );
    const tool = { name: 'a b', description: '', parameters: {}, run: () => '' };
    expect(() => createAgent({ tools: [tool] })).toThrow('custom tool name "a b" is not valid');
  });

  it.each([
    [
      'a JSON Schema of a string',
      { type: 'string' },
      'parameters must describe an object of named arguments, not type "string"',
    ],
    ['a zod string', z.string(), 'parameters must describe an object of named arguments, not type "string"'],
    [
      'a JSON Schema zod cannot read',
      { type: 'object', properties: { a: { type: 'text' } } },
      'its parameters are not a JSON Schema',
    ],
    ['no schema at all', 'a, b', 'parameters must be a JSON Schema object or a zod schema'],
  ])('refuses a custom tool whose parameters are %s at once, saying why', (_name, parameters, message) => {
    const tool = { name: 'mine', description: 'd', parameters: parameters as never, run: () => '' };
    expect(() => createAgent({ tools: [tool] })).toThrow(`custom tool mine: ${message}`);
  });

  it("refuses a cwd that is no directory in the library's words, not the command line's", async () => {
    const s = await server([{ text: 'never sent' }]);
    const base = await options(s);
    const missing = join(base.cwd!, 'missing');
    const agent = kept(createAgent({ ...base, cwd: missing }));
    await expect(collect(agent.run('hello'))).rejects.toMatchObject({
      message: `the cwd option is not an existing directory: ${missing}`,
      hint: 'set cwd to the directory the agent works in',
    });
    expect(s.requests).toHaveLength(0);
  });

  it("refuses a config option naming no file, in the library's words", async () => {
    const s = await server([{ text: 'never sent' }]);
    const base = await options(s);
    const missing = join(base.cwd!, 'keel.yaml');
    const agent = kept(createAgent({ ...base, config: missing }));
    await expect(collect(agent.run('hello'))).rejects.toMatchObject({
      message: `the config option is not a config file: ${missing}`,
    });
  });

  it.each([
    [{ baseUrl: 'ftp://x' }, '`baseUrl` must be an http(s) URL, got "ftp://x"', 'baseUrl sets'],
    [{ model: '' }, '`model` must be a non-empty string', 'model sets'],
    [{ maxTurns: -1 }, '`maxTurns` must be a positive integer, got -1', 'maxTurns sets'],
  ])("refuses %j naming the option, not keel's flag", async (bad, message, hint) => {
    const s = await server([{ text: 'never sent' }]);
    const agent = kept(createAgent({ ...(await options(s)), ...bad }));
    const failure = await collect(agent.run('hello')).catch(
      (error: { message: string; hint?: string }) => error,
    );
    expect(failure).toMatchObject({ message: expect.stringContaining(message) });
    expect((failure as { hint?: string }).hint).toContain(hint);
    expect(JSON.stringify(failure)).not.toContain('--');
  });

  it('streams each run as events ending with run_end, and continues the conversation in the next run', async () => {
    const s = await server([{ text: 'first answer' }, { text: 'second answer' }]);
    const agent = kept(createAgent(await options(s)));
    const first = await collect(agent.run('hello'));
    expect(first[0]).toMatchObject({ type: 'run_start', provider: 'ollama', model: 'test-model' });
    expect(first.at(-1)).toMatchObject({ type: 'run_end', reason: 'done', answer: 'first answer' });
    const second = agent.run('and then?');
    let step = await second.next();
    while (!step.done) step = await second.next();
    expect(step.value).toMatchObject({ reason: 'done', answer: 'second answer', sessionId: agent.sessionId });
    expect(userTexts(s.requests[1]!.body)).toEqual(['hello', 'and then?']);
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain('first answer');
  });

  it("hands over its events and answer through the run's redactor, as --output stream-json and keel acp print them", async () => {
    const secret = 'sk-library1234567890abcdefghij';
    const s = await server([{ text: `the key is ${secret}` }]);
    const base = await options(s);
    const agent = kept(createAgent({ ...base, env: { ...base.env, MY_SERVICE_API_KEY: secret } }));
    const run = agent.run('what is the key?');
    const events: AgentEvent[] = [];
    let step = await run.next();
    while (!step.done) {
      events.push(step.value);
      step = await run.next();
    }
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', answer: 'the key is [REDACTED]' });
    expect(step.value.answer).toBe('the key is [REDACTED]');
  });

  it('asks canUseTool what the policy asks about, with the call and its diff, and obeys the answer', async () => {
    const write = (content: string) => ({
      toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content } }],
    });
    const s = await server([write('one\n'), write('two\n'), { text: 'done' }]);
    const asked: ToolUse[] = [];
    const base = await options(s);
    const agent = kept(
      createAgent({
        ...base,
        mode: 'interactive',
        canUseTool: (call) => {
          asked.push(call);
          return asked.length === 1 ? { decision: 'deny', feedback: 'write two' } : 'allow';
        },
      }),
    );
    const events = await collect(agent.run('change a.txt'));
    expect(asked.map((c) => [c.name, c.args])).toEqual([
      ['write_file', { path: 'a.txt', content: 'one\n' }],
      ['write_file', { path: 'a.txt', content: 'two\n' }],
    ]);
    expect(asked[0]!.diff).toContain('+one');
    expect(asked[0]!.writes).toEqual([join(base.cwd!, 'a.txt')]);
    expect(toolMessages(s.requests[1]!.body).at(-1)).toContain('declined this write_file call: write two');
    expect(await readFile(join(base.cwd!, 'a.txt'), 'utf8')).toBe('two\n');
    expect(
      events.filter((e) => e.type === 'approval_answered').map((e) => 'decision' in e && e.decision),
    ).toEqual(['deny', 'once']);
  });

  it('hands the model’s ask_user question to askUser and sends its answer back', async () => {
    const s = await server([
      { toolCalls: [{ name: 'ask_user', args: { question: 'Which port?', options: ['80', '8080'] } }] },
      { text: 'done' },
    ]);
    const asked: unknown[] = [];
    const agent = kept(
      createAgent({
        ...(await options(s)),
        askUser: async (question) => {
          asked.push(question);
          return '8080';
        },
      }),
    );
    await collect(agent.run('set up the server'));
    expect(asked).toEqual([{ question: 'Which port?', options: ['80', '8080'] }]);
    expect(toolMessages(s.requests[1]!.body).at(-1)).toContain('8080');
  });

  it('runs custom tools given by zod or JSON Schema, their arguments validated and their output sent back', async () => {
    const s = await server([
      { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
      {
        toolCalls: [
          { name: 'shout', args: { text: 'hi' } },
          { name: 'add', args: { a: 'x' } },
        ],
      },
      { text: 'done' },
    ]);
    const agent = kept(
      createAgent({
        ...(await options(s)),
        tools: [
          {
            name: 'add',
            description: 'Add two numbers.',
            parameters: z.object({ a: z.number(), b: z.number() }),
            safety: 'safe',
            run: ({ a, b }: { a: number; b: number }) => String(a + b),
          },
          {
            name: 'shout',
            description: 'Upper-case a text.',
            parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
            run: ({ text }: { text: string }, { cwd }) => ({ output: `${text.toUpperCase()} in ${cwd}` }),
          },
        ],
      }),
    );
    await collect(agent.run('use the tools'));
    const specs = (s.requests[0]!.body.tools as { function: { name: string; parameters: unknown } }[]).map(
      (t) => t.function,
    );
    expect(specs.find((t) => t.name === 'add')?.parameters).toMatchObject({
      properties: { a: { type: 'number' }, b: { type: 'number' } },
    });
    expect(toolMessages(s.requests[1]!.body).at(-1)).toBe('5');
    const results = toolMessages(s.requests[2]!.body).slice(-2);
    expect(results[0]).toMatch(/^HI in \//);
    expect(results[1]).toMatch(/^Error: .*invalid/i);
  });

  it('takes up a saved session by id (createAgent or agent.resume): the next run continues it', async () => {
    const s = await server([{ text: 'remembered' }, { text: 'still here' }, { text: 'yes' }]);
    const base = await options(s);
    const first = kept(createAgent(base));
    await collect(first.run('remember 42'));
    const id = first.sessionId;
    await first.close();
    expect(id).toBeTruthy();
    const second = kept(createAgent({ ...base, resume: id }));
    await collect(second.run('what did I say?'));
    expect(userTexts(s.requests[1]!.body)).toEqual(['remember 42', 'what did I say?']);
    expect(second.sessionId).toBe(id);
    // agent.resume(id) does the same for an agent already made.
    await first.resume(id!);
    await collect(first.run('and now?'));
    expect(userTexts(s.requests[2]!.body)).toEqual(['remember 42', 'what did I say?', 'and now?']);
  });

  it('ends an aborted run as interrupted, and the next run still answers', async () => {
    const controller = new AbortController();
    const s = await server([
      () => {
        controller.abort();
        return { hang: true };
      },
      { text: 'back' },
    ]);
    const agent = kept(createAgent(await options(s)));
    const events = await collect(agent.run('wait forever', { signal: controller.signal }));
    expect(events.at(-1)).toMatchObject({ type: 'run_end', reason: 'interrupted' });
    const next = await collect(agent.run('now answer'));
    expect(next.at(-1)).toMatchObject({ type: 'run_end', reason: 'done', answer: 'back' });
  });

  it('interrupts a run in progress on close(), which resolves once it has ended', async () => {
    let asked = () => {};
    const requested = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const s = await server([
      () => {
        asked();
        return { hang: true };
      },
      { text: 'never asked for' },
    ]);
    const agent = createAgent(await options(s));
    const events = collect(agent.run('wait forever'));
    await requested;
    await agent.close();
    expect((await events).at(-1)).toMatchObject({ type: 'run_end', reason: 'interrupted' });
    expect(s.requests).toHaveLength(1);
    // Closed: a run would start a new conversation unasked, so it is refused, saying how to go on.
    await expect(collect(agent.run('and now?'))).rejects.toThrow(/this agent is closed: agent.resume/);
    expect(s.requests).toHaveLength(1);
  });

  it("names createAgent's options, not the command line's flags, in a headless refusal's hint", async () => {
    const s = await server([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'beta\n' } }] },
      { text: 'refused' },
    ]);
    const agent = kept(createAgent({ ...(await options(s)), mode: 'interactive' }));
    await collect(agent.run('change a.txt'));
    const refusal = toolMessages(s.requests[1]!.body).at(-1);
    expect(refusal).toContain('set the mode option to auto, restricted or full');
    expect(refusal).not.toContain('--mode');
  });
});
