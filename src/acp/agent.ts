// `keel acp`'s protocol side: Keel as an Agent Client Protocol agent, on the official SDK. Sessions are Keel
// runs (session.ts); this file answers the protocol's requests and turns Keel's questions into the editor's.
import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import {
  type AgentApp,
  type AgentContext,
  type AuthMethod,
  agent,
  type ClientCapabilities,
  type InitializeResponse,
  type McpServer,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
} from '@agentclientprotocol/sdk';
import type { Approve } from '../core/approval.js';
import { KeelError } from '../core/errors.js';
import { SessionError } from '../session/session-file.js';
import { clientFiles } from './client-files.js';
import { clientTerminalRunner } from './client-terminal.js';
import { editorServers } from './mcp-servers.js';
import { permissionAnswer, permissionOptions } from './permission.js';
import { promptMessage } from './prompt.js';
import { AcpSession, isMode, type OpenRun, type SessionPeer } from './session.js';

export interface AcpHost {
  version: string;
  open: OpenRun;
  /** The provider whose credential is missing, with how to give it; undefined when there is one (or none is needed). */
  missingCredential(): Promise<{ provider: string; envVar: string } | undefined>;
  /** Diagnostics, on stderr: stdout is the protocol's. */
  log(message: string): void;
}

function authMethods(missing: { provider: string; envVar: string }): AuthMethod[] {
  return [
    {
      id: 'keel-auth-login',
      name: `keel auth login ${missing.provider}`,
      description: `Run \`keel auth login ${missing.provider}\` in a terminal (or set ${missing.envVar}), then start again.`,
    },
  ];
}

export function initializeResponse(
  version: string,
  missing?: { provider: string; envVar: string },
): InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentInfo: { name: 'keel', title: 'Keel', version },
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      // The servers a session is given: stdio ones always, streamable HTTP ones too; SSE is not spoken.
      mcpCapabilities: { http: true, sse: false },
    },
    authMethods: missing ? authMethods(missing) : [],
  };
}

/**
 * The permission request for one approval, answered deny when the editor cancels it or the turn is cancelled (then
 * Keel stops waiting for the editor). The call itself was announced by its tool_call update, through the run's
 * redactor; the request only points at it, so no unredacted text leaves here.
 */
function askEditor(client: AgentContext, sessionId: string): Approve {
  return async (request, signal) => {
    if (signal.aborted) return { decision: 'deny' };
    try {
      const response = await client.request(
        methods.client.session.requestPermission,
        {
          sessionId,
          toolCall: { toolCallId: request.id, status: 'pending' },
          options: permissionOptions(request),
        },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
      return signal.aborted ? { decision: 'deny' } : permissionAnswer(response.outcome);
    } catch {
      return { decision: 'deny' };
    }
  };
}

/** A failure as the editor shows it: Keel's one clear message and its hint (bad config, an unknown model). */
function requestError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  if (error instanceof KeelError)
    return RequestError.internalError(
      { code: error.code },
      error.hint ? `${error.message} (${error.hint})` : error.message,
    );
  return RequestError.internalError(undefined, error instanceof Error ? error.message : String(error));
}

export function acpAgent(host: AcpHost): { app: AgentApp; closeAll(): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  let connection: AgentContext | undefined;
  let offered: ClientCapabilities = {};
  const peer: SessionPeer = {
    update: async (sessionId, update) => {
      await connection?.notify(methods.client.session.update, { sessionId, update });
    },
    approve: (sessionId) => (request, signal) =>
      connection ? askEditor(connection, sessionId)(request, signal) : Promise.resolve({ decision: 'deny' }),
    files: (sessionId) => (connection ? clientFiles(connection, sessionId, offered.fs) : undefined),
    terminal: (sessionId) =>
      connection && offered.terminal ? clientTerminalRunner(connection, sessionId) : undefined,
    log: host.log,
  };
  const find = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.resourceNotFound(sessionId);
    return session;
  };
  const start = async (cwd: string, resume?: string, given?: readonly McpServer[]) => {
    // ACP's paths are absolute: a relative one would be taken from wherever the editor started Keel.
    if (!isAbsolute(cwd))
      throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path, not ${JSON.stringify(cwd)}`);
    // The editor's slip, said as such (not an internal error naming keel's --cwd flag).
    if (!(await stat(cwd).catch(() => undefined))?.isDirectory())
      throw RequestError.invalidParams({ cwd }, `cwd is not an existing directory: ${cwd}`);
    if (await host.missingCredential()) throw RequestError.authRequired();
    // Loading a session this connection has open starts it again from what was saved.
    const open = resume === undefined ? undefined : sessions.get(resume);
    if (open && resume !== undefined) {
      sessions.delete(resume);
      await open.close();
    }
    const { servers, skipped } = editorServers(given);
    for (const line of skipped) host.log(line);
    const mcpServers = Object.keys(servers).length > 0 ? servers : undefined;
    try {
      const session = await AcpSession.start(host.open, peer, cwd, resume, mcpServers);
      sessions.set(session.id, session);
      return session;
    } catch (error) {
      if (error instanceof SessionError) throw RequestError.resourceNotFound(resume);
      throw requestError(error);
    }
  };
  const app = agent({ name: 'keel' })
    .onConnect(({ client }) => {
      connection = client;
    })
    .onRequest(methods.agent.initialize, async ({ params }) => {
      offered = params.clientCapabilities ?? {};
      return initializeResponse(host.version, await host.missingCredential());
    })
    .onRequest(methods.agent.authenticate, async () => {
      // Keel's credentials are given outside the protocol (keel auth login, or the provider's variable).
      if (await host.missingCredential()) throw RequestError.authRequired();
      return {};
    })
    .onRequest(methods.agent.session.new, async ({ params }) => {
      const session = await start(params.cwd, undefined, params.mcpServers);
      return { sessionId: session.id, modes: session.modes };
    })
    .onRequest(methods.agent.session.load, async ({ params }) => {
      const session = await start(params.cwd, params.sessionId, params.mcpServers);
      return { modes: session.modes };
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const session = find(params.sessionId);
      const message = promptMessage(params.prompt);
      // Nothing for the model to answer: the editor's slip, said as such rather than sent as an empty message.
      if (message.content === '')
        throw RequestError.invalidParams(undefined, 'the prompt is empty: send text, a resource or an image');
      try {
        return { stopReason: await session.prompt(message) };
      } catch (error) {
        throw requestError(error);
      }
    })
    .onRequest(methods.agent.session.setMode, async ({ params }) => {
      if (!isMode(params.modeId))
        throw RequestError.invalidParams(undefined, `unknown mode ${params.modeId}`);
      const session = find(params.sessionId);
      try {
        await session.setMode(params.modeId);
      } catch (error) {
        throw requestError(error);
      }
      return {};
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });
  return {
    app,
    closeAll: async () => {
      await Promise.all([...sessions.values()].map((session) => session.close().catch(() => {})));
      sessions.clear();
    },
  };
}

/** Serves the client on these byte streams (newline-delimited JSON-RPC) until it disconnects; every session's
 * run is closed before this resolves. */
export async function serveAcp(
  host: AcpHost,
  output: WritableStream<Uint8Array>,
  input: ReadableStream<Uint8Array>,
): Promise<void> {
  const { app, closeAll } = acpAgent(host);
  const connection = app.connect(ndJsonStream(output, input));
  await connection.closed;
  await closeAll();
}
