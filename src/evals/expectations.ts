// Expected text of an eval, as data: exact, contains, not_contains, regex, or a JSON subset. Shared by the tool
// evals (a tool's output or error) and the LLM evals (a tool call's parameters).
import * as z from 'zod';

const strings = z.union([z.string(), z.array(z.string())]);

export const textExpectationSchema = z
  .object({
    exact: z.string().optional(),
    contains: strings.optional(),
    not_contains: strings.optional(),
    /** A JavaScript regular expression, multiline (`^` and `$` match at each line). */
    regex: z.string().refine(isRegex, { message: 'not a valid JavaScript regular expression' }).optional(),
    /** The text parses as JSON and holds these fields (objects compared recursively, arrays and values exactly). */
    json: z.unknown().optional(),
  })
  .strict();

export type TextExpectation = z.infer<typeof textExpectationSchema>;

function isRegex(source: string): boolean {
  try {
    new RegExp(source, 'm');
    return true;
  } catch {
    return false;
  }
}

const list = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : typeof value === 'string' ? [value] : value;

/** What `text` fails of `expected`, one line each; empty when it meets all of it. */
export function checkText(text: string, expected: TextExpectation): string[] {
  const problems: string[] = [];
  if (expected.exact !== undefined && text !== expected.exact) {
    problems.push(`expected exactly ${JSON.stringify(expected.exact)}`);
  }
  for (const part of list(expected.contains)) {
    if (!text.includes(part)) problems.push(`expected it to contain ${JSON.stringify(part)}`);
  }
  for (const part of list(expected.not_contains)) {
    if (text.includes(part)) problems.push(`expected it not to contain ${JSON.stringify(part)}`);
  }
  if (expected.regex !== undefined && !new RegExp(expected.regex, 'm').test(text)) {
    problems.push(`expected it to match /${expected.regex}/`);
  }
  if (expected.json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return [...problems, 'expected JSON'];
    }
    const mismatch = subsetMismatch(parsed, expected.json, '$');
    if (mismatch) problems.push(mismatch);
  }
  return problems;
}

/** Where `actual` departs from `expected`: every field of an expected object must be there and match. */
export function subsetMismatch(actual: unknown, expected: unknown, at: string): string | undefined {
  if (typeof expected === 'object' && expected !== null && !Array.isArray(expected)) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
      return `${at}: expected an object, got ${JSON.stringify(actual)}`;
    }
    for (const [key, value] of Object.entries(expected)) {
      const found = subsetMismatch((actual as Record<string, unknown>)[key], value, `${at}.${key}`);
      if (found) return found;
    }
    return undefined;
  }
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    return `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  return undefined;
}
