// The task tool end to end in process: assembleRun against the scripted model server, as the CLI builds a run.
// Sub-agents get their own conversation and tools, run side by side when they only read, nest at most two deep,
// never run in a wider mode than the run's, and the parent's conversation receives only their answers.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHAT_COMMANDS, type ChatContext } from '../../src/cli/chat-commands.js';
import type { AgentEvent } from '../../src/core/events.js';
import { assembleRun, type Run } from '../../src/runtime/assemble.js';
import { agentRegistry } from '../../src/runtime/subagents.js';
import { readSession, sessionMessages } from '../../src/session/session-file.js';
import { subagentRuns, taskRuns } from '../../src/session/subagent-runs.js';
import { createRegistry, defaultTools } from '../../src/tools/registry.js';
import { defineTool, ok } from '../../src/tools/tool.js';
import { makeWorkspace } from '../support/cli.js';
import { useE2E } from '../support/e2e.js';
import type { ModelServer, ReceivedRequest, ScriptedReply, ScriptStep } from '../support/model-server.js';
import { shellGit } from '../support/small-shell.js';

const { server, workspace, track } = useE2E();

/** A temp HOME, removed after the test with retries: a run's first checkpoint may still be writing there. */
async function tempHome(): Promise<string> {
  const home = await makeWorkspace();
  track(() => rm(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));
  return home;
}

type Mode = 'interactive' | 'restricted' | 'auto' | 'full';

/** A run in `ws` against `s`, with a temp HOME holding `agents` (name → file text) in the user's agents dir. */
async function startRun(
  s: ModelServer,
  ws: string,
  options: {
    agents?: Record<string, string>;
    mode?: Mode;
    agent?: string;
    save?: boolean;
    /** The user config file's text. */
    config?: string;
  } = {},
) {
  const home = await tempHome();
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CACHE_HOME: join(home, 'cache'),
    KEEL_KEYRING: 'off',
  };
  const dir = join(home, 'config', 'keel', 'agents');
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(options.agents ?? {}))
    await writeFile(join(dir, `${name}.md`), text);
  if (options.config) await writeFile(join(home, 'config', 'keel', 'config.yaml'), options.config);
  const events: AgentEvent[] = [];
  const run = await assembleRun({
    cwd: ws,
    env,
    flags: { provider: 'ollama', baseUrl: s.ollamaUrl, model: 'test-model' },
    mode: () => options.mode ?? 'restricted',
    session: { save: options.save ?? false },
    observe: (event) => void events.push(event),
    startGit: shellGit,
    ...(options.agent ? { agent: options.agent } : {}),
  });
  return { run, events };
}

async function ask(run: Run, message: string) {
  run.conversation.push({ role: 'user', content: message });
  try {
    return await run.run(new AbortController().signal);
  } finally {
    await run.close();
  }
}

