// The tool executor: parse → validate → preview → policy → approval → run → cap → events, for every tool
// alike (built-in, MCP, config-defined). Never throws for a tool's failure: it becomes a result the model reads.
import type { z } from 'zod';
import type { Approve } from '../core/approval.js';
import { isAbortError, KeelError } from '../core/errors.js';
import { inForeground } from '../core/foreground.js';
import type { ToolCall } from '../core/messages.js';
import { clip } from '../core/text.js';
import type { ApprovalMemory } from '../safety/approval-memory.js';
import type { Policy, PolicyDecision } from '../safety/policy.js';
import { describeTripped, type Tripped, type Tripwire } from '../safety/tripwire.js';
import { askApproval } from './approval-step.js';
import { withRecoveryHint } from './error-kinds.js';
import { capOutput } from './output-cap.js';
import type { ToolRegistry } from './registry.js';
import {
  fail,
  ok,
  type Tool,
  type ToolContext,
  type ToolHooks,
  type ToolPreview,
  type ToolResult,
} from './tool.js';

/** What the executor holds around every call of a run, apart from what the tool sees (its ToolContext). */
export interface ExecutorContext {
  registry: ToolRegistry;
  policy: Policy;
  /** Asked when the policy says "ask"; absent in headless runs, where "ask" means "deny". */
  approve?: Approve;
  /** The session's "always" answers, checked before asking; absent: every "ask" is asked. */
  approvals?: ApprovalMemory;
  /** --dry-run: calls that change anything report what they would do instead of running. */
  dryRun?: boolean;
  /**
   * Called before a call that may change the workspace runs (after approval): where a checkpoint is taken. What it
   * returns runs after the call (recording the state the call left).
   */
  beforeChange?: (change: {
    callId: string;
    tool: string;
    preview: ToolPreview;
    turn: number;
  }) => Promise<void | (() => Promise<void>)>;
  /** Records the protected files before a call that may write and puts back what it changed; absent: off. */
  tripwire?: Tripwire;
  /** The user's pre_tool and post_tool hooks (config `hooks`); absent: none configured. */
  hooks?: ToolHooks;
  /** Keeps a result too large for the model in full; returns the file's path. Absent: the rest is dropped. */
  saveOutput?: (callId: string, text: string) => Promise<string>;
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

function parseArguments(input: string): Parsed {
  if (input.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(input) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** "missing required field path (string); offset: Too small: expected number to be >=1", plus the fields. */
function describeIssues(tool: Tool, error: z.ZodError, registry: ToolRegistry): string {
  const problems = error.issues.map((issue) => {
    const field = issue.path.join('.') || 'arguments';
    if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
      return `missing required field ${field} (${issue.expected})`;
    }
    // Dropping it would run the call without what the model asked for (a filter, an option): it is told instead.
    if (issue.code === 'unrecognized_keys') {
      const where = issue.path.length > 0 ? ` in ${field}` : '';
      return `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.join(', ')}${where}`;
    }
    return `${field}: ${issue.message}`;
  });
  const spec = registry.specs().find((s) => s.name === tool.name)?.inputSchema;
  const properties = Object.keys((spec?.properties as Record<string, unknown> | undefined) ?? {});
  const required = new Set((spec?.required as string[] | undefined) ?? []);
  const fields = properties.map((p) => (required.has(p) ? p : `${p}?`)).join(', ');
  return `invalid arguments for ${tool.name}: ${problems.join('; ')}${fields ? ` (fields: ${fields})` : ''}`;
}

/** What a tool without a preview of its own shows: its name and arguments. */
function defaultPreview(name: string, args: unknown): ToolPreview {
  return { reads: [], writes: [], summary: `${name} ${clip(JSON.stringify(args) ?? '', 200)}` };
}

/**
 * What a call that changes things reports under --dry-run: the change it would make, and nothing done. Worded so
 * the model goes on rather than retrying a call that will never apply.
 */
function dryRunResult(preview: ToolPreview, askReason?: string): ToolResult {
  const detail = preview.diff ?? (preview.command !== undefined ? `$ ${preview.command}` : '');
  const asked = askReason ? ` (it would first ask the user: ${askReason})` : '';
  const output = `[dry run] not applied: would ${preview.summary}${asked}. Nothing was changed; continue as if it had been applied, or finish.${detail ? `\n${detail}` : ''}`;
  return { ...ok(output, { dry_run: true }, output), truncated: false };
}

/** A call parsed, validated, previewed and decided by the policy: what runs next, with nothing asked yet. */
export interface PreparedCall {
  tool: Tool;
  args: unknown;
  preview: ToolPreview;
  decision: PolicyDecision;
}

/** parse → validate → preview → policy; a failure on the way is the call's result. */
async function prepare(
  call: ToolCall,
  parsed: Parsed,
  executor: ExecutorContext,
  ctx: ToolContext,
): Promise<PreparedCall | ToolResult> {
  if (!parsed.ok) return fail(`arguments are not valid JSON: ${parsed.error}`);
  const { registry } = executor;
  const tool = registry.get(call.name);
  if (!tool) {
    const gone = registry.gone(call.name);
    if (gone !== undefined) return fail(gone, { tool_gone: true });
    const names = registry.list().map((t) => t.name);
    // A run that offers no tools (a plain `keel ask`) says so, rather than "available tools: " and nothing.
    const offered = names.length
      ? `available tools: ${names.join(', ')}`
      : 'this run offers no tools: answer with text from what you were given';
    return fail(`unknown tool "${call.name}"; ${offered}`);
  }
  const validated = tool.schema.safeParse(parsed.value);
  if (!validated.success) return fail(describeIssues(tool, validated.error, registry));
  const args: unknown = validated.data;
  const preview = tool.preview ? await tool.preview(args, ctx) : defaultPreview(tool.name, args);
  const decision = await executor.policy.decide({ tool: tool.name, safety: tool.safety, args, preview });
  return { tool, args, preview, decision };
}

/** What the loop needs to know before running a call: whether it only reads, and what it declares it touches. */
export interface CallAssessment {
  /** Allowed without asking and read-only by the policy: safe to run beside other such calls. */
  readOnly: boolean;
  reads: readonly string[];
  writes: readonly string[];
  command?: string;
  /** Given back to executeToolCall for a read-only call, so it is not previewed and decided twice. */
  prepared?: PreparedCall;
}

/** Previews a call and asks the policy about it without running it or asking the user anything. */
export async function assessToolCall(
  call: ToolCall,
  executor: ExecutorContext,
  ctx: ToolContext,
): Promise<CallAssessment> {
  if (call.refused !== undefined) return { readOnly: false, reads: [], writes: [] };
  const prepared = await prepare(call, parseArguments(call.input), executor, ctx).catch(() => undefined);
  if (!prepared || !('decision' in prepared)) return { readOnly: false, reads: [], writes: [] };
  const { decision, preview } = prepared;
  const readOnly = decision.decision === 'allow' && decision.readOnly === true && preview.sequential !== true;
  return {
    readOnly,
    reads: preview.reads,
    writes: preview.writes,
    ...(preview.command === undefined ? {} : { command: preview.command }),
    ...(readOnly ? { prepared } : {}),
  };
}

/**
 * parse → validate → preview → policy → (dry run | approval (an edit goes back to validate) → checkpoint) → run.
 * `ready`: the first four steps already done (assessToolCall).
 */
async function run(
  call: ToolCall,
  turn: number,
  parsed: Parsed,
  executor: ExecutorContext,
  ctx: ToolContext,
  ready?: PreparedCall,
): Promise<RunResult> {
  const prepared = ready ?? (await prepare(call, parsed, executor, ctx));
  if (!('decision' in prepared)) return prepared;
  const { tool, args, preview, decision } = prepared;
  if (decision.decision === 'deny') {
    const how = decision.hint ? `; to allow it: ${decision.hint}` : '';
    return fail(`refused by policy: ${decision.reason}${how}`, { policy: 'deny' });
  }
  // A web call changes nothing here (no checkpoint), yet under --dry-run it only reports its URL.
  const network = preview.url !== undefined;
  const mutating = !decision.readOnly && tool.safety !== 'safe' && !network;
  // Nothing will run, so there is nothing to ask about: the result says the question would come.
  if ((mutating || network) && executor.dryRun)
    return dryRunResult(preview, decision.decision === 'ask' ? decision.reason : undefined);
  if (decision.decision === 'ask') {
    const answer = await askApproval(call, tool, decision, args, preview, ctx, executor);
    if (answer.kind === 'refused') return answer.result;
    // The user rewrote the call: it is a new call, validated and decided again (it may be refused or asked).
    if (answer.kind === 'edited') {
      return withNote(await run(call, turn, { ok: true, value: answer.input }, executor, ctx), answer.note);
    }
  }
  if (ctx.signal.aborted) return fail('aborted before the tool ran');
  // pre_tool hooks see only calls that will run (after the policy and the user said yes), before any checkpoint.
  const hooked = { id: call.id, tool: tool.name, args };
  const blocked = await executor.hooks?.beforeTool(hooked, ctx.signal);
  if (blocked !== undefined) return fail(`blocked by a pre_tool hook: ${blocked}`, { hook: 'blocked' });
  const recordAfter = mutating
    ? await executor.beforeChange?.({ callId: call.id, tool: tool.name, preview, turn })
    : undefined;
  // Around every call (a command judged read-only, an MCP tool declared read-only, a language server started by a
  // code tool may all write): protected files put back. A few stats and small reads, so no call is exempt.
  // A background command may have written since the last call returned: that is put back and said first.
  const meanwhile = (await executor.tripwire?.settle()) ?? [];
  const armed = await executor.tripwire?.arm(preview.writes);
  let executed: ToolResult;
  try {
    const running = { ...ctx, callId: call.id };
    const execute = () =>
      tool.execute(args, network ? networkContext(call, tool, args, executor, running) : running);
    // A read-only call runs in the foreground: background work (a big tree's first checkpoint) waits for it. Never
    // a task, whose sub-agent's own changes wait for that checkpoint.
    executed = tool.safety === 'safe' && tool.name !== 'task' ? await inForeground(execute) : await execute();
  } catch (error) {
    // A call that threw (aborted, crashed) may have planted something all the same.
    withTripwire(fail('failed'), tool.name, await armed?.check(), ctx);
    throw error;
  }
  const tripped = await armed?.check();
  if (executor.tripwire && ctx.runner.running().length > 0) await executor.tripwire.linger();
  const result = withTripwire(
    withTripwire(executed, tool.name, tripped, ctx),
    'a background command',
    meanwhile,
    ctx,
  );
  if (recordAfter) await recordAfter();
  await executor.hooks?.afterTool(hooked, result, ctx.signal);
  // The policy learns what ran (write_file's `created`: files this run may delete again in restricted mode).
  executor.policy.record?.({ tool: tool.name, safety: tool.safety, args, preview }, result);
  // A file tool's writes are known from its preview; a command's are not (its preview names none). A tool that
  // found nothing to do says so (`changed: false`: imports already organized, a barrel up to date).
  const fileChange =
    mutating &&
    result.success &&
    preview.command === undefined &&
    preview.writes.length > 0 &&
    result.metadata.changed !== false;
  // Language services read the disk again: the files written, or anything after a command.
  if (mutating) {
    const written = preview.writes.map((w) => ctx.workspace.pathOf(w).split('\\').join('/'));
    ctx.languages?.changed(preview.command === undefined ? written : []);
  }
  return fileChange ? { ...result, changed: preview.writes } : result;
}

/**
 * A web call's context: each further URL it reaches (a redirect) goes through the policy and, where it asks, the
 * user, as the first did; a whole page it keeps goes with the saved outputs.
 */
function networkContext(
  call: ToolCall,
  tool: Tool,
  args: unknown,
  executor: ExecutorContext,
  ctx: ToolContext,
): ToolContext {
  const save = executor.saveOutput;
  return {
    ...ctx,
    authorizeUrl: async (url) => {
      const preview: ToolPreview = { reads: [], writes: [], url, summary: `${tool.name} ${url}` };
      const decision = await executor.policy.decide({ tool: tool.name, safety: tool.safety, args, preview });
      if (decision.decision === 'allow') return undefined;
      if (decision.decision === 'deny')
        return decision.hint ? `${decision.reason}; to allow it: ${decision.hint}` : decision.reason;
      const answer = await askApproval(call, tool, decision, args, preview, ctx, executor);
      return answer.kind === 'run'
        ? undefined
        : answer.kind === 'refused'
          ? answer.result.error
          : 'not approved';
    },
    ...(save ? { saveText: (text: string) => save(`${call.id}-page`, text) } : {}),
  };
}

/** A call that changed protected files: the model reads that they were put back, the user gets a warning. */
function withTripwire(result: ToolResult, tool: string, tripped: Tripped[] | undefined, ctx: ToolContext) {
  if (!tripped || tripped.length === 0) return result;
  const what = describeTripped(tripped);
  ctx.emit({ type: 'warning', message: `tripwire: ${tool} changed protected files: ${what}` });
  const who = tool === 'a background command' ? 'a background command' : 'this call';
  const note =
    `[tripwire] ${who} changed files that make later runs execute code${tripped.every((t) => t.restored) ? ', and Keel put them back' : ''}: ${what}. ` +
    "Git's config and hooks, Keel's config and other agents' settings are not changed by tools; " +
    'tell the user what you wanted to change there instead.';
  const output = result.output ? `${result.output}\n${note}` : note;
  const earlier = result.metadata.tripwire;
  const all = typeof earlier === 'string' ? `${earlier}, ${what}` : what;
  return { ...result, output, metadata: { ...result.metadata, tripwire: all } };
}

/** A result with the paths a file tool changed, for the tool_result event. */
type RunResult = ToolResult & { changed?: string[] };

/** A result with the note saying the user edited the call, for the model to read first (the last edit's only). */
function withNote(result: ToolResult, note: string): ToolResult {
  if (result.metadata.edited_by_user) return result;
  const output = result.output ? `${note}\n${result.output}` : note;
  return { ...result, output, metadata: { ...result.metadata, edited_by_user: true } };
}

/** A one-line summary for the user: never a file's whole content. */
function summarize(result: ToolResult): string {
  const text = result.success ? result.output : `Error: ${result.error ?? 'failed'}`;
  const lines = text.split('\n');
  const first = clip(lines[0] ?? '', 120);
  return lines.length > 1 ? `${first} (+${lines.length - 1} lines)` : first;
}

/** Runs one tool call end to end; every failure becomes an error result the model can act on. */
export async function executeToolCall(
  call: ToolCall,
  turn: number,
  executor: ExecutorContext,
  ctx: ToolContext,
  prepared?: PreparedCall,
): Promise<ToolResult> {
  const parsed = parseArguments(call.input);
  ctx.emit({
    type: 'tool_call',
    turn,
    id: call.id,
    name: call.name,
    args: parsed.ok ? parsed.value : call.input,
  });
  const started = Date.now();
  let ran: RunResult;
  let fatal: KeelError | undefined;
  try {
    // Refused before it got here (arguments over the size limit): nothing to parse, decide or run.
    ran =
      call.refused !== undefined
        ? fail(call.refused)
        : await run(call, turn, parsed, executor, ctx, prepared);
  } catch (error) {
    // Keel's own files cannot be written (its checkpoint store on a full disk): the call fails, then the run ends.
    if (error instanceof KeelError && error.code === 'environment') fatal = error;
    ran = fatal
      ? fail('not run: Keel cannot write its own files (the error below says where)')
      : isAbortError(error) || ctx.signal.aborted
        ? fail('aborted')
        : fail(errorMessage(error));
  }
  const { changed, ...plain } = ran;
  // The recovery hint comes after the cap, so it is never the part cut off.
  const result = withRecoveryHint(
    await capOutput(plain, call.id, ctx.limits.maxOutputSize, executor.saveOutput),
    !call.name.includes('__'),
  );
  ctx.emit({
    type: 'tool_result',
    turn,
    id: call.id,
    name: call.name,
    success: result.success,
    display: result.display ?? summarize(result),
    error: result.error,
    truncated: result.truncated,
    metadata: result.metadata,
    duration_ms: Date.now() - started,
    ...(changed ? { changed } : {}),
  });
  // A search's results are sources the answer may cite: listed under it (chat, keel run and ask, JSON output).
  for (const source of result.citations ?? [])
    ctx.emit({ type: 'citation', turn, url: source.url, ...(source.title ? { title: source.title } : {}) });
  if (fatal) throw fatal;
  return result;
}

/** The text the model reads for a result (as xzatoma's ToolResult.to_message). */
export function formatForModel(result: ToolResult): string {
  if (result.success) return result.output;
  const error = `Error: ${result.error ?? 'tool failed'}`;
  return result.output ? `${error}\n${result.output}` : error;
}
