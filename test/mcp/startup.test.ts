// MCP servers at the start of a run, through assembleRun against the scripted model server and a stdio server
// that starts only when its gate file appears (test/fixtures/mcp/gated-server.mjs): the first request waits for a
// server within its startup timeout; one past it is a warning and its tools join later with a note; a cached tool
// list is offered at once and a call to it waits for the server.
import { existsSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/events.js';
import { assembleRun, type Run } from '../../src/runtime/assemble.js';
import { toolMessages, useE2E } from '../support/e2e.js';
import { fixture, mcpConfig, offeredTools } from '../support/mcp.js';
import type { ScriptStep } from '../support/model-server.js';
import { shellGit } from '../support/small-shell.js';

const { server, workspace } = useE2E();

interface Started {
  agent: Run;
  events: AgentEvent[];
  s: Awaited<ReturnType<typeof server>>;
}

/** A run of `steps` with these MCP servers (mcp.servers), its home and cache under `home`. */
async function start(
  home: string,
  servers: Record<string, unknown>,
  steps: ScriptStep[],
  observe?: (event: AgentEvent, agent: () => Run | undefined) => void,
): Promise<Started> {
  const ws = await workspace({ 'a.txt': 'a\n' });
  const s = await server(steps);
  const events: AgentEvent[] = [];
  let agent: Run | undefined;
  agent = await assembleRun({
    cwd: ws,
    configFile: await mcpConfig(home, servers),
    flags: { provider: 'ollama', baseUrl: s.ollamaUrl, model: 'test-model' },
    mode: () => 'full',
    session: { save: false },
    startGit: shellGit,
    env: { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, 'cache'), KEEL_KEYRING: 'off' },
    observe: (event) => {
      events.push(event);
      observe?.(event, () => agent);
    },
  });
  return { agent, events, s };
}

const gated = (gate: string, tools = 'ping') => ({
  command: process.execPath,
  args: [fixture('gated-server.mjs'), '--gate', gate, '--tools', tools],
});

const warnings = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));

async function runOnce(started: Started, prompt = 'go') {
  started.agent.conversation.push({ role: 'user', content: prompt });
  try {
    return await started.agent.run(new AbortController().signal);
  } finally {
    await started.agent.close();
  }
}

describe('MCP servers before the first request', () => {
  it('offers the tools of a server ready within its startup timeout in the first request', async () => {
    const home = await workspace();
    const gate = join(home, 'open');
    await writeFile(gate, '');
    const started = await start(home, { quick: gated(gate) }, [{ text: 'done' }]);
    await runOnce(started);
    expect(offeredTools(started.s.requests[0]!)).toContain('quick__ping');
    expect(warnings(started.events)).toEqual([]);
  });

  it('warns once for a server slower than its startup timeout; its tools join later with a note', async () => {
    const home = await workspace();
    const gate = join(home, 'open');
    let run: Run | undefined;
    const started = await start(home, { slow: { ...gated(gate), startup_timeout_seconds: 0 } }, [
      async () => {
        // The first request went out without the server; now let it start and wait until its tool is offered.
        await writeFile(gate, '');
        while (!run?.registry.get('slow__ping')) await new Promise((r) => setTimeout(r, 10));
        return { toolCalls: [{ name: 'list_files', args: { path: '.' } }] };
      },
      { text: 'done' },
    ]);
    run = started.agent;
    await runOnce(started);
    const [first, second] = started.s.requests;
    expect(offeredTools(first!)).not.toContain('slow__ping');
    expect(offeredTools(second!)).toContain('slow__ping');
    expect(toolMessages(second!.body).at(-1)).toContain('[Keel: new tools are available: slow__ping]');
    expect(warnings(started.events)).toEqual([
      'MCP server slow is not ready after 0 s (startup_timeout_seconds); its tools join when it is',
    ]);
  });

  it('offers a cached tool list at once, and a call to a cached tool waits for its server', async () => {
    const home = await workspace();
    const gate = join(home, 'open');
    const servers = { cached: gated(gate, 'ping,pong') };
    // A first run lists the server's tools and keeps them in the cache.
    await writeFile(gate, '');
    await runOnce(await start(home, servers, [{ text: 'first' }]));
    const cacheDir = join(home, 'cache', 'keel', 'mcp-tools');
    while (!existsSync(cacheDir) || (await readdir(cacheDir)).length === 0)
      await new Promise((r) => setTimeout(r, 10));
    await rm(gate);
    // The gate opens only once the model has called the cached tool: the call had to wait for the server.
    const started = await start(
      home,
      servers,
      [{ toolCalls: [{ name: 'cached__pong', args: {} }] }, { text: 'done' }],
      (event) => {
        if (event.type === 'tool_call') void writeFile(gate, '');
      },
    );
    await runOnce(started);
    expect(offeredTools(started.s.requests[0]!)).toEqual(
      expect.arrayContaining(['cached__ping', 'cached__pong']),
    );
    expect(started.events.some((e) => e.type === 'status')).toBe(false);
    expect(toolMessages(started.s.requests[1]!.body).at(-1)).toBe('pong from gated');
    expect(warnings(started.events)).toEqual([]);
  });

  it('keeps the tool list byte-stable when a cached server turns live (the prefix stays cacheable)', async () => {
    const home = await workspace();
    const gate = join(home, 'open');
    const cached = { cached: gated(gate, 'ping') };
    await writeFile(gate, '');
    await runOnce(await start(home, cached, [{ text: 'first' }]));
    const cacheDir = join(home, 'cache', 'keel', 'mcp-tools');
    while (!existsSync(cacheDir) || (await readdir(cacheDir)).length === 0)
      await new Promise((r) => setTimeout(r, 10));
    await rm(gate);
    // A new server (waited for) joins after the cached one; the cached one is live only once the model called it.
    const other = join(home, 'other');
    await writeFile(other, '');
    const started = await start(
      home,
      { ...cached, fresh: gated(other, 'pong') },
      [{ toolCalls: [{ name: 'cached__ping', args: {} }] }, { text: 'done' }],
      (event) => {
        if (event.type === 'tool_call') void writeFile(gate, '');
      },
    );
    await runOnce(started);
    const [first, second] = started.s.requests;
    expect(offeredTools(first!)).toEqual(expect.arrayContaining(['cached__ping', 'fresh__pong']));
    expect(JSON.stringify(second!.body.tools)).toBe(JSON.stringify(first!.body.tools));
  });
});
