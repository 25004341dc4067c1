// The tool contract: name, model-facing description, input schema (zod, or JSON Schema for tools defined
// outside TypeScript), safety level, an optional preview of what a call will do, and execute(args, ctx).
import { z } from 'zod';
import type { Approve, ToolPreview } from '../core/approval.js';
import type { AgentEvent } from '../core/events.js';
import type { CommandRunner } from '../core/runner.js';
import type { SafetyLevel } from '../core/safety-level.js';
import type { TodoBoard } from '../core/todo-board.js';
import type { ApprovalMemory } from '../safety/approval-memory.js';
import type { Policy } from '../safety/policy.js';
import type { Tripwire } from '../safety/tripwire.js';
import type { Workspace } from '../safety/workspace.js';

export type { ToolPreview } from '../core/approval.js';

export type { SafetyLevel } from '../core/safety-level.js';

export type ToolMetadata = Record<string, string | number | boolean>;

export interface ToolResult {
  success: boolean;
  /** What the model reads. */
  output: string;
  error?: string;
  truncated: boolean;
  metadata: ToolMetadata;
  /** What the user sees, when it differs from the output (a diff, a one-line summary). */
  display?: string;
}

export interface ToolLimits {
  /** Cap on what the model reads of one result, in bytes: agent.tools.max_output_size or less for small windows. */
  maxOutputSize: number;
  /** Largest file read_file will read, in bytes (agent.tools.max_file_read_size). */
  maxFileReadSize: number;
  /** execute_command timeout in milliseconds (agent.terminal.timeout_seconds); a call may only shorten it. */
  commandTimeoutMs: number;
  maxStdoutBytes: number;
  maxStderrBytes: number;
}

export interface ToolContext {
  workspace: Workspace;
  policy: Policy;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
  limits: ToolLimits;
  /** Runs shell commands: the plain process runner, or a sandbox. */
  runner: CommandRunner;
  /** Asked when the policy says "ask"; absent in headless runs, where "ask" means "deny". */
  approve?: Approve;
  /** The session's "always" answers, checked before asking; absent: every "ask" is asked. */
  approvals?: ApprovalMemory;
  /** --dry-run: calls that change anything report what they would do instead of running. */
  dryRun?: boolean;
  /** Called before a call that may change the workspace runs (after approval): where a checkpoint is taken. */
  beforeChange?: (change: {
    callId: string;
    tool: string;
    preview: ToolPreview;
  }) => Promise<void | (() => Promise<void>)>;
  /** Records the protected files before a call that may write and puts back what it changed; absent: off. */
  tripwire?: Tripwire;
  /** Keel's state directory (write_file journals its temp files there); absent in some tests. */
  stateDir?: string;
  /** Keel's cache directory (code intelligence keeps parsed tags there); absent: nothing is cached. */
  cacheDir?: string;
  /** The conversation's text so far (user and assistant messages, tool arguments): the repo map favours what it names. */
  conversationText?: () => string;
  /** Keeps a result too large for the model in full; returns the file's path. Absent: the rest is dropped. */
  saveOutput?: (callId: string, text: string) => Promise<string>;
  /** The session's todo list, which todo_write replaces; absent: todo_write says it is unavailable. */
  todos?: TodoBoard;
  /** The user's pre_tool and post_tool hooks (config `hooks`); absent: none configured. */
  hooks?: ToolHooks;
}

/** A tool call as hooks see it. */
export interface HookedCall {
  id: string;
  tool: string;
  args: unknown;
}

export interface ToolHooks {
  /** Before a call runs, once the policy and any approval let it: a hook's reason when one blocks it. */
  beforeTool(call: HookedCall, signal: AbortSignal): Promise<string | undefined>;
  /** After a call ran, with its result; a hook's failure is only a warning. */
  afterTool(call: HookedCall, result: ToolResult, signal: AbortSignal): Promise<void>;
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  /** Validates the arguments; for tools defined by JSON Schema, a zod schema converted from it. */
  schema: S;
  /** The JSON Schema offered to the model when the tool was defined by one (MCP, config); else made from `schema`. */
  jsonSchema?: Record<string, unknown>;
  safety: SafetyLevel;
  /** What a call will do, before it runs: paths, command, diff. Tools without one preview as their name. */
  preview?(args: z.infer<S>, ctx: ToolContext): Promise<ToolPreview>;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

type JsonArgs = Record<string, unknown>;

/**
 * A tool whose input is described by JSON Schema (MCP servers, tools defined in config). The schema is offered to
 * the model as given and converted to zod for validation; constructs zod cannot convert (remote $refs, unusual
 * keywords) fall back to "any object", leaving the finer checks to the tool.
 */
export function defineJsonSchemaTool(
  tool: Omit<Tool<z.ZodType<JsonArgs>>, 'schema' | 'jsonSchema'> & { inputSchema: Record<string, unknown> },
): Tool<z.ZodType<JsonArgs>> {
  const { inputSchema, ...rest } = tool;
  let schema: z.ZodType<JsonArgs>;
  try {
    schema = z.fromJSONSchema(inputSchema) as z.ZodType<JsonArgs>;
  } catch {
    schema = z.record(z.string(), z.unknown());
  }
  return { ...rest, schema, jsonSchema: inputSchema };
}

/** The preview of a read-only call on one path: what it reads, nothing it writes; `describe` gets the shown path. */
export async function readPreview(
  ctx: ToolContext,
  requested: string,
  describe: (shown: string) => string,
): Promise<ToolPreview> {
  const absolute = await ctx.workspace.resolveForRead(requested);
  return { reads: [absolute], writes: [], summary: describe(ctx.workspace.relative(absolute)) };
}

export function ok(output: string, metadata: ToolMetadata = {}, display?: string): ToolResult {
  return { success: true, output, truncated: false, metadata, display };
}

export function fail(error: string, metadata: ToolMetadata = {}): ToolResult {
  return { success: false, output: '', error, truncated: false, metadata };
}
