// The tool contract: name, model-facing description, input schema (zod, or JSON Schema for tools defined
// outside TypeScript), safety level, an optional preview of what a call will do, and execute(args, ctx).
import path from 'node:path';
import * as z from 'zod';
import type { LanguageServices } from '../code/language/service.js';
import type { ToolPreview } from '../core/approval.js';
import type { AskUser } from '../core/ask-user.js';
import type { AgentEvent } from '../core/events.js';
import type { FileAccess } from '../core/file-access.js';
import type { ImagePart } from '../core/messages.js';
import type { CommandRunner } from '../core/runner.js';
import type { SafetyLevel } from '../core/safety-level.js';
import type { Subagents } from '../core/subagents.js';
import type { TodoBoard } from '../core/todo-board.js';
import type { HostLookup } from '../safety/network.js';
import { isSecretFileName } from '../safety/secret-files.js';
import type { Workspace } from '../safety/workspace.js';
import type { LineIndexes } from './line-index.js';

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
  /** Images for the model (read_file on an image, an MCP tool's image content); a model without vision gets `output` only. */
  images?: ImagePart[];
  /** Sources the answer may cite (web_search's results): listed under the answer. */
  citations?: { url: string; title?: string }[];
}

export interface ToolLimits {
  /** Cap on what the model reads of one result, in bytes: agent.tools.max_output_size or less for small windows. */
  maxOutputSize: number;
  /** Cap on what the model reads of one turn's results together, in bytes; absent: each result's cap only. */
  maxTurnOutputSize?: number;
  /** Largest file read_file will read, in bytes (agent.tools.max_file_read_size). */
  maxFileReadSize: number;
  /** execute_command timeout in milliseconds (agent.terminal.timeout_seconds); a call may only shorten it. */
  commandTimeoutMs: number;
  maxStdoutBytes: number;
  maxStderrBytes: number;
  /** How long file tools wait for the errors a change introduced before skipping them (default 2000 ms). */
  diagnosticsMs?: number;
}

/** A configured search API (web.search), its key looked up only when a search runs. */
export interface SearchEndpoint {
  provider: 'brave' | 'tavily' | 'searxng';
  url: string;
  apiKey: () => Promise<string | undefined>;
}

/** What the web tools may reach (safety.web, web.search). */
export interface WebAccess {
  /** safety.web.allow_private: loopback, link-local and private addresses too. */
  allowPrivate: boolean;
  /** How host names resolve; default: the system's (tests inject one). */
  lookup?: HostLookup;
  /** Why an address is not public; default: the ranges of safety/network.ts (tests call loopback public). */
  classify?: (address: string) => string | undefined;
  /** Where web_search searches; absent: the tool is not offered. */
  search?: SearchEndpoint;
  /** The run's provider's own web search, used when no endpoint is configured. */
  native?: NativeSearch;
}

/** A provider's web search: its API's URL (judged by the policy) and a search returning its answer and sources. */
export interface NativeSearch {
  provider: string;
  url: string;
  search(
    query: string,
    maxResults: number,
    signal: AbortSignal,
  ): Promise<{ text: string; sources: { url: string; title?: string }[] }>;
}

/** What a tool sees of the run: its workspace, signal, runner, limits and event sink. The policy, approvals,
 * checkpoints and hooks around a call are the executor's (ExecutorContext in executor.ts), never a tool's. */
export interface ToolContext {
  workspace: Workspace;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
  limits: ToolLimits;
  /** Runs shell commands: the plain process runner, or a sandbox. */
  runner: CommandRunner;
  /** Keel's state directory (write_file journals its temp files there); absent in some tests. */
  stateDir?: string;
  /** Keel's cache directory (code intelligence keeps parsed tags there); absent: nothing is cached. */
  cacheDir?: string;
  /** The conversation's text so far (user and assistant messages, tool arguments): the repo map favours what it names. */
  conversationText?: () => string;
  /** The session's todo list, which todo_write replaces; absent: todo_write says it is unavailable. */
  todos?: TodoBoard;
  /** The run's language services, each started when a tool first needs it; absent: name-based code tools only. */
  languages?: LanguageServices;
  /** false (code.diagnostics): file tools do not report the errors a change introduced. */
  diagnostics?: boolean;
  /** Puts ask_user's question to the user (the chat, an editor); absent: nobody to ask (headless). */
  askUser?: AskUser;
  /** What web_fetch and web_search may reach; absent: they say web access is unavailable. */
  web?: WebAccess;
  /** The run's model condenses a text as `prompt` asks, in one request without tools (web_fetch's prompt). */
  condense?: (text: string, prompt: string, signal: AbortSignal) => Promise<string>;
  /**
   * Set by the executor for each call: asks the policy (and the user, where it asks) about one more URL the call
   * reaches, a redirect. Undefined lets it; a string is why not.
   */
  authorizeUrl?: (url: string) => Promise<string | undefined>;
  /** Set by the executor for each call: keeps a long text (a whole page) with the saved outputs; its path. */
  saveText?: (text: string) => Promise<string>;
  /** An editor's view of the files (keel acp): reads see unsaved buffers, writes go through it. Absent: the disk. */
  files?: FileAccess;
  /** The id of the call being run (set by the executor as the tool executes). */
  callId?: string;
  /** Sub-agents the `task` tool runs (the runtime's); absent: no task can start here. */
  subagents?: Subagents;
  /** The run's line indexes of big files, so read_file pages through one without rescanning; absent: none kept. */
  lineIndexes?: LineIndexes;
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
  // A link named as a secret file (`.env -> settings.txt`) is judged by its name too, as `cat .env` is.
  const named = path.resolve(ctx.workspace.root, requested);
  const reads = named !== absolute && isSecretFileName(path.basename(named)) ? [absolute, named] : [absolute];
  return { reads, writes: [], summary: describe(ctx.workspace.relative(absolute)) };
}

export function ok(output: string, metadata: ToolMetadata = {}, display?: string): ToolResult {
  return { success: true, output, truncated: false, metadata, display };
}

export function fail(error: string, metadata: ToolMetadata = {}): ToolResult {
  return { success: false, output: '', error, truncated: false, metadata };
}
