// keel acp's pure decisions as tables: Keel's events as session/updates, tool calls as the editor sees them, a
// saved conversation replayed, prompts as one user message, permission choices, stop reasons, initialize.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expect, test } from 'vitest';
import { initializeResponse } from '../../src/acp/agent.js';
import { permissionAnswer, permissionOptions } from '../../src/acp/permission.js';
import { promptMessage, promptText } from '../../src/acp/prompt.js';
import { stopReason } from '../../src/acp/session.js';
import { toolDiffs, toolKind, toolTitle } from '../../src/acp/tool-calls.js';
import { eventUpdates, newFileCalls, replayUpdates } from '../../src/acp/updates.js';
import type { AgentEvent } from '../../src/core/events.js';

const root = '/ws';
const result = (name: string, success: boolean, display = 'shown', error?: string): AgentEvent => ({
  type: 'tool_result',
  turn: 1,
  id: 'c1',
  name,
  success,
  display,
  ...(error ? { error } : {}),
  truncated: false,
  metadata: {},
  duration_ms: 1,
});

const cases: [string, AgentEvent, SessionUpdate[]][] = [
  [
    'text is an agent message chunk',
    { type: 'text_delta', turn: 1, delta: 'hi' },
    [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }],
  ],
  [
    'reasoning is a thought chunk',
    { type: 'reasoning_delta', turn: 1, delta: 'hmm' },
    [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } }],
  ],
  [
    'an edit is a pending edit call with its diff and location',
    {
      type: 'tool_call',
      turn: 1,
      id: 'c1',
      name: 'edit_file',
      args: { path: 'a.ts', old_string: 'x', new_string: 'y' },
    },
    [
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        status: 'pending',
        title: 'edit_file a.ts',
        kind: 'edit',
        locations: [{ path: '/ws/a.ts' }],
        content: [{ type: 'diff', path: '/ws/a.ts', oldText: 'x', newText: 'y' }],
        rawInput: { path: 'a.ts', old_string: 'x', new_string: 'y' },
      },
    ],
  ],
  [
    'a command is an execute call titled by the command',
    { type: 'tool_call', turn: 1, id: 'c2', name: 'execute_command', args: { command: 'npm test' } },
    [
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c2',
        status: 'pending',
        title: 'npm test',
        kind: 'execute',
        locations: [],
        rawInput: { command: 'npm test' },
      },
    ],
  ],
  [
    'an approved call is in progress',
    { type: 'approval_answered', id: 'c1', approved: true, decision: 'once' },
    [{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress' }],
  ],
  [
    'a declined call waits for its failed result',
    { type: 'approval_answered', id: 'c1', approved: false, decision: 'deny' },
    [],
  ],
  [
    'a result is its status',
    result('read_file', true),
    [{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' }],
  ],
  [
    'a failed result is its status',
    result('execute_command', false, '', 'refused'),
    [{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'failed' }],
  ],
  [
    "a command's result message shows its output",
    {
      type: 'message',
      role: 'tool',
      tool_call_id: 'c1',
      tool_name: 'execute_command',
      content: 'exit 0\nok 3 tests',
    },
    [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        content: [{ type: 'content', content: { type: 'text', text: 'exit 0\nok 3 tests' } }],
      },
    ],
  ],
  [
    "a completed edit's result message leaves its diff",
    { type: 'message', role: 'tool', tool_call_id: 'c1', tool_name: 'edit_file', content: 'edited a.ts' },
    [],
  ],
  [
    'a failed edit shows why',
    {
      type: 'message',
      role: 'tool',
      tool_call_id: 'c1',
      tool_name: 'edit_file',
      content: 'the user declined this edit_file call',
      is_error: true,
    },
    [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        content: [
          { type: 'content', content: { type: 'text', text: 'the user declined this edit_file call' } },
        ],
      },
    ],
  ],
  [
    'the todo list is the plan',
    {
      type: 'todo',
      todos: [
        { id: '1', content: 'read', status: 'done' },
        { id: '2', content: 'fix', status: 'in_progress' },
        { id: '3', content: 'test', status: 'pending' },
      ],
    },
    [
      {
        sessionUpdate: 'plan',
        entries: [
          { content: 'read', priority: 'medium', status: 'completed' },
          { content: 'fix', priority: 'medium', status: 'in_progress' },
          { content: 'test', priority: 'medium', status: 'pending' },
        ],
      },
    ],
  ],
  [
    'an error is shown in the answer',
    { type: 'error', code: 'x', message: 'model failed', hint: 'try again' },
    [
      {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: '\n\nerror: model failed (try again)\n' },
      },
    ],
  ],
  [
    'usage makes no update',
    { type: 'usage', turn: 1, provider: 'p', model: 'm', input_tokens: 1, output_tokens: 1 },
    [],
  ],
  ['a message record makes no update (its deltas did)', { type: 'message', role: 'user', content: 'hi' }, []],
];

