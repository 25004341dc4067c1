// MCP servers' tools in a run — the reference servers over stdio and streamable HTTP, a server that crashes
// mid-run, one that never answers, tools.allow / tools.deny, disabled and untrusted servers — in-process through
// assembleRun against the scripted model server. The built CLI runs twice, for what only it shows: the status line
// and warnings on stderr with JSON on stdout, a hung server killed at exit, and stdio servers killed on SIGTERM; its
// stdio server is a light one (server-everything over stdio is test/mcp/manager.test.ts's and `keel mcp list`'s).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { AgentEvent } from '../../src/core/events.js';
import { answerOf, runInProcess, useTempHome, warningsOf } from '../support/assemble-in-process.js';
import { runOllama, toolMessages, useE2E } from '../support/e2e.js';
import {
  everythingEntry,
  filesystemEntry,
  fixture,
  freePort,
  mcpConfig,
  offeredTools,
  whenOffered,
} from '../support/mcp.js';
import type { ModelServer } from '../support/model-server.js';
import { hasEnded } from '../support/processes.js';

const { server, workspace } = useE2E();
const home = useTempHome();
const node = process.execPath;

// server-everything over streamable HTTP boots in ~1.5 s: started with the file, so that it boots while the built
// CLI's tests wait on their hung and silent servers, and awaited by the one test that uses it.
let http: Promise<{ port: number; log: () => string }>;
let stopHttp = () => {};
beforeAll(() => {
  http = startHttpEverything((stop) => {
    stopHttp = stop;
  });
  http.catch(() => {}); // reported by the test that awaits it
});
afterAll(() => stopHttp());

/** Resolves when `test` holds for an event: pass `observe` to the run, await `seen` in a script step. */
function eventWatch(test: (event: AgentEvent) => boolean) {
  let resolveSeen = () => {};
  const seen = new Promise<void>((resolveIt) => {
    resolveSeen = resolveIt;
  });
  return { seen, observe: (event: AgentEvent) => test(event) && resolveSeen() };
}

const warningOf = (pattern: RegExp) => (event: AgentEvent) =>
  event.type === 'warning' && pattern.test(event.message);

/** A headless run of 'go' in `ws` with these options, its session not saved, its MCP servers closed after it. */
async function runIn(
  s: ModelServer,
  ws: string,
  options: { config?: string; env?: Record<string, string>; observe?: (event: AgentEvent) => void } = {},
) {
  const { env, ...rest } = options;
  const { result, events, run } = await runInProcess(s, ws, 'go', {
    ...rest,
    ...(env ? { extraEnv: env } : {}),
    session: { save: false },
  });
  return { result, events, mcp: run.mcp };
}

