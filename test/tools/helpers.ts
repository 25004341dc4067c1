// Test helpers for tools: a real temp workspace, a ToolContext around it and what the executor holds (the policy).
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { AgentEvent } from '../../src/core/events.js';
import { commandEnv, createProcessRunner } from '../../src/exec/process-runner.js';
import { createPolicy, type ExecutionMode } from '../../src/safety/policy.js';
import { secretLinks } from '../../src/safety/secret-links.js';
import { openWorkspace } from '../../src/safety/workspace.js';
import type { ExecutorContext } from '../../src/tools/executor.js';
import type { Tool, ToolContext, ToolLimits, ToolResult } from '../../src/tools/tool.js';

export interface TestWorkspace {
  base: string;
  root: string;
  ctx: ToolContext;
  /** What the executor holds around a call (the policy, and what a test adds: approvals, hooks, dry run…). */
  held: Omit<ExecutorContext, 'registry'>;
  events: AgentEvent[];
  write(rel: string, content: string | Buffer): Promise<void>;
  read(rel: string): Promise<string>;
  cleanup(): Promise<void>;
}

export const testLimits: ToolLimits = {
  maxOutputSize: 1_048_576,
  maxFileReadSize: 1_048_576,
  commandTimeoutMs: 10_000,
  maxStdoutBytes: 1_048_576,
  maxStderrBytes: 1_048_576,
  // Whether the errors after a change are reported must not depend on the machine's speed.
  diagnosticsMs: 60_000,
};

/**
 * A temp dir with a `work` workspace inside it (and room for an `outside` sibling); `home` beside it is the home
 * directory whose secret files (`home/.ssh/id_rsa`) the workspace refuses through hard links, as a run's does.
 */
export async function makeWorkspace(
  options: { mode?: ExecutionMode; limits?: Partial<ToolLimits>; signal?: AbortSignal } = {},
): Promise<TestWorkspace> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-tools-')));
  const root = path.join(base, 'work');
  await fs.mkdir(root);
  const workspace = await openWorkspace(root, [], [], secretLinks(path.join(base, 'home')));
  const events: AgentEvent[] = [];
  const ctx: ToolContext = {
    workspace,
    signal: options.signal ?? new AbortController().signal,
    emit: (event) => events.push(event),
    limits: { ...testLimits, ...options.limits },
    runner: createProcessRunner(commandEnv(process.env)),
  };
  const held = { policy: createPolicy({ mode: options.mode ?? 'full', workspace }) };
  return {
    base,
    root,
    ctx,
    held,
    events,
    async write(rel, content) {
      await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await fs.writeFile(path.join(root, rel), content);
    },
    read: (rel) => fs.readFile(path.join(root, rel), 'utf8'),
    cleanup: () => fs.rm(base, { recursive: true, force: true }),
  };
}

/** A test workspace and `run`: a tool called in it with its arguments parsed as the executor parses them. */
export type ToolWorkspace = TestWorkspace & { run(tool: Tool, args: unknown): Promise<ToolResult> };

/**
 * A fresh workspace for each test of the calling file (made before it, removed after). The object stays the same
 * from test to test; its fields are the current test's.
 */
export function useToolWorkspace(options: Parameters<typeof makeWorkspace>[0] = {}): ToolWorkspace {
  const current = {
    run: (tool: Tool, args: unknown) => tool.execute(tool.schema.parse(args), current.ctx),
  } as ToolWorkspace;
  beforeEach(async () => {
    Object.assign(current, await makeWorkspace(options));
  });
  afterEach(async () => {
    await current.cleanup();
  });
  return current;
}
