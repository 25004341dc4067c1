// The library API's public shapes (`import { createAgent } from 'keel'`): type-only, so the build makes the package's
// .d.ts from this file and the few core files it names, and agent.ts is checked against `CreateAgent`.
import type { ApprovalAnswer } from '../core/approval.js';
import type { AgentEvent, RunEndReason, UsageCounts } from '../core/events.js';
import type { SafetyLevel } from '../core/safety-level.js';
import type { ExecutionMode } from '../safety/modes.js';

export type { AgentEvent, ApprovalAnswer, ExecutionMode, RunEndReason, SafetyLevel, UsageCounts };

/** A tool call the policy asks about, as `canUseTool` sees it. */
export interface ToolUse {
  /** The call's id (the `id` of its `tool_call` and `approval_requested` events). */
  id: string;
  name: string;
  /** The arguments the model gave, validated. */
  args: unknown;
  /** Why the policy asks. */
  reason: string;
  /** One line: the command, or the tool and its main argument. */
  summary: string;
  command?: string;
  /** The unified diff of a file change. */
  diff?: string;
  /** Absolute paths the call reads and writes. */
  reads: string[];
  writes: string[];
}

/**
 * The answer to a ToolUse: `allow` (this call), `always` (calls like it, for the rest of this agent), `deny`, or one
 * of the terminal's answers as an object (`{ decision: 'deny', feedback }` tells the model why).
 */
export type ToolUseAnswer = 'allow' | 'always' | 'deny' | ApprovalAnswer;

export type CanUseTool = (
  call: ToolUse,
  options: { signal: AbortSignal },
) => ToolUseAnswer | Promise<ToolUseAnswer>;

/** A zod schema (zod 4), recognised by its `safeParse`. */
export interface ZodLike {
  safeParse(value: unknown): { success: boolean };
}

/** What a custom tool's `run` returns: its output as text, or text marked as a failure the model reads. */
export type CustomToolOutput = string | { output: string; isError?: boolean };

/** A tool of the caller's own: its calls go through Keel's executor (policy, approval, audit log, output cap). */
export interface CustomTool {
  /** Letters, digits, `_` and `-`; not a built-in tool's name. */
  name: string;
  /** What the model reads to decide when to call it: keep it short. */
  description: string;
  /** The arguments, as JSON Schema (an object schema) or a zod schema. */
  parameters: Record<string, unknown> | ZodLike;
  /**
   * `safe`: only reads (runs in every mode); `caution` (default) and `dangerous`: may change things, so the
   * interactive mode asks `canUseTool` first, while restricted, auto and full run it.
   */
  safety?: SafetyLevel;
  // biome-ignore lint/suspicious/noExplicitAny: the arguments are the caller's own shape, validated by `parameters`.
  run(args: any, context: { signal: AbortSignal; cwd: string }): CustomToolOutput | Promise<CustomToolOutput>;
}

export interface AgentOptions {
  /** The workspace: every path the agent touches stays inside it. Default: process.cwd(). */
  cwd?: string;
  /** ollama, openai-compatible, copilot, gemini, openrouter, anthropic, openai, replay; default: the config's. */
  provider?: string;
  model?: string;
  /** The provider's endpoint, in place of the configured one. */
  baseUrl?: string;
  /** Default: agent.terminal.default_mode, else `restricted` (`interactive` asks canUseTool about every change). */
  mode?: ExecutionMode;
  /** A config file (YAML) in place of the user's; the workspace's `.keel.yaml` still applies as for the CLI. */
  config?: string;
  /** Tools added to the built-in ones. */
  tools?: CustomTool[];
  /** Answers what the policy asks about; absent, the agent is headless and every "ask" is a "deny". */
  canUseTool?: CanUseTool;
  /**
   * Answers the model's questions (the ask_user tool): an option's text or any answer. Absent, the model is told
   * no user is available and chooses itself.
   */
  askUser?: (
    question: { question: string; options?: string[] },
    context: { signal: AbortSignal },
  ) => Promise<string>;
  /** Take up the saved session with this id (or a prefix of it) instead of starting one. */
  resume?: string;
  /** false: do not save the session (it cannot be resumed). Default: saved, as the CLI does. */
  session?: boolean;
  /** Model turns per run() before it stops with `turn-limit`. */
  maxTurns?: number;
  /** Allow rules for commands, as `keel run --allow`. */
  allow?: string[];
  /** Run shell commands in the bubblewrap sandbox (true) or not (false); default: the config's, else the mode's. */
  sandbox?: boolean;
  /** The environment Keel reads credentials and its directories from, and commands inherit. Default: process.env. */
  env?: Record<string, string | undefined>;
}

/** How a run() ended: the fields of its `run_end` event, plus the session it is saved in. */
export interface RunResult {
  reason: RunEndReason;
  answer: string;
  turns: number;
  toolCalls: number;
  usage: UsageCounts & { cost_usd?: number };
  /** Resume it later with `createAgent({ resume: sessionId })`; absent when the session is not saved. */
  sessionId?: string;
  /** Why it failed, when reason is `failed`. */
  error?: { code: string; message: string; hint?: string };
}

export interface RunOptions {
  /** Aborting it interrupts the run: it ends with reason `interrupted`, and the conversation can go on. */
  signal?: AbortSignal;
}

export interface Agent {
  /**
   * Sends `prompt` as the user's next message and runs until the answer: every AgentEvent the CLI renders, the
   * last one `run_end`; the generator returns the RunResult. Successive runs continue the same conversation; one
   * at a time. Leaving the loop early interrupts the run.
   */
  run(prompt: string, options?: RunOptions): AsyncGenerator<AgentEvent, RunResult, undefined>;
  /** Continues the saved session `id` from the next run() on (the current one is closed first). */
  resume(id: string): Promise<void>;
  /** The id the conversation is saved under; undefined before the first run() or when not saved. */
  readonly sessionId: string | undefined;
  /** Ends the agent's commands and MCP servers and closes its session; run() then throws until resume(). */
  close(): Promise<void>;
}

export type CreateAgent = (options?: AgentOptions) => Agent;