const toolNames = (r: ReceivedRequest): string[] =>
  ((r.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const messages = (r: ReceivedRequest) => r.body.messages as { role: string; content: string }[];
const task = (id: string, args: Record<string, unknown>) => ({ id, name: 'task', args });

describe('the task tool', () => {
  it('gives the parent only the sub-agent’s answer, while the sub-agent read the files in its own context', async () => {
    const ws = await workspace({ 'a.ts': 'export const CONTENT_ONLY_THE_SUBAGENT_READ = 1;\n' });
    const s = await server([
      { toolCalls: [task('t1', { description: 'summarise a', prompt: 'Summarise a.ts' })] },
      { toolCalls: [{ id: 'r1', name: 'read_file', args: { path: 'a.ts' } }] },
      { text: 'SUMMARY: a.ts exports one constant.' },
      { text: 'a.ts exports one constant.' },
    ]);
    const { run, events } = await startRun(s, ws, { save: true });
    const result = await ask(run, 'Explore the codebase: what does a.ts export?');
    expect(result.reason).toBe('done');

    const [parent, sub, subNext, parentNext] = s.requests as [ReceivedRequest, ...ReceivedRequest[]];
    expect(toolNames(parent)).toContain('task');
    // The sub-agent: its own conversation (a system prompt saying it is one, the task), the read-only tools.
    expect(messages(sub!).map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages(sub!)[0]!.content).toContain('You are a sub-agent');
    expect(messages(sub!)[1]!.content).toBe('Summarise a.ts');
    expect(toolNames(sub!)).toContain('read_file');
    expect(toolNames(sub!)).not.toContain('write_file');
    expect(toolNames(sub!)).not.toContain('task');
    expect(subNext!.rawBody).toContain('CONTENT_ONLY_THE_SUBAGENT_READ');
    // The parent's next request: the answer and what it cost, never the file the sub-agent read.
    expect(parentNext!.rawBody).not.toContain('CONTENT_ONLY_THE_SUBAGENT_READ');
    const results = messages(parentNext!).filter((m) => m.role === 'tool');
    expect(results).toHaveLength(1);
    expect(results[0]!.content).toMatch(
      /^SUMMARY: a\.ts exports one constant\.\n\[task default: 2 turns, 1 tool call, \d+ in \/ \d+ out tokens\]/,
    );

    // The sub-agent's events carry the task call's id; the session keeps them but replays only the parent's.
    const read = events.find((e) => e.type === 'tool_result' && e.name === 'read_file');
    expect(read?.parent).toBe('t1');
    expect(events.filter((e) => e.type === 'run_end' && e.parent === undefined)).toHaveLength(1);
    // What the sub-agent's requests spent is in the run's totals: its run_end, the result.
    const spent = (e: AgentEvent | undefined) => (e?.type === 'run_end' ? e.usage.input_tokens : undefined);
    const own = events.filter((e) => e.type === 'usage' && e.parent === undefined);
    const all = events.filter((e) => e.type === 'usage');
    const sum = (list: AgentEvent[]) =>
      list.reduce((n, e) => n + (e.type === 'usage' ? e.input_tokens : 0), 0);
    expect(all.length).toBe(4);
    expect(sum(own)).toBeLessThan(sum(all));
    expect(spent(events.find((e) => e.type === 'run_end' && e.parent === 't1'))).toBe(sum(all) - sum(own));
    expect(spent(events.find((e) => e.type === 'run_end' && e.parent === undefined))).toBe(sum(all));
    expect(result.usage.inputTokens).toBe(sum(all));
    const record = await readSession(run.session!.file);
    expect(sessionMessages(record!).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(subagentRuns(record!.events).get('t1')?.[0]).toMatch(/^✓ read_file \{"path":"a\.ts"\} → /);
    // The chat's /tasks unfolds what was folded under the task line.
    expect(taskRuns(record!.events)).toEqual([
      { id: 't1', description: 'summarise a', lines: [expect.stringMatching(/^✓ read_file /)] },
    ]);
    const shown: string[] = [];
    const tasks = CHAT_COMMANDS.find((c) => c.name === 'tasks')!;
    const chat = {
      sessionFile: () => run.session!.file,
      note: (t: string) => shown.push(t),
      print: (t: string) => shown.push(t),
    };
    await tasks.run('', chat as unknown as ChatContext);
    await tasks.run('1', chat as unknown as ChatContext);
    await tasks.run('2', chat as unknown as ChatContext);
    expect(shown[0]).toBe('1. summarise a (1 tool call)\n');
    expect(shown.slice(1, 3).join('')).toMatch(/^task 1: summarise a\n✓ read_file \{"path":"a\.ts"\}/);
    expect(shown[3]).toBe('usage: /tasks [n], n from 1 to 1\n');
  });

  it('compacts a sub-agent’s conversation near agent.conversation.compact_at, as the run’s', async () => {
    // Ten files of about 250 tokens each under a 2,500-token budget: read one by one, they pass compact_at.
    const files = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`f${i}.txt`, `word${i} `.repeat(150)]),
    );
    const ws = await workspace(files);
    const summary = '## Goal\nRead the files.\n## Open\nRead the rest.';
    const isSummary = (r: ReceivedRequest) => r.rawBody.includes('You summarise a coding agent');
    const replies: ScriptStep[] = [
      { toolCalls: [task('t1', { description: 'read the files', prompt: 'Read f0.txt to f9.txt' })] },
      ...Array.from({ length: 10 }, (_, i) => ({
        toolCalls: [{ id: `r${i}`, name: 'read_file', args: { path: `f${i}.txt` } }],
      })),
      { text: 'SUB: each file repeats one word.' },
      { text: 'Each file repeats one word.' },
    ];
    const step: ScriptStep = (r) => (isSummary(r) ? { text: summary } : (replies.shift() as ScriptedReply));
    const s = await server(Array.from({ length: 30 }, () => step));
    const config = 'agent:\n  conversation:\n    max_tokens: 2500\n    min_retain_turns: 1\n';
    const { run, events } = await startRun(s, ws, { config });
    const result = await ask(run, 'Explore the codebase: what do the files hold?');
    expect(result.reason).toBe('done');
    expect(s.requests.some(isSummary), 'no summary request').toBe(true);
    expect(events.find((e) => e.type === 'compaction')).toMatchObject({
      trigger: 'auto',
      summary,
      parent: 't1',
    });
  });

  it('runs two read-only tasks of one turn side by side', async () => {
    const ws = await workspace({ 'a.ts': 'a\n' });
    // Neither sub-request is answered until both have arrived: run one after the other, this would never end.
    let arrived = 0;
    let release!: () => void;
    const both = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sub: ScriptStep = async (request) => {
      arrived += 1;
      if (arrived === 2) release();
      await both;
      return { text: request.rawBody.includes('ALPHA') ? 'alpha found' : 'beta found' };
    };
    const s = await server([
      {
        toolCalls: [
          task('t1', { description: 'alpha', prompt: 'Find ALPHA', agent: 'explore' }),
          task('t2', { description: 'beta', prompt: 'Find BETA', agent: 'explore' }),
        ],
      },
      sub,
      sub,
      { text: 'both found' },
    ]);
    const { run } = await startRun(s, ws);
    expect((await ask(run, 'Explore: find alpha and beta')).reason).toBe('done');
    const results = messages(s.requests[3]!)
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(results[0]).toMatch(/^alpha found/);
    expect(results[1]).toMatch(/^beta found/);
  }, 20_000);

  it('offers a sub-agent only the tools its agent file names, and adds its body to the system prompt', async () => {
    const ws = await workspace({ 'a.ts': 'a\n' });
    const s = await server([
      { toolCalls: [task('t1', { description: 'look', prompt: 'Look', agent: 'reader' })] },
      { text: 'looked' },
      { text: 'done' },
    ]);
    const reader =
      '---\ndescription: reads files\ntools: [read_file, glob]\n---\nREADER RULES: cite lines.\n';
    const { run } = await startRun(s, ws, { agents: { reader } });
    await ask(run, 'Explore with the reader agent');
    expect(JSON.stringify(s.requests[0]!.body.tools)).toContain('reader: reads files');
    expect(toolNames(s.requests[1]!)).toEqual(['read_file', 'glob']);
    expect(messages(s.requests[1]!)[0]!.content).toContain('READER RULES: cite lines.');
  });

  it('lets a sub-agent start sub-agents, but none beyond depth 2', async () => {
    const ws = await workspace();
    const s = await server([
      { toolCalls: [task('t1', { description: 'one', prompt: 'level one', agent: 'deep' })] },
      { toolCalls: [task('t2', { description: 'two', prompt: 'level two', agent: 'deep' })] },
      { text: 'bottom' },
      { text: 'middle' },
      { text: 'top' },
    ]);
    const deep = '---\ndescription: delegates\ntools: [task, read_file]\n---\n';
    const { run, events } = await startRun(s, ws, { agents: { deep } });
    expect((await ask(run, 'Explore deeply')).reason).toBe('done');
    expect(toolNames(s.requests[1]!)).toEqual(['read_file', 'task']);
    expect(toolNames(s.requests[2]!)).toEqual(['read_file']);
    // Each level's events name the path of task calls down to it.
    const starts = events.filter((e) => e.type === 'run_start').map((e) => e.parent);
    expect(starts).toEqual([undefined, 't1', 't1/t2']);
    expect(messages(s.requests[4]!).at(-1)!.content).toMatch(/^middle/);
  });

  it('runs an agent asking for a wider mode in the run’s own, and says so', async () => {
    const ws = await workspace();
    const s = await server([
      { toolCalls: [task('t1', { description: 'touch', prompt: 'create x', agent: 'wide' })] },
      { toolCalls: [{ id: 'c1', name: 'execute_command', args: { command: 'touch x.txt' } }] },
      { text: 'could not' },
      { text: 'done' },
    ]);
    const wide = '---\ndescription: runs anything\ntools: [execute_command]\nmode: full\n---\n';
    const { run, events } = await startRun(s, ws, { agents: { wide }, mode: 'restricted' });
    await ask(run, 'Use the wide agent');
    const warning = events.find((e) => e.type === 'warning' && e.parent === 't1');
    expect(warning).toMatchObject({
      message: expect.stringContaining("asks for full mode, wider than this run's"),
    });
    const refused = events.find((e) => e.type === 'tool_result' && e.name === 'execute_command');
    expect(refused).toMatchObject({ success: false, parent: 't1', metadata: { policy: 'deny' } });
    expect(messages(s.requests[3]!).at(-1)!.content).toContain('it ran in restricted mode');
  });

  it("keel run --agent keeps to the agent's tools among those joining later (an MCP server's)", () => {
    const registry = createRegistry(defaultTools());
    const reader = {
      name: 'reader',
      description: 'reads',
      tools: ['read_file', 'srv__lookup'],
      prompt: '',
      source: 'project' as const,
    };
    expect(agentRegistry(registry, [reader], reader, true)).toBe(false);
    for (const name of ['srv__lookup', 'srv__write'])
      registry.add(
        defineTool({
          name,
          description: 'x',
          schema: z.object({}),
          safety: 'safe',
          execute: async () => ok(''),
        }),
      );
    expect(registry.specs().map((spec) => spec.name)).toEqual(['read_file', 'srv__lookup']);
  });

  it('keel run --agent runs as the agent: its tools, its prompt, no task tool', async () => {
    const ws = await workspace();
    const s = await server([{ text: 'ok' }]);
    const reader = '---\ndescription: reads files\ntools: [read_file]\n---\nREADER RULES.\n';
    const { run } = await startRun(s, ws, { agents: { reader }, agent: 'reader' });
    await ask(run, 'hello');
    expect(toolNames(s.requests[0]!)).toEqual(['read_file']);
    expect(messages(s.requests[0]!)[0]!.content).toContain('\n\nREADER RULES.');
  });
});
