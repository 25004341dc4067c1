// MCP test helpers: the reference servers' entry points, a config file naming servers, and model scripts that
// wait (turn by turn) until a server's tools are offered, since servers start in the background.

import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import type { ReceivedRequest, ScriptedReply, ScriptStep } from './model-server.js';

const modules = resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol');
export const everythingEntry = join(modules, 'server-everything/dist/index.js');
export const filesystemEntry = join(modules, 'server-filesystem/dist/index.js');
export const fixture = (name: string) => resolve(import.meta.dirname, '../fixtures/mcp', name);

/** Writes a config file with these `mcp.servers`; returns its path (pass it with --config). */
export async function mcpConfig(dir: string, servers: Record<string, unknown>): Promise<string> {
  const file = join(dir, 'keel-config.yaml');
  await writeFile(file, stringify({ mcp: { servers } }));
  return file;
}

/** The tool names a chat request offers (Ollama and OpenAI wire formats). */
export function offeredTools(request: ReceivedRequest): string[] {
  const tools = (request.body?.tools ?? []) as { function?: { name: string }; name?: string }[];
  return tools.map((tool) => tool.function?.name ?? tool.name ?? '');
}

/**
 * A script that answers with `steps` in order, but only once `tool` is offered: until then each turn lists the
 * workspace after a short wait. `polls` counts those waiting turns.
 */
export function whenOffered(tool: string, steps: ScriptStep[], state = { polls: 0 }): ScriptStep[] {
  let next = 0;
  const step = async (request: ReceivedRequest): Promise<ScriptedReply> => {
    if (next === 0 && !offeredTools(request).includes(tool)) {
      state.polls += 1;
      return { delayMs: 100, toolCalls: [{ name: 'list_files', args: { path: '.' } }] };
    }
    const reply = steps[next++] ?? { text: 'script over' };
    return typeof reply === 'function' ? reply(request) : reply;
  };
  return Array.from({ length: 80 + steps.length }, () => step);
}

/** A free loopback port for an HTTP server the test starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Resolves once keel's stderr shows `pattern`: pass `onSpawn` to runKeel, await `seen` in a script step. */
export function stderrWatch(pattern: RegExp): {
  onSpawn: (child: ChildProcess) => void;
  seen: Promise<void>;
} {
  let resolveSeen = () => {};
  const seen = new Promise<void>((resolveIt) => {
    resolveSeen = resolveIt;
  });
  let text = '';
  return {
    seen,
    onSpawn: (child) =>
      child.stderr?.on('data', (chunk: Buffer | string) => {
        text += chunk.toString();
        if (pattern.test(text)) resolveSeen();
      }),
  };
}
