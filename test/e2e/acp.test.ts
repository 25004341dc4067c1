// End to end: `keel acp` driven by the ACP SDK's client side, one process for the whole file (several sessions,
// each in its own workspace), against the scripted model server: streamed text, a tool call with its diff,
// permission allowed and rejected, a mode switch, cancel mid-turn, and loading a saved session.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  type ClientConnection,
  client,
  methods,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keelBin } from '../support/cli.js';
import type { ModelServer, ReceivedRequest, ScriptedReply } from '../support/model-server.js';
import { startModelServer } from '../support/model-server.js';

/** What the model does for each user message: its first reply, and its answer once the tool result is in. */
function reply(request: ReceivedRequest): ScriptedReply {
  const messages = request.body.messages as { role: string; content: string }[];
  const user = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const afterTool = messages.at(-1)?.role === 'tool';
  if (user.includes('please hang')) {
    hung.resolve();
    return { hang: true };
  }
  if (user.includes('please echo')) {
    return afterTool
      ? { text: `echoed: ${messages.at(-1)?.content}` }
      : { toolCalls: [{ name: 'echo__echo', args: { message: 'from the editor' } }] };
  }
  if (user.includes('please fail'))
    return { status: 400, errorBody: { error: 'the model refused this request' } };
  if (user.includes('please overwrite')) {
    return afterTool
      ? { text: 'overwritten' }
      : { toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'all new\n' } }] };
  }
  if (user.includes('please edit')) {
    return afterTool
      ? { text: 'edited' }
      : {
          toolCalls: [
            { name: 'edit_file', args: { path: 'notes.txt', old_string: 'old', new_string: 'new' } },
          ],
        };
  }
  return { text: 'Hi there from Keel', reasoning: 'thinking it over' };
}

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
let hung = deferred();
/** A 1×1 PNG. */
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let server: ModelServer;
let home: string;
let connection: ClientConnection;
let child: ReturnType<typeof spawn>;
let stderr = '';
let stdout = '';
const updates = new Map<string, SessionUpdate[]>();
const asked: RequestPermissionRequest[] = [];
/** For each permission request, whether the editor had the call's tool_call update (with its diff) before it. */
const announced = new Map<string, boolean>();
/** The test editor's unsaved buffers by absolute path, and the writes Keel made through it. */
const buffers = new Map<string, string>();
const written: { path: string; content: string }[] = [];
/** How the test client answers the next permission request. */
let answer: RequestPermissionResponse['outcome'] | 'wait' = { outcome: 'selected', optionId: 'allow-once' };
/** Resolves when the test client is asked for a permission it holds until the request is cancelled. */
let waiting = deferred();

beforeAll(async () => {
  server = await startModelServer({ script: Array.from({ length: 60 }, () => reply) });
  home = await mkdtemp(join(tmpdir(), 'keel-acp-'));
  child = spawn(
    process.execPath,
    [
      keelBin,
      'acp',
      '--base-url',
      server.ollamaUrl,
      '--model',
      'test-model',
      '--mode',
      'interactive',
      '--no-sandbox',
    ],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        XDG_STATE_HOME: join(home, 'state'),
        XDG_DATA_HOME: join(home, 'data'),
        KEEL_KEYRING: 'off',
        NO_COLOR: '1',
      },
      stdio: 'pipe',
    },
  );
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const app = client({ name: 'keel-acp-test' })
    .onNotification(methods.client.session.update, ({ params }: { params: SessionNotification }) => {
      const list = updates.get(params.sessionId) ?? [];
      list.push(params.update);
      updates.set(params.sessionId, list);
    })
    .onRequest(methods.client.session.requestPermission, async ({ params, signal }) => {
      asked.push(params);
      const calls = (updates.get(params.sessionId) ?? []).filter((u) => u.sessionUpdate === 'tool_call');
      announced.set(
        params.toolCall.toolCallId,
        calls.some((u) => u.toolCallId === params.toolCall.toolCallId),
      );
      if (answer !== 'wait') return { outcome: answer };
      waiting.resolve();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return { outcome: { outcome: 'cancelled' } };
    })
    // An editor's file system: its unsaved buffer when it has one, else the file; a write is saved to disk.
    .onRequest(methods.client.fs.readTextFile, async ({ params }) => ({
      content: buffers.get(params.path) ?? (await readFile(params.path, 'utf8')),
    }))
    .onRequest(methods.client.fs.writeTextFile, async ({ params }) => {
      written.push({ path: params.path, content: params.content });
      buffers.delete(params.path);
      await writeFile(params.path, params.content);
      return {};
    });
  connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    ),
  );
});

afterAll(async () => {
  connection?.close();
  child?.stdin?.end();
  await new Promise((resolve) => (child.exitCode === null ? child.once('close', resolve) : resolve(null)));
  await server?.close();
  await rm(home, { recursive: true, force: true });
});

