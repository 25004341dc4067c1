// Scoring a model's first move (CodeCraft's LLM eval metrics): which tool it called against the case's expected,
// acceptable and forbidden tools, and the fraction of the parameter checks its arguments pass.
import * as z from 'zod';

export const parameterCheckSchema = z
  .object({
    /** The argument checked. */
    param: z.string(),
    /** The tool whose call is checked (default: the expected tool); calls of other tools skip the check. */
    tool: z.string().optional(),
    equals: z.unknown().optional(),
    /** A workspace path: equal after dropping `./`, a trailing `/` and the workspace's absolute prefix. */
    path: z.string().optional(),
    contains: z.string().optional(),
    /** A case-insensitive JavaScript regular expression the argument (as text) must match. */
    regex: z.string().refine(isRegex, { message: 'not a valid JavaScript regular expression' }).optional(),
  })
  .strict();

function isRegex(source: string): boolean {
  try {
    new RegExp(source, 'i');
    return true;
  } catch {
    return false;
  }
}

export type ParameterCheck = z.infer<typeof parameterCheckSchema>;

export type Outcome = 'exact' | 'acceptable' | 'wrong' | 'none' | 'forbidden' | 'error';

export interface CheckResult {
  param: string;
  passed: boolean;
}

export interface LlmCaseResult {
  id: string;
  intent: string;
  /** 1-based, under --repeat. */
  run: number;
  outcome: Outcome;
  /** The first tool call's name and arguments. */
  tool?: string;
  args?: unknown;
  /** Fraction of the applicable parameter checks passed; absent when none applied. */
  parameterScore?: number;
  checks: CheckResult[];
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
  /** Why it failed (a provider error, arguments that are not JSON). */
  detail?: string;
}

export interface LlmSummary {
  total: number;
  exact: number;
  acceptable: number;
  wrong: number;
  none: number;
  forbidden: number;
  errors: number;
  /** Mean parameter score over the runs where checks applied; absent when none did. */
  parameterQuality?: number;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
}

export function outcomeOf(
  tool: string | undefined,
  c: { expected_tool: string; acceptable_tools: readonly string[]; forbidden_tools: readonly string[] },
): Outcome {
  if (tool === undefined) return 'none';
  if (tool === c.expected_tool) return 'exact';
  if (c.acceptable_tools.includes(tool)) return 'acceptable';
  if (c.forbidden_tools.includes(tool)) return 'forbidden';
  return 'wrong';
}

function normalPath(value: string, root: string): string {
  let p = value.trim();
  if (root && (p === root || p.startsWith(`${root}/`))) p = p.slice(root.length + 1) || '.';
  p = p.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  return p === '' ? '.' : p;
}

/** The checks that apply to a call of `tool` with `args` (those naming it, or the expected tool by default). */
export function runParameterChecks(
  checks: readonly ParameterCheck[],
  expectedTool: string,
  tool: string,
  args: unknown,
  root: string,
): CheckResult[] {
  const record = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  return checks
    .filter((check) => (check.tool ?? expectedTool) === tool)
    .map((check) => ({ param: check.param, passed: passes(check, record[check.param], root) }));
}

function passes(check: ParameterCheck, value: unknown, root: string): boolean {
  if (value === undefined) return false;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (check.equals !== undefined && JSON.stringify(value) !== JSON.stringify(check.equals)) return false;
  if (
    check.path !== undefined &&
    (typeof value !== 'string' || normalPath(value, root) !== normalPath(check.path, ''))
  )
    return false;
  if (check.contains !== undefined && !text.includes(check.contains)) return false;
  if (check.regex !== undefined && !new RegExp(check.regex, 'i').test(text)) return false;
  return true;
}

export function summarize(results: readonly LlmCaseResult[]): LlmSummary {
  const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  const scored = results.filter((r) => r.parameterScore !== undefined);
  return {
    total: results.length,
    exact: count('exact'),
    acceptable: count('acceptable'),
    wrong: count('wrong'),
    none: count('none'),
    forbidden: count('forbidden'),
    errors: count('error'),
    ...(scored.length > 0
      ? { parameterQuality: scored.reduce((sum, r) => sum + (r.parameterScore ?? 0), 0) / scored.length }
      : {}),
    inputTokens: results.reduce((sum, r) => sum + r.inputTokens, 0),
    outputTokens: results.reduce((sum, r) => sum + r.outputTokens, 0),
    durationMs: results.reduce((sum, r) => sum + r.durationMs, 0),
  };
}
