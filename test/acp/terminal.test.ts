// keel acp with an editor that offers terminals, in process: the agent side on the run assembly, the ACP SDK's client
// side holding real bash processes as its terminals, the scripted model server. A command the policy allowed runs in
// the editor's terminal (output, exit code and stderr reach the model); background commands too; and a run whose
// commands go to the sandbox keeps the sandbox.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  type AgentContext,
  agent,
  type ClientConnection,
  type CreateTerminalRequest,
  client,
  methods,
  ndJsonStream,
} from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acpAgent } from '../../src/acp/agent.js';
import { clientTerminalRunner } from '../../src/acp/client-terminal.js';
import type { OpenRequest } from '../../src/acp/session.js';
import { probeBubblewrap } from '../../src/exec/sandbox-choice.js';
import { assembleRun } from '../../src/runtime/assemble.js';
import { redactingSink } from '../../src/safety/redact-stream.js';
import { homeEnv, toolMessages, useE2E } from '../support/e2e.js';
import type { ModelServer, ScriptStep } from '../support/model-server.js';

const { server, workspace } = useE2E();
const saved = { ...process.env };
let home = '';
beforeEach(async () => {
  home = await workspace();
  Object.assign(process.env, homeEnv(home));
});
afterEach(() => {
  process.env = { ...saved };
});

/** The test editor's terminals: real bash processes, their output kept in one stream as an editor does. */
function editorTerminals() {
  const created: CreateTerminalRequest[] = [];
  const terminals = new Map<
    string,
    {
      limit: number | undefined;
      child: ChildProcess;
      output: string;
      exit: Promise<{ exitCode: number | null; signal: string | null }>;
    }
  >();
  let next = 0;
  const app = client({ name: 'test-editor' })
    .onNotification(methods.client.session.update, () => {})
    .onRequest(methods.client.session.requestPermission, async () => ({
      outcome: { outcome: 'selected', optionId: 'allow-once' },
    }))
    .onRequest(methods.client.terminal.create, async ({ params }) => {
      created.push(params);
      const child = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? undefined, stdio: 'pipe' });
      const terminal = {
        child,
        limit: params.outputByteLimit ?? undefined,
        output: '',
        exit: new Promise<{ exitCode: number | null; signal: string | null }>((resolve) =>
          child.on('close', (exitCode, signal) => resolve({ exitCode, signal })),
        ),
      };
      child.stdout?.on('data', (d: Buffer) => (terminal.output += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (terminal.output += d.toString()));
      const terminalId = `t${++next}`;
      terminals.set(terminalId, terminal);
      return { terminalId };
    })
    .onRequest(methods.client.terminal.output, async ({ params }) => {
      const terminal = terminals.get(params.terminalId)!;
      const exited = terminal.child.exitCode !== null || terminal.child.signalCode !== null;
      // As an editor does: past the limit, the start of the output goes.
      const limit = terminal.limit ?? Number.POSITIVE_INFINITY;
      return {
        output: terminal.output.length > limit ? terminal.output.slice(-limit) : terminal.output,
        truncated: terminal.output.length > limit,
        ...(exited ? { exitStatus: await terminal.exit } : {}),
      };
    })
    .onRequest(
      methods.client.terminal.waitForExit,
      async ({ params }) => terminals.get(params.terminalId)!.exit,
    )
    .onRequest(methods.client.terminal.kill, async ({ params }) => {
      terminals.get(params.terminalId)?.child.kill('SIGKILL');
      return {};
    })
    .onRequest(methods.client.terminal.release, async ({ params }) => {
      terminals.delete(params.terminalId);
      return {};
    });
  return { app, created };
}

/** keel acp's agent in this process, joined to the editor by in-memory streams; its runs in full mode, no sandbox. */
async function connect(
  s: ModelServer,
  sandbox = false,
): Promise<{ connection: ClientConnection; created: CreateTerminalRequest[]; close: () => Promise<void> }> {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toEditor = new TransformStream<Uint8Array, Uint8Array>();
  const { app: agentApp, closeAll } = acpAgent({
    version: 'test',
    missingCredential: async () => undefined,
    log: () => {},
    open: (request: OpenRequest) =>
      assembleRun({
        cwd: request.cwd,
        flags: { provider: 'ollama', baseUrl: s.ollamaUrl, model: 'test-model' },
        mode: () => 'full',
        sandbox,
        approve: request.approve,
        ...(request.terminal ? { terminal: request.terminal } : {}),
        session: { save: false },
        outputs: (_model, redact) => redactingSink(request.sink, redact),
      }),
  });
  agentApp.connect(ndJsonStream(toEditor.writable, toAgent.readable));
  const { app, created } = editorTerminals();
  const connection = app.connect(ndJsonStream(toAgent.writable, toEditor.readable));
  await connection.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: { terminal: true },
  });
  return {
    connection,
    created,
    close: async () => {
      connection.close();
      await closeAll();
    },
  };
}