async function workspace(files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(home, 'ws-'));
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  return dir;
}

const texts = (
  list: SessionUpdate[],
  kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk',
) =>
  list
    .flatMap((u) => (u.sessionUpdate === kind && u.content.type === 'text' ? [u.content.text] : []))
    .join('');

async function newSession(cwd: string): Promise<string> {
  const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
  return sessionId;
}

const prompt = (sessionId: string, text: string) =>
  connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });

describe('keel acp', () => {
  let greeted = { sessionId: '', cwd: '' };

  it('initializes with session loading and embedded context, and no auth method when none is needed', async () => {
    const init = await connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
    });
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.promptCapabilities?.embeddedContext).toBe(true);
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: false });
    expect(init.authMethods).toEqual([]);
  });

  it('streams the answer and the reasoning of a prompt, with embedded resources and images sent to the model', async () => {
    const cwd = await workspace();
    const sessionId = await newSession(cwd);
    const result = await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: 'text', text: 'hello, look at this' },
        { type: 'resource', resource: { uri: 'file:///tmp/buffer.ts', text: 'const unsaved = 1;' } },
        { type: 'image', mimeType: 'image/png', data: PIXEL },
      ],
    });
    expect(result.stopReason).toBe('end_turn');
    const list = updates.get(sessionId) ?? [];
    expect(texts(list, 'agent_message_chunk')).toBe('Hi there from Keel');
    expect(texts(list, 'agent_thought_chunk')).toBe('thinking it over');
    const sent = JSON.stringify(server.requests.at(-1)?.body);
    expect(sent).toContain('const unsaved = 1;');
    expect(sent).toContain(PIXEL);
    greeted = { sessionId, cwd };
  });

  it("shows an edit as a diff, asks permission, and makes it in the editor's unsaved buffer when allowed", async () => {
    const cwd = await workspace({ 'notes.txt': 'old line\n' });
    buffers.set(join(cwd, 'notes.txt'), 'old line, unsaved\n');
    const sessionId = await newSession(cwd);
    answer = { outcome: 'selected', optionId: 'allow-once' };
    const before = asked.length;
    expect((await prompt(sessionId, 'please edit notes')).stopReason).toBe('end_turn');
    const list = updates.get(sessionId) ?? [];
    const call = list.find((u) => u.sessionUpdate === 'tool_call');
    expect(call).toMatchObject({
      kind: 'edit',
      title: 'edit_file notes.txt',
      locations: [{ path: join(cwd, 'notes.txt') }],
      content: [{ type: 'diff', path: join(cwd, 'notes.txt'), oldText: 'old', newText: 'new' }],
    });
    expect(asked.length).toBe(before + 1);
    expect(asked.at(-1)?.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    expect(list.at(-2)).toMatchObject({ sessionUpdate: 'tool_call_update', status: 'completed' });
    expect(written.at(-1)).toEqual({ path: join(cwd, 'notes.txt'), content: 'new line, unsaved\n' });
    expect(await readFile(join(cwd, 'notes.txt'), 'utf8')).toBe('new line, unsaved\n');
  });

  it('shows an overwrite against the text it replaces (the unsaved buffer), before asking permission for it', async () => {
    const cwd = await workspace({ 'notes.txt': 'old line\n' });
    buffers.set(join(cwd, 'notes.txt'), 'old line, unsaved\n');
    const sessionId = await newSession(cwd);
    answer = { outcome: 'selected', optionId: 'allow-once' };
    expect((await prompt(sessionId, 'please overwrite notes')).stopReason).toBe('end_turn');
    const call = (updates.get(sessionId) ?? []).find((u) => u.sessionUpdate === 'tool_call');
    expect(call).toMatchObject({
      title: 'write_file notes.txt',
      content: [
        { type: 'diff', path: join(cwd, 'notes.txt'), oldText: 'old line, unsaved\n', newText: 'all new\n' },
      ],
    });
    expect(call?.sessionUpdate === 'tool_call' && announced.get(call.toolCallId)).toBe(true);
    expect(await readFile(join(cwd, 'notes.txt'), 'utf8')).toBe('all new\n');
  });

  it('leaves the file as it was when the permission is rejected', async () => {
    const cwd = await workspace({ 'notes.txt': 'old line\n' });
    const sessionId = await newSession(cwd);
    answer = { outcome: 'selected', optionId: 'reject' };
    expect((await prompt(sessionId, 'please edit notes')).stopReason).toBe('end_turn');
    const list = updates.get(sessionId) ?? [];
    expect(list.find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed')).toBeDefined();
    expect(await readFile(join(cwd, 'notes.txt'), 'utf8')).toBe('old line\n');
  });

  it('runs edits without asking once the session is switched to restricted mode', async () => {
    const cwd = await workspace({ 'notes.txt': 'old line\n' });
    const created = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    expect(created.modes?.currentModeId).toBe('interactive');
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual([
      'plan',
      'interactive',
      'restricted',
      'auto',
      'full',
    ]);
    await connection.agent.request(methods.agent.session.setMode, {
      sessionId: created.sessionId,
      modeId: 'restricted',
    });
    const before = asked.length;
    expect((await prompt(created.sessionId, 'please edit notes')).stopReason).toBe('end_turn');
    expect(asked.length).toBe(before);
    expect(await readFile(join(cwd, 'notes.txt'), 'utf8')).toBe('new line\n');
  });

  it('keeps the id it gave through a mode change before the first prompt: loaded and continued under it', async () => {
    const cwd = await workspace();
    const sessionId = await newSession(cwd);
    await connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'restricted' });
    expect((await prompt(sessionId, 'hello after the switch')).stopReason).toBe('end_turn');
    updates.delete(sessionId);
    await connection.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    expect(texts(updates.get(sessionId) ?? [], 'user_message_chunk')).toBe('hello after the switch');
    expect((await prompt(sessionId, 'and again')).stopReason).toBe('end_turn');
  });

  it('finds no session for an empty id or a part of one', async () => {
    const { sessionId, cwd } = greeted;
    for (const id of ['', sessionId.slice(0, -1)]) {
      await expect(
        connection.agent.request(methods.agent.session.load, { sessionId: id, cwd, mcpServers: [] }),
      ).rejects.toMatchObject({ code: -32002 });
    }
  });

  it('refuses a relative or missing cwd and an empty prompt as invalid parameters, sending the model nothing', async () => {
    await expect(
      connection.agent.request(methods.agent.session.new, { cwd: 'relative/dir', mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('absolute') });
    const missing = join(await workspace(), 'missing');
    await expect(
      connection.agent.request(methods.agent.session.new, { cwd: missing, mcpServers: [] }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(`not an existing directory: ${missing}`),
    });
    const sessionId = await newSession(await workspace());
    const sent = server.requests.length;
    for (const empty of [[], [{ type: 'text' as const, text: '  ' }]]) {
      await expect(
        connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: empty }),
      ).rejects.toMatchObject({ code: -32602 });
    }
    expect(server.requests.length).toBe(sent);
  });

  it('ends a turn cancelled mid-request with stopReason cancelled', async () => {
    const sessionId = await newSession(await workspace());
    hung = deferred();
    const running = prompt(sessionId, 'please hang');
    await hung.promise;
    await connection.agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await running).stopReason).toBe('cancelled');
  });

  it('cancels a turn waiting for permission, and the edit is not made', async () => {
    const cwd = await workspace({ 'notes.txt': 'old line\n' });
    const sessionId = await newSession(cwd);
    answer = 'wait';
    waiting = deferred();
    const running = prompt(sessionId, 'please edit notes');
    await waiting.promise;
    await connection.agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await running).stopReason).toBe('cancelled');
    expect(await readFile(join(cwd, 'notes.txt'), 'utf8')).toBe('old line\n');
  });

  it('shows a failed model request in the answer and ends the turn', async () => {
    const sessionId = await newSession(await workspace());
    expect((await prompt(sessionId, 'please fail')).stopReason).toBe('end_turn');
    expect(texts(updates.get(sessionId) ?? [], 'agent_message_chunk')).toMatch(
      /error: .*refused this request/,
    );
  });

  it("offers the tools of the MCP servers the editor gives the session, beside the config's", async () => {
    const echo = join(import.meta.dirname, '../fixtures/mcp/echo-server.mjs');
    answer = { outcome: 'selected', optionId: 'allow-once' }; // interactive mode asks about the MCP tool's call
    const { sessionId } = await connection.agent.request(methods.agent.session.new, {
      cwd: await workspace(),
      mcpServers: [{ name: 'echo', command: process.execPath, args: [echo], env: [] }],
    });
    expect((await prompt(sessionId, 'please echo')).stopReason).toBe('end_turn');
    expect(texts(updates.get(sessionId) ?? [], 'agent_message_chunk')).toBe('echoed: Echo: from the editor');
  });

  it('loads a saved session by replaying its conversation', async () => {
    const { sessionId, cwd } = greeted;
    expect(sessionId).not.toBe('');
    updates.delete(sessionId);
    await connection.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const list = updates.get(sessionId) ?? [];
    expect(texts(list, 'user_message_chunk')).toContain('hello, look at this');
    expect(texts(list, 'agent_message_chunk')).toBe('Hi there from Keel');
    // The loaded session goes on: the model gets the earlier turn with the next prompt.
    expect((await prompt(sessionId, 'hello again')).stopReason).toBe('end_turn');
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('Hi there from Keel');
  });

  it('writes nothing but JSON-RPC messages to stdout', () => {
    const lines = stdout.split('\n').filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(stderr).not.toMatch(/internal error/);
  });
});
