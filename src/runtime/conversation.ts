// A run's conversation: the system prompt (rebuilt after compaction, so context files edited since start-up are
// read again), the budget it is kept within, and a resumed session's messages exactly as the model read them.
import { type CompactorOptions, compact } from '../agent/compaction.js';
import type { AutoCompaction } from '../agent/context-budget.js';
import { findContextFiles } from '../agent/context-files.js';
import { Conversation } from '../agent/conversation.js';
import { systemPrompt } from '../agent/system-prompt.js';
import { userContextFilePath } from '../config/paths.js';
import type { KeelConfig } from '../config/schema.js';
import { type AgentEvent, messageEvent } from '../core/events.js';
import { emptyUsage, type Message } from '../core/messages.js';
import type { ModelCapabilities } from '../core/model.js';
import { promptBudget } from '../providers/capabilities.js';
import { carryOver, carryOverNote } from '../providers/carry-over.js';
import { type ExecutionMode, ruleSources } from '../safety/policy.js';
import { createReadJail } from '../safety/read-jail.js';
import { type CommandRule, parseRules } from '../safety/user-rules.js';
import { resumedConversation } from '../session/resume.js';
import type { SessionRecord } from '../session/session-file.js';

/** The conversation's token budget: the configured one, or less when the model's window is smaller. */
export function conversationBudget(config: KeelConfig, capabilities: ModelCapabilities | undefined): number {
  return Math.min(
    config.agent.conversation.max_tokens,
    promptBudget(capabilities) ?? Number.POSITIVE_INFINITY,
  );
}

export interface PromptOptions {
  config: KeelConfig;
  workspace: string;
  mode: ExecutionMode;
  allow?: readonly string[];
  sandboxed: boolean;
  dryRun: boolean;
  env: NodeJS.ProcessEnv;
  /** Replaces the coding agent's prompt (keel init, keel ask). */
  replacement?: string;
  /** Follows the coding agent's prompt (an agent file's body, for keel run --agent). */
  addition?: string;
  /** Told once of each context file the read jail skips. */
  warn?: (message: string) => void;
}

/** Builds the system prompt; called again after each compaction. */
export function promptBuilder(options: PromptOptions): () => Promise<string> {
  const { config } = options;
  const sandbox = options.sandboxed ? { network: config.safety.sandbox_network } : undefined;
  // Context files go through the read jail; a skipped one is named once per run, not at each compaction.
  const jail = createReadJail(options.env);
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (!warned.has(message)) options.warn?.(message);
    warned.add(message);
  };
  const added = (prompt: string) => (options.addition ? `${prompt}\n\n${options.addition}` : prompt);
  // Parsed once, when first needed (setup has already checked them: a bad rule never gets this far).
  let parsed: Promise<CommandRule[]> | undefined;
  const rules = () => {
    parsed ??= parseRules(ruleSources({ config, allow: options.allow }));
    return parsed;
  };
  return async () =>
    options.replacement ??
    added(
      systemPrompt({
        workspace: options.workspace,
        mode: options.mode,
        commands: config.safety.allow_command_execution,
        rules: await rules(),
        sandbox,
        dryRun: options.dryRun,
        contextFiles: await findContextFiles({
          workspace: options.workspace,
          userFile: userContextFilePath(options.env),
          jail,
          warn,
        }),
      }),
    );
}

export function openConversation(
  prompt: string,
  config: KeelConfig,
  maxTokens: number,
  resumed: SessionRecord | undefined,
): Conversation {
  const conversation = new Conversation(prompt, {
    maxTokens,
    minRetainTurns: config.agent.conversation.min_retain_turns,
    pruneThreshold: config.agent.conversation.prune_threshold,
  });
  if (resumed) {
    // The model reads the saved conversation exactly as before; calls a crash left unanswered get a result.
    const { messages, repairs } = resumedConversation(resumed);
    conversation.restore(messages);
    for (const message of repairs) conversation.push(message);
  }
  return conversation;
}

/**
 * What the user and the model said and the values of the model's tool-call arguments: files and names they mention.
 * Not the arguments' keys, nor the code tool's action: `{"action": …, "path": …}` mentions no file defining `action`.
 */
export function conversationText(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const m of messages) {
    if (m.role === 'user') parts.push(m.content);
    if (m.role === 'assistant')
      parts.push(m.content, ...(m.toolCalls ?? []).map((c) => argumentText(c.input)));
  }
  return parts.join('\n');
}

/** The string and number leaves of a call's JSON arguments (the text itself when it is no JSON). */
function argumentText(input: string): string {
  let args: unknown;
  try {
    args = JSON.parse(input);
  } catch {
    return input;
  }
  const leaves: string[] = [];
  const walk = (value: unknown, key?: string): void => {
    if (typeof value === 'string') {
      if (key !== 'action') leaves.push(value);
    } else if (typeof value === 'number') leaves.push(String(value));
    else if (Array.isArray(value)) for (const item of value) walk(item);
    else if (typeof value === 'object' && value !== null)
      for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(args);
  return leaves.join('\n');
}

/**
 * A conversation another provider wrote, made readable by `to` (tool call ids, provider signatures): the edit is
 * recorded so a resumed session continues converted, and the user is told what changed.
 */
export function carryConversation(
  conversation: Conversation,
  from: string,
  to: string,
  emit: (event: AgentEvent) => void,
): void {
  if (from === to) return;
  const carried = carryOver(conversation.messages);
  const note = carryOverNote(from, to, carried);
  if (note === undefined) return;
  const edit = conversation.replaceAll(carried.messages);
  emit({
    type: 'conversation_edited',
    reason: 'carry',
    edits: [{ ...edit, messages: edit.messages.map(messageEvent) }],
  });
  emit({ type: 'warning', message: note });
}

/**
 * The loop's automatic compaction near `agent.conversation.compact_at`, or none under `auto_compact: false`: the same
 * for a run and for each of its sub-agents (whose `compaction` events carry their task's id).
 */
export function autoCompaction(config: KeelConfig, compactor: CompactorOptions): AutoCompaction | undefined {
  const { auto_compact, compact_at } = config.agent.conversation;
  if (!auto_compact) return undefined;
  return {
    threshold: compact_at,
    compact: async (turn, signal) =>
      (await compact(compactor, { trigger: 'auto', turn, signal }))?.usage ?? emptyUsage(),
  };
}