async function promptIn(connection: ClientConnection, cwd: string, text: string) {
  const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
  return connection.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text }],
  });
}

const command = (args: Record<string, unknown>): ScriptStep => ({
  toolCalls: [{ name: 'execute_command', args }],
});

describe('keel acp with the editor’s terminals', () => {
  it('runs a command in the editor’s terminal: its output, stderr and exit code reach the model', async () => {
    const s = await server([
      command({ command: 'echo from-terminal; echo oops >&2; exit 3' }),
      { text: 'done' },
    ]);
    const ws = await workspace();
    const { connection, created, close } = await connect(s);
    try {
      const { stopReason } = await promptIn(connection, ws, 'run it');
      expect(stopReason).toBe('end_turn');
    } finally {
      await close();
    }
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      command: 'bash',
      args: ['-c', 'echo from-terminal; echo oops >&2; exit 3'],
    });
    expect(await import('node:fs/promises').then((fs) => fs.realpath(created[0]!.cwd!))).toBe(
      await import('node:fs/promises').then((fs) => fs.realpath(ws)),
    );
    const result = toolMessages(s.requests[1]!.body).join('\n');
    expect(result).toContain('from-terminal');
    expect(result).toContain('oops');
    expect(result).toMatch(/exit code:? 3|exited with 3|exit 3/i);
  });

  it('runs a background command there too, and reads its output by id', async () => {
    const s = await server([
      command({ command: 'echo started; sleep 0.2; echo later', background: true }),
      { toolCalls: [{ name: 'command_output', args: { id: 'bg1' } }] },
      { text: 'done' },
    ]);
    const ws = await workspace();
    const { connection, created, close } = await connect(s);
    try {
      await promptIn(connection, ws, 'start it');
    } finally {
      await close();
    }
    expect(created[0]).toMatchObject({
      command: 'bash',
      args: ['-c', 'echo started; sleep 0.2; echo later'],
    });
    const [first] = toolMessages(s.requests[1]!.body);
    expect(first).toContain('bg1');
    expect(toolMessages(s.requests[2]!.body).join('\n')).toMatch(/started|later/);
  });
});

describe('keel acp with the editor’s terminals, in the sandbox', async () => {
  const broken = await probeBubblewrap(false, process.env);
  it.skipIf(broken !== undefined)(
    'keeps a sandboxed run’s commands in the sandbox, not the editor’s terminal',
    async () => {
      const s = await server([command({ command: 'echo in-sandbox' }), { text: 'done' }]);
      const ws = await workspace();
      const { connection, created, close } = await connect(s, true);
      try {
        await promptIn(connection, ws, 'run it');
      } finally {
        await close();
      }
      expect(created).toEqual([]);
      expect(toolMessages(s.requests[1]!.body).join('\n')).toContain('in-sandbox');
    },
  );
});

/** A runner on the test editor's terminals, reached through a bare ACP agent; `close` ends the connection. */
async function editorRunner() {
  const { app } = editorTerminals();
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toEditor = new TransformStream<Uint8Array, Uint8Array>();
  let context: AgentContext | undefined;
  agent({ name: 'probe' })
    .onConnect(({ client: c }) => {
      context = c;
    })
    .connect(ndJsonStream(toEditor.writable, toAgent.readable));
  const connection = app.connect(ndJsonStream(toAgent.writable, toEditor.readable));
  await new Promise((r) => setTimeout(r, 0));
  return { runner: clientTerminalRunner(context!, () => 's1'), close: () => connection.close() };
}

const request = (command: string, timeoutMs = 10_000) => ({
  command,
  cwd: process.cwd(),
  timeoutMs,
  signal: new AbortController().signal,
  maxStdoutBytes: 1000,
  maxStderrBytes: 1000,
});

describe('clientTerminalRunner', () => {
  it('kills a command that outlives its timeout in the editor, and says it was stopped', async () => {
    const { runner, close } = await editorRunner();
    const outcome = await runner.run(request('sleep 30', 200));
    close();
    expect(outcome.stopped).toBe('timeout');
    expect(outcome.exitCode).toBeNull();
  });

  it('says the editor cut the start of a long output, without claiming how much', async () => {
    const { runner, close } = await editorRunner();
    const outcome = await runner.run(request('seq 1 2000'));
    close();
    expect(outcome.stdout.text).toMatch(/^\[the editor's terminal kept only the last 1000 bytes\]\n/);
    expect(outcome.stdout.text).toMatch(/\n2000\n$/);
    expect(outcome.stdout.dropped).toBe(0);
    expect(outcome.exitCode).toBe(0);
  });
});