describe('MCP servers in keel run (the built CLI)', () => {
  it('offers stdio tools as <server>__<tool> from the first request, waits for a hung server only up to its startup timeout (one status line and one warning, on stderr), and kills it at exit', async () => {
    const ws = await workspace({ 'a.txt': 'a\n' });
    const pidFile = join(ws, 'hung.pid');
    const config = await mcpConfig(ws, {
      everything: { command: node, args: [fixture('echo-server.mjs')] },
      hung: {
        command: node,
        // It ignores SIGTERM and never answers. Its timeout runs from the servers' start, before the run is assembled:
        // shorter, a busy machine may reach the first request after it, with nothing left to wait for.
        args: [fixture('gated-server.mjs'), '--stubborn', '--pid', pidFile],
        timeout_seconds: 600,
        startup_timeout_seconds: 1,
      },
    });
    const s = await server([
      { toolCalls: [{ name: 'everything__echo', args: { message: 'hello mcp' } }] },
      { text: 'echoed' },
    ]);
    const r = await runOllama(s, ws, [
      '--mode',
      'restricted',
      '--config',
      config,
      '--prompt',
      'echo it',
      '--output',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(result.answer).toBe('echoed');
    // The first request waited for the servers (within their startup timeouts): everything's tools are offered.
    expect(offeredTools(s.requests[0]!)).toContain('everything__echo');
    const last = s.requests.at(-1)!;
    expect(toolMessages(last.body).at(-1)).toBe('Echo: hello mcp');
    const echo = (last.body.tools as { function: { name: string; parameters: unknown } }[]).find(
      (tool) => tool.function.name === 'everything__echo',
    );
    expect(echo?.function.parameters).toMatchObject({ properties: { message: { type: 'string' } } });
    expect(r.stdout).not.toContain('waiting for MCP servers');
    const lines = r.stderr.split('\n');
    const waiting = lines.filter((line) => line.includes('waiting for MCP servers'));
    expect(waiting).toHaveLength(1);
    // everything is listed too unless it was ready before the first request.
    expect(waiting[0]).toMatch(/^waiting for MCP servers to start: (everything, )?hung \(up to \d+ s\)$/);
    expect(lines.filter((line) => line.includes('warning'))).toEqual([
      'warning: MCP server hung is not ready after 1 s (startup_timeout_seconds); its tools join when it is',
    ]);
    await waitUntilGone(Number(await readFile(pidFile, 'utf8')));
  });

  it('kills its stdio servers when SIGTERM ends keel mid-run', async () => {
    const ws = await workspace();
    const pidFile = join(ws, 'silent.pid');
    const config = await mcpConfig(ws, {
      silent: { command: node, args: [fixture('silent-server.mjs'), pidFile], timeout_seconds: 600 },
    });
    const s = await server([{ hang: true }]);
    const r = await runOllama(s, ws, ['--mode', 'restricted', '--config', config, '--prompt', 'go'], {
      onSpawn: (child) => {
        const poll = setInterval(() => {
          readFile(pidFile, 'utf8').then(
            () => {
              clearInterval(poll);
              child.kill('SIGTERM');
            },
            () => {},
          );
        }, 50);
      },
    });
    expect(r.code).toBe(143);
    const pid = Number(await readFile(pidFile, 'utf8'));
    await waitUntilGone(pid);
  });
});

describe('MCP servers in a run', () => {
  it('runs server-everything tools over streamable HTTP, with a header filled from the environment', async () => {
    const { port, log } = await http;
    const ws = await workspace();
    const config = await mcpConfig(ws, {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
      remote: { url: `http://127.0.0.1:${port}/mcp`, headers: { 'X-Test-Token': '${MCP_TEST_TOKEN}' } },
    });
    const s = await server(
      whenOffered('remote__get-sum', [
        { toolCalls: [{ name: 'remote__get-sum', args: { a: 2, b: 40 } }] },
        { text: 'summed' },
      ]),
    );
    const { result, events } = await runIn(s, ws, { config, env: { MCP_TEST_TOKEN: 'tok-SECRET-123' } });
    expect(result.reason).toBe('done');
    expect(answerOf(events)).toBe('summed');
    expect(toolMessages(s.requests.at(-1)!.body).at(-1)).toMatch(/42/);
    expect(log()).toContain('Received MCP POST request');
    // The expanded secret went to the server only: not to the model, not to any event the outputs print.
    for (const request of s.requests) expect(request.rawBody).not.toContain('tok-SECRET-123');
    expect(JSON.stringify(events)).not.toContain('tok-SECRET-123');
  });

  it('offers only the tools tools.allow / tools.deny let through, read-only ones as safe (server-filesystem)', async () => {
    const ws = await workspace({ 'notes/today.md': 'buy milk\n' });
    const config = await mcpConfig(ws, {
      fs: {
        command: node,
        args: [filesystemEntry, join(ws, 'notes')],
        tools: {
          allow: ['read_text_file', 'list_*', 'write_file'],
          deny: ['list_directory_with_sizes'],
          read_only: ['read_text_file', 'list_*'],
        },
      },
    });
    const s = await server(
      whenOffered('fs__write_file', [
        {
          toolCalls: [
            { name: 'fs__read_text_file', args: { path: join(ws, 'notes/today.md') } },
            { name: 'fs__write_file', args: { path: join(ws, 'notes/new.md'), content: 'from mcp\n' } },
            { name: 'fs__move_file', args: { source: 'a', destination: 'b' } },
          ],
        },
        { text: 'done' },
      ]),
    );
    const { result } = await runIn(s, ws, { config });
    expect(result.reason).toBe('done');
    const offered = offeredTools(s.requests.at(-1)!).filter((name) => name.startsWith('fs__'));
    expect(offered.sort()).toEqual([
      'fs__list_allowed_directories',
      'fs__list_directory',
      'fs__read_text_file',
      'fs__write_file',
    ]);
    const [read, write, move] = toolMessages(s.requests.at(-1)!.body).slice(-3);
    expect(read).toContain('buy milk');
    expect(write).toMatch(/Successfully wrote/);
    expect(move).toMatch(/unknown tool "fs__move_file"/);
    expect(await readFile(join(ws, 'notes/new.md'), 'utf8')).toBe('from mcp\n');
    // The write (caution) is audited like any change; the read (read-only by config) is not.
    const audit = await readFile(join(home(), 'state', 'keel', 'audit.log'), 'utf8');
    expect(audit).toContain('fs__write_file');
    expect(audit).not.toContain('fs__read_text_file');
  });

  it('warns once when a server dies mid-run, drops its tools, tells a later call why, and goes on', async () => {
    const ws = await workspace();
    const config = await mcpConfig(ws, { crash: { command: node, args: [fixture('crash-server.mjs')] } });
    const watch = eventWatch(warningOf(/MCP server crash exited/));
    const s = await server(
      whenOffered('crash__once', [
        { toolCalls: [{ name: 'crash__once', args: {} }] },
        async () => {
          await watch.seen;
          return { toolCalls: [{ name: 'crash__once', args: {} }] };
        },
        { text: 'went on without it' },
      ]),
    );
    const { result, events } = await runIn(s, ws, { config, observe: watch.observe });
    expect(result.reason).toBe('done');
    expect(answerOf(events)).toBe('went on without it');
    expect(warningsOf(events)).toEqual([
      'MCP server crash exited (exit code 3; stderr: crash fixture: exiting after the first call): its tool is gone; going on without it',
    ]);
    const results = toolMessages(s.requests.at(-1)!.body);
    expect(results.at(-2)).toBe('first and last answer');
    expect(results.at(-1)).toMatch(
      /^Error: crash__once is unavailable: MCP server crash exited \(exit code 3; stderr: crash fixture: exiting after the first call\), and it is not restarted during a run\..*mcp\.servers\.crash/s,
    );
    expect(offeredTools(s.requests.at(-1)!)).not.toContain('crash__once');
  });

  it('gives up on a server that never answers after timeout_seconds, with one warning', async () => {
    const ws = await workspace();
    const config = await mcpConfig(ws, {
      silent: { command: node, args: [fixture('silent-server.mjs')], timeout_seconds: 1 },
    });
    const watch = eventWatch(warningOf(/MCP server silent did not answer/));
    const s = await server([
      async () => {
        await watch.seen;
        return { text: 'done without it' };
      },
    ]);
    const { result, events } = await runIn(s, ws, { config, observe: watch.observe });
    expect(result.reason).toBe('done');
    expect(answerOf(events)).toBe('done without it');
    expect(warningsOf(events)).toEqual([
      'MCP server silent did not answer within 1 s (raise mcp.servers.silent.timeout_seconds if it needs longer); going on without it',
    ]);
  });

  it('starts nothing for a disabled server', async () => {
    const ws = await workspace();
    const pidFile = join(ws, 'silent.pid');
    const config = await mcpConfig(ws, {
      silent: { command: node, args: [fixture('silent-server.mjs'), pidFile], enabled: false },
    });
    const s = await server([{ text: 'ok' }]);
    const { result, mcp } = await runIn(s, ws, { config });
    expect(result.reason).toBe('done');
    expect(mcp).toBeUndefined();
    await expect(readFile(pidFile, 'utf8')).rejects.toThrow();
  });

  it("ignores a project file's servers until the folder is trusted", async () => {
    const ws = await workspace();
    const pidFile = join(ws, 'silent.pid');
    const project = stringify({
      mcp: { servers: { silent: { command: node, args: [fixture('silent-server.mjs'), pidFile] } } },
    });
    await writeFile(join(ws, '.keel.yaml'), project);
    const s = await server([{ text: 'ok' }]);
    const { result, events, mcp } = await runIn(s, ws);
    expect(result.reason).toBe('done');
    expect(warningsOf(events)).toEqual([expect.stringMatching(/^ignored mcp\.servers from .*not trusted/)]);
    expect(mcp).toBeUndefined();
    await expect(readFile(pidFile, 'utf8')).rejects.toThrow();
  });
});

/** server-everything over streamable HTTP on a free port, stopped by `onStop`'s function; `log()` is what it printed. */
async function startHttpEverything(
  onStop: (stop: () => void) => void,
): Promise<{ port: number; log: () => string }> {
  const port = await freePort();
  const child: ChildProcess = spawn(node, [everythingEntry, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onStop(() => child.kill('SIGKILL'));
  let log = '';
  await new Promise<void>((resolveReady, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('listening on port')) resolveReady();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', () => reject(new Error(`server-everything exited: ${log}`)));
  });
  return { port, log: () => log };
}

/** Resolves once the process has ended (a SIGTERMed child may take a moment to go; init reaps it later still). */
async function waitUntilGone(pid: number): Promise<void> {
  while (!hasEnded(pid)) await new Promise((resolveLater) => setTimeout(resolveLater, 50));
}
