// keel acp's mode change in process: the run is assembled again on the same session, which has started already,
// so its session_start hooks do not run again (the agent side on the run assembly, the ACP SDK's client side).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { client, methods, ndJsonStream } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acpAgent } from '../../src/acp/agent.js';
import { modeState, type OpenRequest, sessionRequestOf } from '../../src/acp/session.js';
import { assembleRun } from '../../src/runtime/assemble.js';
import { redactingSink } from '../../src/safety/redact-stream.js';
import { homeEnv, useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();
const saved = { ...process.env };
beforeEach(async () => {
  Object.assign(process.env, homeEnv(await workspace()), { KEEL_CHECKPOINTS: 'off' });
});
afterEach(() => {
  process.env = { ...saved };
});

describe('keel acp: the mode menu', () => {
  it("describes each mode as the chat's /mode does: full runs in the sandbox where bubblewrap works", () => {
    const menu = modeState('auto');
    expect(menu.currentModeId).toBe('auto');
    expect(menu.availableModes.map((m) => m.id)).toEqual([
      'plan',
      'interactive',
      'restricted',
      'auto',
      'full',
    ]);
    const full = menu.availableModes.find((m) => m.id === 'full')?.description ?? '';
    expect(full).toContain('in the sandbox where bubblewrap works');
    expect(full).not.toContain('outside the sandbox');
  });
});

describe('keel acp: a mode change', () => {
  it('goes on with the same session without running its session_start hooks again', async () => {
    const s = await server([{ text: 'hello' }]);
    const ws = await workspace();
    const dir = await workspace();
    const config = join(dir, 'config.yaml');
    const log = join(dir, 'starts.log');
    await writeFile(config, `hooks:\n  session_start:\n    - command: echo "$KEEL_SESSION_ID" >> "${log}"\n`);
    const requests: OpenRequest[] = [];
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const toEditor = new TransformStream<Uint8Array, Uint8Array>();
    const { app: agentApp, closeAll } = acpAgent({
      version: 'test',
      missingCredential: async () => undefined,
      log: () => {},
      open: (request: OpenRequest) => {
        requests.push(request);
        return assembleRun({
          cwd: request.cwd,
          configFile: config,
          flags: { provider: 'ollama', baseUrl: s.ollamaUrl, model: 'test-model' },
          mode: () => request.mode ?? 'interactive',
          approve: request.approve,
          session: sessionRequestOf(request),
          outputs: (_model, redact) => redactingSink(request.sink, redact),
        });
      },
    });
    agentApp.connect(ndJsonStream(toEditor.writable, toAgent.readable));
    const connection = client({ name: 'test-editor' })
      .onNotification(methods.client.session.update, () => {})
      .connect(ndJsonStream(toAgent.writable, toEditor.readable));
    try {
      await connection.agent.request(methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: {},
      });
      const { sessionId } = await connection.agent.request(methods.agent.session.new, {
        cwd: ws,
        mcpServers: [],
      });
      await connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'restricted' });
      const { stopReason } = await connection.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'hi' }],
      });
      expect(stopReason).toBe('end_turn');
      expect(requests.map((r) => [r.mode, r.started])).toEqual([
        [undefined, undefined],
        ['restricted', true],
      ]);
      expect(await readFile(log, 'utf8')).toBe(`${sessionId}\n`);
    } finally {
      connection.close();
      await closeAll();
    }
  });
});
