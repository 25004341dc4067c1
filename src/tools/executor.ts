// The tool executor: parses and validates a tool call, asks the policy (and the user), runs the tool,
// caps its output and emits tool_call / tool_result events. Never throws for a tool's failure.
import type { z } from 'zod';
import { isAbortError } from '../core/errors.js';
import type { ToolCall } from '../core/messages.js';
import type { ToolRegistry } from './registry.js';
import { fail, type Tool, type ToolContext, type ToolResult } from './tool.js';

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
    return `${field}: ${issue.message}`;
  });
  const spec = registry.specs().find((s) => s.name === tool.name)?.inputSchema;
  const properties = Object.keys((spec?.properties as Record<string, unknown> | undefined) ?? {});
  const required = new Set((spec?.required as string[] | undefined) ?? []);
  const fields = properties.map((p) => (required.has(p) ? p : `${p}?`)).join(', ');
  return `invalid arguments for ${tool.name}: ${problems.join('; ')}${fields ? ` (fields: ${fields})` : ''}`;
}

function approvalSummary(name: string, args: unknown): string {
  if (typeof args === 'object' && args !== null && 'command' in args && typeof args.command === 'string') {
    return args.command;
  }
  const json = JSON.stringify(args);
  return `${name} ${json.length > 200 ? `${json.slice(0, 197)}...` : json}`;
}

async function run(
  call: ToolCall,
  parsed: Parsed,
  registry: ToolRegistry,
  ctx: ToolContext,
): Promise<ToolResult> {
  if (!parsed.ok) return fail(`arguments are not valid JSON: ${parsed.error}`);
  const tool = registry.get(call.name);
  if (!tool) {
    const names = registry.list().map((t) => t.name);
    return fail(`unknown tool "${call.name}"; available tools: ${names.join(', ')}`);
  }
  const validated = tool.schema.safeParse(parsed.value);
  if (!validated.success) return fail(describeIssues(tool, validated.error, registry));
  const args: unknown = validated.data;

  const decision = await ctx.policy.decide({ tool: tool.name, safety: tool.safety, args });
  if (decision.decision === 'deny') return fail(`refused by policy: ${decision.reason}`, { policy: 'deny' });
  if (decision.decision === 'ask') {
    if (!ctx.approve) {
      return fail(`refused: ${decision.reason}, and this run cannot ask for approval`, { policy: 'deny' });
    }
    ctx.emit({ type: 'approval_requested', id: call.id, name: tool.name, reason: decision.reason });
    const summary = approvalSummary(tool.name, args);
    const approved = await ctx.approve({ id: call.id, name: tool.name, summary, reason: decision.reason });
    ctx.emit({ type: 'approval_answered', id: call.id, approved });
    if (!approved)
      return fail(`the user declined this ${tool.name} call (${decision.reason})`, { policy: 'declined' });
  }
  if (ctx.signal.aborted) return fail('aborted before the tool ran');
  return tool.execute(args, ctx);
}

/** Cuts the output to maxBytes (UTF-8), noting the original size. */
function capOutput(result: ToolResult, maxBytes: number): ToolResult {
  const size = Buffer.byteLength(result.output);
  if (size <= maxBytes) return result;
  const kept = Buffer.from(result.output)
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return {
    ...result,
    output: `${kept}\n[output truncated: showing ${maxBytes} of ${size} bytes]`,
    truncated: true,
    metadata: { ...result.metadata, original_size: size },
  };
}

/** A one-line summary for the user: never a file's whole content. */
function summarize(result: ToolResult): string {
  const text = result.success ? result.output : `Error: ${result.error ?? 'failed'}`;
  const lines = text.split('\n');
  const first = (lines[0] ?? '').slice(0, 120);
  return lines.length > 1 ? `${first} (+${lines.length - 1} lines)` : first;
}

/** Runs one tool call end to end; every failure becomes an error result the model can act on. */
export async function executeToolCall(
  call: ToolCall,
  turn: number,
  registry: ToolRegistry,
  ctx: ToolContext,
): Promise<ToolResult> {
  const parsed = parseArguments(call.input);
  ctx.emit({
    type: 'tool_call',
    turn,
    id: call.id,
    name: call.name,
    args: parsed.ok ? parsed.value : call.input,
  });
  let result: ToolResult;
  try {
    result = await run(call, parsed, registry, ctx);
  } catch (error) {
    result = isAbortError(error) || ctx.signal.aborted ? fail('aborted') : fail(errorMessage(error));
  }
  result = capOutput(result, ctx.limits.maxOutputSize);
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
  });
  return result;
}

/** The text the model reads for a result (as xzatoma's ToolResult.to_message). */
export function formatForModel(result: ToolResult): string {
  if (result.success) return result.output;
  const error = `Error: ${result.error ?? 'tool failed'}`;
  return result.output ? `${error}\n${result.output}` : error;
}
