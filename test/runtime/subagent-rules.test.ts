// The pure decisions around sub-agents: the mode an agent runs in, its provider, agent files, `@name` in the chat,
// how its events render and that a session never replays them into the parent's conversation.
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { concurrentCalls } from '../../src/agent/tool-batch.js';
import { ToolOffer } from '../../src/agent/tool-offer.js';
import { agentMention, forAgent } from '../../src/cli/chat-attach.js';
import { configSchema } from '../../src/config/schema.js';
import { trustFolder } from '../../src/config/trusted-folders.js';
import { type AgentEvent, replayConversation } from '../../src/core/events.js';
import { loadAgents, parseAgentFile } from '../../src/extend/agent-files.js';
import {
  agentProvider,
  createSubagents,
  type SubagentParts,
  subagentMode,
  unknownToolsWarning,
} from '../../src/runtime/subagents.js';
import { openWorkspace } from '../../src/safety/workspace.js';
import { createRegistry, defaultTools, toSpec } from '../../src/tools/registry.js';
import { taskTool } from '../../src/tools/task.js';
import { createStyle } from '../../src/ui/style.js';
import { subagentLines } from '../../src/ui/text-renderer.js';
import { useE2E } from '../support/e2e.js';

const { workspace } = useE2E();

describe('unknownToolsWarning', () => {
  const registry = createRegistry(defaultTools());
  it.each([
    [['read_file', 'grep'], undefined],
    [['read_file', 'task', 'github__search'], undefined],
    [['read_fil', 'grep', 'frobnicate'], 'no tool named read_fil, frobnicate in this run'],
  ])('an agent with tools %j: %s', (tools, warning) => {
    const said = unknownToolsWarning(
      { name: 'typo', description: '', prompt: '', source: 'user', tools },
      registry,
    );
    if (warning === undefined) expect(said).toBeUndefined();
    else expect(said).toContain(`agent typo: ${warning}`);
  });
});

describe('subagentMode', () => {
  it.each([
    ['restricted', undefined, 'restricted', false],
    ['auto', 'restricted', 'restricted', false],
    ['auto', 'interactive', 'interactive', false],
    ['restricted', 'auto', 'restricted', true],
    ['restricted', 'full', 'restricted', true],
    ['interactive', 'restricted', 'interactive', true],
    ['full', 'full', 'full', false],
  ] as const)(
    'a %s run with an agent asking for %s runs it in %s (narrowed: %s)',
    (parent, asked, mode, noted) => {
      const chosen = subagentMode({ name: 'a', mode: asked }, parent);
      expect(chosen.mode).toBe(mode);
      expect(chosen.note !== undefined).toBe(noted);
    },
  );
});

describe('agentProvider', () => {
  const config = configSchema.parse({});
  it.each([
    ['anthropic/claude-sonnet-4', 'anthropic', 'claude-sonnet-4'],
    ['qwen3:8b', 'ollama', 'qwen3:8b'],
    ['meta/llama-3', 'ollama', 'meta/llama-3'],
  ])('%s → provider %s, model %s', (given, type, model) => {
    const provider = agentProvider(config, given);
    expect(provider.type).toBe(type);
    expect((provider[provider.type] as { model: string }).model).toBe(model);
  });
});

describe('agent files', () => {
  it('reads description, tools (a list or a comma string), model, mode and the body', async () => {
    const agent = await parseAgentFile(
      '---\ndescription: finds things\ntools: read_file, grep\nmodel: openai/gpt-5\nmode: restricted\n---\nBe brief.\n',
      '/x/finder.md',
      'user',
    );
    expect(agent).toMatchObject({
      name: 'finder',
      description: 'finds things',
      tools: ['read_file', 'grep'],
      model: 'openai/gpt-5',
      mode: 'restricted',
      prompt: 'Be brief.',
    });
  });

  it.each([
    ['no description', '---\ntools: [read_file]\n---\nbody'],
    ['an unknown mode', '---\ndescription: d\nmode: yolo\n---\nbody'],
    ['no front matter', 'just a body'],
  ])('refuses a file with %s, naming why', async (_case, text) => {
    await expect(parseAgentFile(text, '/x/a.md', 'user')).rejects.toThrow(/front matter is malformed/);
  });

  it('takes a project’s agents only in a trusted folder, where they hide the built-in ones', async () => {
    const home = await workspace();
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') };
    const ws = await workspace({ '.keel/agents/explore.md': '---\ndescription: the project’s own\n---\n' });
    const untrusted = await loadAgents({ workspace: ws, env });
    expect(untrusted.agents.find((a) => a.name === 'explore')?.source).toBe('built-in');
    expect(untrusted.warnings[0]).toMatch(/not trusted/);
    await trustFolder(env, ws);
    const trusted = await loadAgents({ workspace: ws, env });
    expect(trusted.agents.find((a) => a.name === 'explore')).toMatchObject({ source: 'project' });
    expect(trusted.agents.map((a) => a.name)).toEqual(['explore', 'review']);
  });

  it('lists the built-in agents and the files’ agents together by name', async () => {
    const home = await workspace({ 'config/keel/agents/zeta.md': '---\ndescription: last\n---\n' });
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') };
    const ws = await workspace({ '.keel/agents/alpha.md': '---\ndescription: first\n---\n' });
    await trustFolder(env, ws);
    const loaded = await loadAgents({ workspace: ws, env });
    expect(loaded.agents.map((a) => a.name)).toEqual(['alpha', 'explore', 'review', 'zeta']);
    const none = await loadAgents({ workspace: await workspace(), env: { ...env, XDG_CONFIG_HOME: ws } });
    expect(none.agents.map((a) => a.name)).toEqual(['explore', 'review']);
  });

  it('skips a project agent file that links out of the workspace', async () => {
    const home = await workspace({ 'secret.md': '---\ndescription: outside\n---\n' });
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') };
    const ws = await workspace();
    await mkdir(join(ws, '.keel/agents'), { recursive: true });
    await symlink(join(home, 'secret.md'), join(ws, '.keel/agents/out.md'));
    await trustFolder(env, ws);
    const loaded = await loadAgents({ workspace: ws, env });
    expect(loaded.agents.map((a) => a.name)).not.toContain('out');
    expect(loaded.warnings.join('\n')).toMatch(/out\.md skipped/);
  });
});

