// A stdio server's process started at launch, before the MCP SDK loads: the same environment the SDK would give
// it, adopted by its connection, and ended with the run.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it, vi } from 'vitest';
import { mcpServerSchema } from '../../src/config/mcp-schema.js';
import { inheritedEnvironment, KILL_GRACE_MS } from '../../src/mcp/server-process.js';
import { startMcpServers } from '../../src/mcp/start.js';
import { createRegistry } from '../../src/tools/registry.js';
import { useE2E } from '../support/e2e.js';
import { fixture } from '../support/mcp.js';
import { processesWith } from '../support/processes.js';

const { workspace } = useE2E();

describe('stdio server processes', () => {
  it("inherit the MCP SDK's variables, and only those, with shell functions left out", () => {
    const env: NodeJS.ProcessEnv = { KEEL_API_KEY: 'secret', OTHER: 'x' };
    for (const name of DEFAULT_INHERITED_ENV_VARS) env[name] = `value of ${name}`;
    env.SHELL = '() { evil; }';
    const expected = Object.fromEntries(
      DEFAULT_INHERITED_ENV_VARS.filter((name) => name !== 'SHELL').map((name) => [name, `value of ${name}`]),
    );
    expect(inheritedEnvironment(env)).toEqual(expected);
  });

  it('started at launch, are adopted by their connection (one process each) and gone after close', async () => {
    const home = await workspace();
    const gate = join(home, 'open');
    const pidFile = join(home, 'server.pid');
    const registry = createRegistry([]);
    const warnings: string[] = [];
    const servers = startMcpServers({
      servers: {
        quick: mcpServerSchema.parse({
          command: process.execPath,
          args: [fixture('gated-server.mjs'), '--gate', gate, '--pid', pidFile],
        }),
      },
      registry,
      env: process.env,
      workspace: home,
      warn: (message) => warnings.push(message),
    });
    try {
      await writeFile(gate, '');
      await servers?.ready(new AbortController().signal, () => {});
      expect(registry.get('quick__ping')).toBeDefined();
      expect(warnings).toEqual([]);
      // The connection adopted the process started at launch: one per server.
      expect(processesWith(pidFile)).toHaveLength(1);
    } finally {
      await servers?.close();
    }
    // Ended with SIGTERM and not awaited: it goes soon after.
    await gone(Number(await readFile(pidFile, 'utf8')));
  });

  it("inherit the run's environment, not Keel's process's (the library's env option)", async () => {
    const home = await workspace();
    const seen = join(home, 'seen');
    const script = `require('fs').writeFileSync(${JSON.stringify(seen)}, String(process.env.HOME)); setInterval(() => {}, 1000);`;
    const servers = startMcpServers({
      servers: { env: mcpServerSchema.parse({ command: process.execPath, args: ['-e', script] }) },
      registry: createRegistry([]),
      env: { PATH: process.env.PATH, HOME: join(home, 'the-runs-home') },
      workspace: home,
      warn: () => {},
    });
    try {
      let written = '';
      while (!written) {
        written = await readFile(seen, 'utf8').catch(() => '');
        if (!written) await tick();
      }
      expect(written).toBe(join(home, 'the-runs-home'));
    } finally {
      await servers?.close();
    }
  });

  it('that ignore SIGTERM get SIGKILL after a grace period, in a process that outlives the run', async () => {
    const home = await workspace();
    const pidFile = join(home, 'stubborn.pid');
    const servers = startMcpServers({
      servers: {
        stubborn: mcpServerSchema.parse({
          command: process.execPath,
          args: [fixture('gated-server.mjs'), '--stubborn', '--pid', pidFile],
        }),
      },
      registry: createRegistry([]),
      env: process.env,
      workspace: home,
      warn: () => {},
    });
    // It never answers (a hung server): once it has started, the run ends.
    let pid = 0;
    while (!pid) pid = Number(await readFile(pidFile, 'utf8').catch(() => '')) || (await tick());
    // The grace period passes on a fake clock: the SIGKILL timer is set as the servers close.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      await servers?.close();
      // Still there just after SIGTERM (it ignores it), gone once the grace period is over.
      expect(() => process.kill(pid, 0)).not.toThrow();
      vi.advanceTimersByTime(KILL_GRACE_MS);
    } finally {
      vi.useRealTimers();
    }
    await gone(pid);
  });
});

const tick = () => new Promise<0>((resolve) => setTimeout(() => resolve(0), 20));

/** Resolves once the process is gone (the test's timeout fails it otherwise). */
async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await tick();
  }
}
