// The tool contract: name, model-facing description, zod input schema, safety level, execute(args, ctx).
import type { z } from 'zod';
import type { EventSink } from '../core/events.js';
import type { Policy } from '../safety/policy.js';
import type { Workspace } from '../safety/workspace.js';

export type SafetyLevel = 'safe' | 'caution' | 'dangerous';

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
  /** Cap on any tool result's output, in bytes (agent.tools.max_output_size). */
  maxOutputSize: number;
  /** Largest file read_file will read, in bytes (agent.tools.max_file_read_size). */
  maxFileReadSize: number;
  /** execute_command timeout in milliseconds (agent.terminal.timeout_seconds). */
  commandTimeoutMs: number;
  maxStdoutBytes: number;
  maxStderrBytes: number;
}

export interface ToolContext {
  workspace: Workspace;
  policy: Policy;
  signal: AbortSignal;
  emit: EventSink;
  limits: ToolLimits;
  /** Asked when the policy says "ask"; absent in headless runs, where "ask" means "deny". */
  approve?: (request: { id: string; name: string; summary: string; reason: string }) => Promise<boolean>;
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  schema: S;
  safety: SafetyLevel;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

export function ok(output: string, metadata: ToolMetadata = {}, display?: string): ToolResult {
  return { success: true, output, truncated: false, metadata, display };
}

export function fail(error: string, metadata: ToolMetadata = {}): ToolResult {
  return { success: false, output: '', error, truncated: false, metadata };
}