describe('@name in the chat', () => {
  const agents = [{ name: 'explore' }, { name: 'notes' }];
  it.each([
    ['@explore where is the config loaded?', { agent: 'explore', message: 'where is the config loaded?' }],
    ['@notes summarise', undefined], // a file named `notes` exists: it is an attachment
    ['@unknown do it', undefined],
    ['look at @explore', undefined],
  ])('%s → %j', async (text, expected) => {
    const ws = await workspace({ notes: 'n\n' });
    expect(await agentMention(text, agents, await openWorkspace(ws))).toEqual(expected);
  });

  it('asks the main agent to hand the message to the named agent', () => {
    expect(forAgent('explore', 'find X')).toMatch(/^find X\n\n\[Keel: .*task with agent "explore"/);
  });
});

describe('read-only tasks side by side', () => {
  const task = { readOnly: true, reads: ['/w'], writes: [] };
  it.each([
    ['two read-only tasks', [task, task], [0, 1]],
    [
      'a task after a file write (it may read that file)',
      [{ readOnly: false, reads: [], writes: ['/w/a.ts'] }, task],
      [],
    ],
    ['a task that may write, then a read', [{ readOnly: false, reads: ['/w'], writes: [] }, task], []],
  ])('%s', (_case, assessments, ahead) => {
    expect([...concurrentCalls(assessments, '/w')]).toEqual(ahead);
  });
});

describe('which tasks only read', () => {
  const registry = createRegistry(defaultTools());
  const agent = (name: string, tools: string[]) => ({
    name,
    description: '',
    prompt: '',
    source: 'user' as const,
    tools,
  });
  const agents = [
    agent('reader', ['read_file', 'grep']),
    agent('writer', ['read_file', 'write_file']),
    agent('typo', ['read_file', 'read_fil']),
    agent('mcp', ['read_file', 'srv__write']),
  ];
  const subagents = createSubagents({
    agents,
    registry,
    config: configSchema.parse({}),
  } as unknown as SubagentParts);
  it.each([
    ['no agent (the read-only tools)', undefined, true],
    ['an agent of read-only tools', 'reader', true],
    ['an agent that writes', 'writer', false],
    ['an agent naming a tool no run has (left out)', 'typo', true],
    // Its tasks run alone: started once the server joined, two would change files at once (checkpoints mixed).
    ['an agent naming an MCP tool not joined yet', 'mcp', false],
    ['an unknown agent', 'nobody', undefined],
  ])('%s', (_case, name, readOnly) => {
    expect(subagents.readOnly(name)).toBe(readOnly);
  });
});

describe('the task tool offered', () => {
  it('lists the agents tersely, and joins the request when the work spans the project', () => {
    const spec = toSpec(taskTool([{ name: 'explore', description: 'read-only search' }]));
    expect(spec.description).toContain('Agents: explore: read-only search.');
    expect(JSON.stringify(spec).length).toBeLessThan(600);
    const offer = new ToolOffer();
    offer.message('Fix the crash in src/parser.ts', {
      intent: 'debug',
      scope: 'single_file',
      entities: [],
      confidence: 0.9,
    });
    expect(offer.select([spec]).map((s) => s.name)).toEqual([]);
    offer.message('Explore how sessions are saved', {
      intent: 'explain',
      scope: 'whole_project',
      entities: [],
      confidence: 0.9,
    });
    expect(offer.select([spec]).map((s) => s.name)).toEqual(['task']);
  });
});

describe('sub-agent events', () => {
  const sub = (event: Record<string, unknown>, parent = 't1') => ({ ...event, parent }) as AgentEvent;

  it('never enter the conversation a session replays', () => {
    const events: AgentEvent[] = [
      { type: 'message', role: 'user', content: 'go' },
      sub({ type: 'message', role: 'system', content: 'sub prompt' }),
      sub({ type: 'message', role: 'user', content: 'sub task' }),
      sub({
        type: 'conversation_pruned',
        turn: 1,
        summary: '',
        edits: [{ from: 0, count: 2, messages: [] }],
      }),
      { type: 'message', role: 'assistant', content: 'done' },
    ];
    expect(replayConversation(events)).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'done' },
    ]);
  });

  it('render as one indented line per tool call, deeper for a nested task, and no answer text', () => {
    const lines = subagentLines(createStyle(false));
    expect(lines(sub({ type: 'text_delta', turn: 1, delta: 'secret answer' }))).toBeUndefined();
    expect(
      lines(sub({ type: 'tool_call', turn: 1, id: 'r1', name: 'read_file', args: { path: 'a.ts' } })),
    ).toBeUndefined();
    expect(
      lines(
        sub({
          type: 'tool_result',
          turn: 1,
          id: 'r1',
          name: 'read_file',
          success: true,
          display: 'read 3 lines',
          truncated: false,
          metadata: {},
          duration_ms: 1,
        }),
      ),
    ).toBe('    ✓ read_file path=a.ts → read 3 lines\n');
    expect(lines(sub({ type: 'warning', message: 'w' }, 't1/t2'))).toBe('        warning: w\n');
  });
});
