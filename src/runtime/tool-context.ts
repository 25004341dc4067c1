// What a tool sees of a run, built in this one place for every entry point: the workspace, the runner, its limits
// (the output cap among them), the state and cache dirs, the todo board, web access and the model condensing a page,
// and one call's signal and event sink.
import { LanguageServices } from '../code/language/service.js';
import type { KeelConfig } from '../config/schema.js';
import type { AskUser } from '../core/ask-user.js';
import type { AgentEvent } from '../core/events.js';
import type { FileAccess } from '../core/file-access.js';
import type { CommandRunner } from '../core/runner.js';
import type { Subagents } from '../core/subagents.js';
import type { TodoBoard } from '../core/todo-board.js';
import type { Workspace } from '../safety/workspace.js';
import { LineIndexes } from '../tools/line-index.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolContext, ToolLimits, WebAccess } from '../tools/tool.js';

/** What the model reads of one tool result at most: an eighth of the conversation budget (4 bytes a token), never more than configured. */
export function outputCap(configured: number, budgetTokens: number): number {
  return Math.min(configured, Math.max(4096, Math.floor(budgetTokens / 8) * 4));
}

/**
 * What the model reads of one turn's results together: a quarter of the conversation budget (two results at the cap
 * above), never less than one result's cap. The rest is the system prompt's, the tools' and the earlier turns'.
 */
export function turnOutputCap(resultCap: number, budgetTokens: number): number {
  return Math.max(resultCap, Math.floor(budgetTokens / 4) * 4);
}

/** The tools' limits from config; `budgetTokens`: the conversation's budget (smaller when the model's window is). */
export function toolLimits(config: KeelConfig, budgetTokens: number): ToolLimits {
  const maxOutputSize = outputCap(config.agent.tools.max_output_size, budgetTokens);
  return {
    maxOutputSize,
    maxTurnOutputSize: turnOutputCap(maxOutputSize, budgetTokens),
    maxFileReadSize: config.agent.tools.max_file_read_size,
    commandTimeoutMs: config.agent.terminal.timeout_seconds * 1000,
    maxStdoutBytes: config.agent.terminal.max_stdout_bytes,
    maxStderrBytes: config.agent.terminal.max_stderr_bytes,
    diagnosticsMs: config.code.diagnostics_timeout_seconds * 1000,
  };
}

/** The run's side of every tool context. */
export interface ToolContextParts {
  workspace: Workspace;
  runner: CommandRunner;
  limits: ToolLimits;
  /** The run's event sink; a call run concurrently gets its own (see ContextFor). */
  emit: (event: AgentEvent) => void;
  stateDir?: string;
  cacheDir?: string;
  todos?: TodoBoard;
  conversationText?: () => string;
  languages?: LanguageServices;
  diagnostics?: boolean;
  /** The entry point's way to ask the user (the chat's prompt); absent headless. */
  askUser?: AskUser;
  /** What web_fetch and web_search may reach (runtime/web.ts). */
  web?: WebAccess;
  /** The run's model condensing a page for web_fetch's prompt; absent without a model (keel mcp serve). */
  condense?: ToolContext['condense'];
  /** An editor's view of the files (keel acp); absent: the disk. */
  files?: FileAccess;
  /** What the task tool runs; absent: no sub-agents (tool hosts, or beyond the depth limit). */
  subagents?: Subagents;
}

/**
 * The run's language services: nothing starts here, each service on the first file a tool asks about; the
 * factories' modules (TypeScript's service, the language servers' table) load then too.
 */
export function runLanguages(root: string, config: KeelConfig, registry?: ToolRegistry): LanguageServices {
  const languages = new LanguageServices(root, async () =>
    (await import('../code/language/factories.js')).languageServiceFactories(config),
  );
  // A run that can edit files and checks its changes loads a file's service when it reads the file.
  if (config.code.diagnostics && registry?.list().some((tool) => EDITING.has(tool.name)))
    languages.warmOnRead();
  return languages;
}

/** The file tools whose changes are checked: a run offering one is a run that edits. */
const EDITING = new Set(['edit_file', 'write_file']);

/** One call's context: its abort signal, and the sink of a call whose events are held back (a concurrent one). */
export type ContextFor = (signal: AbortSignal, emit?: (event: AgentEvent) => void) => ToolContext;

export function toolContexts(parts: ToolContextParts): ContextFor {
  const { emit: runEmit, ...rest } = parts;
  // One run's line indexes: read_file pages through a big file without rescanning it.
  const lineIndexes = new LineIndexes();
  return (signal, emit = runEmit) => ({ ...rest, signal, emit, lineIndexes });
}