describe('eventUpdates', () => {
  test.each(cases)('%s', (_name, event, expected) => {
    expect(eventUpdates(event, root)).toEqual(expected);
  });

  test.each([
    ['a new file is a diff without old text', null],
    ['an overwrite is a diff against the text it replaces', 'old'],
  ])('%s', (_name, replaced) => {
    const write: AgentEvent = {
      type: 'tool_call',
      turn: 1,
      id: 'c1',
      name: 'write_file',
      args: { path: '/ws/n.md', content: '# n' },
    };
    expect(eventUpdates(write, root, replaced)).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        status: 'pending',
        title: 'write_file /ws/n.md',
        kind: 'edit',
        locations: [{ path: '/ws/n.md' }],
        content: [{ type: 'diff', path: '/ws/n.md', oldText: replaced, newText: '# n' }],
        rawInput: { path: '/ws/n.md', content: '# n' },
      },
    ]);
  });
});

describe('tool calls as the editor sees them', () => {
  test.each([
    ['read_file', {}, 'read'],
    ['grep', {}, 'search'],
    ['delete_path', {}, 'delete'],
    ['move_path', {}, 'move'],
    ['todo_write', {}, 'think'],
    ['web_fetch', {}, 'fetch'],
    ['web_search', {}, 'fetch'],
    ['github__create_issue', {}, 'other'],
  ])('%s is of kind %s', (name, _args, kind) => {
    expect(toolKind(name)).toBe(kind);
  });

  test.each([
    ['move_path', { source: 'a', destination: 'b' }, 'move_path a → b'],
    ['grep', { pattern: 'TODO' }, 'grep TODO'],
    ['web_fetch', { url: 'https://example.com/a' }, 'web_fetch https://example.com/a'],
    ['web_search', { query: 'acp spec' }, 'web_search acp spec'],
    ['todo_write', { todos: [] }, 'update the todo list'],
    ['get_project_overview', {}, 'get_project_overview'],
    ['read_file', 'not json', 'read_file'],
  ])('%s %j is titled %s', (name, args, title) => {
    expect(toolTitle(name, args)).toBe(title);
  });

  const write = { path: 'a.txt', content: 'new\n' };
  test.each([
    ['an overwrite shows the text it replaces', 'old\n', [{ oldText: 'old\n', newText: 'new\n' }]],
    ['a new file shows no old text', null, [{ oldText: null, newText: 'new\n' }]],
    ['a write whose old text is not known shows no diff rather than a false one', undefined, []],
  ])('write_file: %s', (_name, replaced, diffs) => {
    expect(toolDiffs('write_file', root, write, replaced)).toEqual(
      diffs.map((d) => ({ type: 'diff', path: '/ws/a.txt', ...d })),
    );
  });
});

describe('replayUpdates', () => {
  test('shows the user, the reasoning, the answer and each call with its result, not the system prompt', () => {
    const updates = replayUpdates(
      [
        { role: 'system', content: 'you are keel' },
        { role: 'user', content: 'fix it' },
        {
          role: 'assistant',
          content: 'on it',
          reasoning: 'look first',
          toolCalls: [{ id: 'c1', name: 'read_file', input: '{"path":"a.ts","offset":3}' }],
        },
        { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: 'line 3' },
      ],
      root,
    );
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_thought_chunk',
      'agent_message_chunk',
      'tool_call',
      'tool_call_update',
      'tool_call_update',
    ]);
    expect(updates[3]).toMatchObject({ kind: 'read', locations: [{ path: '/ws/a.ts', line: 3 }] });
    expect(updates[4]).toMatchObject({ status: 'completed' });
    expect(updates[5]).toMatchObject({
      content: [{ type: 'content', content: { type: 'text', text: 'line 3' } }],
    });
  });

  test("shows the user's message as typed, without Keel's note appended to it", () => {
    const [shown] = replayUpdates(
      [{ role: 'user', content: 'write new.txt\n\n[Keel: implement. Follow local conventions; verify.]' }],
      root,
    );
    expect(shown).toEqual({
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text: 'write new.txt' },
    });
  });

  test('shows the diff of a write that made a new file, and none for an overwrite, whose old text is gone', () => {
    const call = (id: string) => ({ id, name: 'write_file', input: '{"path":"a.txt","content":"x"}' });
    const written = (id: string, created: boolean): AgentEvent => ({
      ...(result('write_file', true) as Extract<AgentEvent, { type: 'tool_result' }>),
      id,
      metadata: { created },
    });
    const updates = replayUpdates(
      [{ role: 'assistant', content: '', toolCalls: [call('made'), call('overwrote')] }],
      root,
      newFileCalls([written('made', true), written('overwrote', false)]),
    );
    expect(updates.map((u) => ('content' in u ? u.content : undefined))).toEqual([
      [{ type: 'diff', path: '/ws/a.txt', oldText: null, newText: 'x' }],
      undefined,
    ]);
  });
});

