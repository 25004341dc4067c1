// LLM evals: each case's first model turn, as the agent would send it (system prompt; the prompt with the intent's
// steering note; the tools a run's first request offers for it, the code tools folded into `code`), at temperature 0;
// the first tool call is scored as the tool it runs (`code` with an action as that tool), never run.
import { join } from 'node:path';
import { unfoldCodeCall } from '../agent/code-tool.js';
import { classifyIntent } from '../agent/intent.js';
import { noteFor, offerOf, withNotes } from '../agent/loop.js';
import { systemPrompt } from '../agent/system-prompt.js';
import { ToolOffer } from '../agent/tool-offer.js';
import { ExitCode, KeelError } from '../core/errors.js';
import type { ToolCall, Usage } from '../core/messages.js';
import type { Model, ToolSpec } from '../core/model.js';
import { copyFixture, type FixtureCopy } from './fixture-workspace.js';
import { type LlmCase, offeredTools } from './llm-cases.js';
import { type LlmCaseResult, outcomeOf, runParameterChecks } from './llm-score.js';

export interface LlmEvalOptions {
  model: Model;
  evalsDir: string;
  repeat: number;
  signal: AbortSignal;
  /** Called after each run, for progress. */
  onResult?: (result: LlmCaseResult) => void;
  /** A warning from the model (a replayed cassette recorded for other cases), to show the user. */
  onWarning?: (message: string) => void;
}

/**
 * What a run's first request carries for `prompt`: the tools its offer selects of `specs` (the code tools folded) and
 * the prompt with the steering note, as the loop makes them (agent/loop.ts).
 */
export function firstTurn(
  prompt: string,
  specs: readonly ToolSpec[],
): { tools: ToolSpec[]; content: string } {
  const offer = new ToolOffer();
  const classified = classifyIntent(prompt);
  offer.message(prompt, classified);
  const tools = offerOf(specs, offer);
  return { tools, content: withNotes(prompt, [noteFor(classified, tools)]) };
}

/**
 * Asks the model for its first move on one case, in the workspace `root` (its fixture's copy), and scores it.
 * `tools`: offeredTools(), made once for all the cases (from source, each tool's schema is converted anew).
 */
export async function runLlmCase(
  c: LlmCase,
  run: number,
  root: string,
  options: Omit<LlmEvalOptions, 'repeat'>,
  tools: ToolSpec[] = offeredTools(),
): Promise<LlmCaseResult> {
  const started = Date.now();
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let call: ToolCall | undefined;
  const base = { id: c.id, intent: c.intent, run, checks: [] };
  try {
    const system = systemPrompt({ workspace: root, mode: 'restricted', commands: true });
    const first = firstTurn(c.prompt, tools);
    for await (const event of options.model.stream({
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: first.content },
      ],
      tools: first.tools,
      signal: options.signal,
      temperature: 0,
    })) {
      if (event.type === 'tool-call') call ??= unfoldCodeCall(event.call);
      else if (event.type === 'usage') {
        usage.inputTokens += event.usage.inputTokens;
        usage.outputTokens += event.usage.outputTokens;
      } else if (event.type === 'warning') {
        options.onWarning?.(event.message);
      } else if (event.type === 'retry') {
        call = undefined;
        usage.inputTokens = 0;
        usage.outputTokens = 0;
      }
    }
  } catch (error) {
    // A provider the user must fix (unreachable, credentials, a model without tools) ends the whole eval.
    if (
      error instanceof KeelError &&
      (error.exitCode === ExitCode.provider || error.exitCode === ExitCode.usage)
    )
      throw error;
    if (options.signal.aborted) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    return { ...base, outcome: 'error', ...tokens(usage), durationMs: Date.now() - started, detail };
  }
  const durationMs = Date.now() - started;
  if (call === undefined) return { ...base, outcome: 'none', ...tokens(usage), durationMs };
  let args: unknown;
  // A `code` call without a known action: scored as `code`, which no case expects, with the reason.
  let detail: string | undefined = call.refused;
  try {
    args = call.input.trim() === '' ? {} : JSON.parse(call.input);
  } catch {
    args = call.input;
    detail = 'the arguments are not valid JSON';
  }
  const outcome = outcomeOf(call.name, c);
  const checks =
    outcome === 'exact' || outcome === 'acceptable'
      ? runParameterChecks(c.parameters, c.expected_tool, call.name, args, root)
      : [];
  const parameterScore =
    checks.length > 0 ? checks.filter((x) => x.passed).length / checks.length : undefined;
  return {
    ...base,
    outcome,
    tool: call.name,
    args,
    checks,
    ...(parameterScore !== undefined ? { parameterScore } : {}),
    ...tokens(usage),
    durationMs,
    ...(detail ? { detail } : {}),
  };
}

const tokens = (usage: Usage) => ({ inputTokens: usage.inputTokens, outputTokens: usage.outputTokens });

/**
 * Every case `repeat` times, one after another. The cases of one fixture share its copy: no call is run, so none
 * changes it.
 */
export async function runLlmEvals(
  cases: readonly LlmCase[],
  options: LlmEvalOptions,
): Promise<LlmCaseResult[]> {
  const copies = new Map<string, Promise<FixtureCopy>>();
  const results: LlmCaseResult[] = [];
  const tools = offeredTools();
  try {
    for (const c of cases) {
      const key = c.fixture ?? '';
      let copy = copies.get(key);
      if (!copy) {
        copy = copyFixture(join(options.evalsDir, 'fixtures'), c.fixture);
        copies.set(key, copy);
      }
      const { root } = await copy;
      for (let run = 1; run <= options.repeat; run += 1) {
        const result = await runLlmCase(c, run, root, options, tools);
        results.push(result);
        options.onResult?.(result);
      }
    }
  } finally {
    const made = await Promise.allSettled(copies.values());
    await Promise.all(made.map((m) => (m.status === 'fulfilled' ? m.value.dispose() : undefined)));
  }
  return results;
}