describe('promptText', () => {
  test.each([
    [
      'text blocks join as typed',
      [
        { type: 'text', text: 'fix ' },
        { type: 'text', text: 'this' },
      ],
      'fix this',
    ],
    [
      'a file link is named by its path',
      [
        { type: 'text', text: 'see' },
        { type: 'resource_link', name: 'a.ts', uri: 'file:///ws/a%20b.ts' },
      ],
      'see\n[@a.ts](/ws/a b.ts)',
    ],
    [
      'an embedded resource goes in whole',
      [{ type: 'resource', resource: { uri: 'file:///ws/a.ts', text: 'const a = 1;' } }],
      '<context ref="/ws/a.ts">\nconst a = 1;\n</context>',
    ],
    [
      'a binary resource is named, not included',
      [{ type: 'resource', resource: { uri: 'file:///ws/a.png', blob: 'AAAA', mimeType: 'image/png' } }],
      '[binary resource /ws/a.png (image/png): not included]',
    ],
    [
      'an image of a type Keel cannot send is named',
      [{ type: 'image', data: 'AAAA', mimeType: 'image/svg+xml' }],
      '[an image (image/svg+xml) was attached; Keel cannot send this type]',
    ],
    [
      'an image Keel sends adds no text',
      [
        { type: 'text', text: 'see' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      'see',
    ],
  ] as const)('%s', (_name, blocks, expected) => {
    expect(promptText(blocks as never)).toBe(expected);
  });
});

describe('promptMessage', () => {
  test('carries the images Keel can send beside the text', () => {
    const message = promptMessage([
      { type: 'text', text: 'what is this?' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png', uri: 'file:///ws/shot.png' },
      { type: 'image', data: 'AAAA', mimeType: 'image/tiff' },
    ]);
    expect(message.images).toEqual([
      { type: 'image', mediaType: 'image/png', data: 'AAAA', bytes: 3, name: 'shot.png' },
    ]);
    expect(message.content).toBe(
      'what is this?\n[an image (image/tiff) was attached; Keel cannot send this type]',
    );
  });

  test('names the images of a message without text', () => {
    expect(promptMessage([{ type: 'image', data: 'AAAA', mimeType: 'image/jpeg' }]).content).toBe(
      'image-1 (image/jpeg, 3 B)',
    );
  });
});

describe('permissions', () => {
  const request = { id: 'c1', tool: 'edit_file', reason: 'edits ask', summary: 'edit a.ts' };

  test('offers always only when Keel can remember it', () => {
    expect(permissionOptions(request).map((o) => o.kind)).toEqual(['allow_once', 'reject_once']);
    expect(permissionOptions({ ...request, always: 'edits of a.ts' }).map((o) => o.kind)).toEqual([
      'allow_once',
      'allow_always',
      'reject_once',
    ]);
  });

  test.each([
    [{ outcome: 'selected', optionId: 'allow-once' }, 'once'],
    [{ outcome: 'selected', optionId: 'allow-always' }, 'always'],
    [{ outcome: 'selected', optionId: 'reject' }, 'deny'],
    [{ outcome: 'selected', optionId: 'something-else' }, 'deny'],
    [{ outcome: 'cancelled' }, 'deny'],
  ] as const)('%j is answered %s', (outcome, decision) => {
    expect(permissionAnswer(outcome).decision).toBe(decision);
  });
});

describe('stopReason', () => {
  const ended = (reason: 'done' | 'turn-limit' | 'interrupted' | 'failed') => ({
    reason,
    answer: '',
    turns: 1,
    toolCalls: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
  });
  test.each([
    ['done', false, 'end_turn'],
    ['turn-limit', false, 'max_turn_requests'],
    ['interrupted', false, 'cancelled'],
    ['failed', false, 'end_turn'],
    ['done', true, 'cancelled'],
  ] as const)('%s (cancelled: %s) stops with %s', (reason, cancelled, expected) => {
    expect(stopReason(ended(reason), cancelled)).toBe(expected);
  });
});

describe('initialize', () => {
  test('offers a way to log in only when the credential is missing', () => {
    expect(initializeResponse('1.0.0').authMethods).toEqual([]);
    const missing = initializeResponse('1.0.0', { provider: 'anthropic', envVar: 'ANTHROPIC_API_KEY' });
    expect(missing.authMethods?.[0]).toMatchObject({
      id: 'keel-auth-login',
      name: 'keel auth login anthropic',
    });
    expect(missing.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { embeddedContext: true },
    });
  });
});
