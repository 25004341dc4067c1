// JSON and YAML plan files: one zod schema for both, with errors pointing at the file and line.
import { isMap } from 'yaml';
import * as z from 'zod';
import { keyLineOf, lineOf, parseYamlSource, type YamlSource } from '../config/yaml-source.js';
import { PlanError } from '../core/errors.js';
import { editDistance, jsonSyntaxProblem } from '../core/text.js';
import type { Plan, PlanContextEntry } from './plan.js';

const text = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const textMap = z.record(z.string(), text);
const stringList = z.array(z.string());

const planFileSchema = z
  .object({
    goal: z.string().trim().min(1),
    title: z.string().optional(),
    name: z.string().optional(),
    context: z.union([textMap, z.array(z.union([z.string(), textMap])), z.string()]).optional(),
    instructions: stringList.optional(),
    steps: stringList.optional(),
  })
  .strict();

const validKeys = 'goal, title (or name), context, instructions (or steps)';

/** What each key must be, as the error says it. */
const expectations: Record<string, { must: string; hint: string }> = {
  goal: {
    must: 'must be a non-empty string',
    hint: 'write the goal as one line of text: `goal: Add a --json flag`',
  },
  title: { must: 'must be a string', hint: 'write the title as one line of text' },
  context: {
    must: 'must be a mapping of names to text, a list, or text',
    hint: 'e.g. `context: { repository: /path/to/repo }`',
  },
  instructions: {
    must: 'must be a list of strings',
    hint: 'write one string per step, e.g. `- Run the tests`; quote steps that contain ": "',
  },
};

function where(file: string, line: number | undefined): string {
  return line === undefined ? file : `${file} line ${line}`;
}

function jsonSyntaxError(error: Error, body: string, file: string): PlanError {
  const { line, column, reason } = jsonSyntaxProblem(body, error);
  return new PlanError(`${file} line ${line}, column ${column}: invalid JSON: ${reason}`, {
    hint: 'check for a missing or extra comma, quote or bracket near that point',
  });
}

function toContext(value: z.infer<typeof planFileSchema>['context']): PlanContextEntry[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return value.trim() ? [{ value: value.trim() }] : [];
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item) =>
    typeof item === 'string'
      ? [{ value: item }]
      : Object.entries(item).map(([key, text]) => ({ key, value: text })),
  );
}

function validate(raw: Record<string, unknown>, file: string, source: YamlSource | undefined): Plan {
  const keyLine = (key: string) => (source ? lineOf(source, [], key) : undefined);
  // Before "no goal": a misspelt `goall:` is the reason there is no goal, and it has a line to point at.
  const unknown = Object.keys(raw).find((key) => !Object.hasOwn(planFileSchema.shape, key));
  if (unknown !== undefined) {
    const near = Object.keys(planFileSchema.shape).find((key) => editDistance(key, unknown) <= 2);
    throw new PlanError(`${where(file, keyLine(unknown))}: unknown key \`${unknown}\``, {
      hint: `${near ? `did you mean \`${near}\`? ` : ''}plan keys: ${validKeys}`,
    });
  }
  if (raw.goal === undefined) {
    throw new PlanError(`${file}: no goal: add a \`goal:\` key`, {
      hint: 'e.g. `goal: Add a --json flag to the CLI`',
    });
  }
  for (const [a, b] of [
    ['instructions', 'steps'],
    ['title', 'name'],
  ] as const) {
    if (raw[a] !== undefined && raw[b] !== undefined) {
      throw new PlanError(`${where(file, keyLine(b))}: use either \`${a}\` or \`${b}\`, not both`, {
        hint: `\`${b}\` is another name for \`${a}\``,
      });
    }
  }
  const result = planFileSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment));
    const key = String(path[0]);
    const canonical = key === 'steps' ? 'instructions' : key === 'name' ? 'title' : key;
    const expected = expectations[canonical] ?? { must: 'is not valid', hint: issue.message };
    const at = source ? (lineOf(source, path) ?? keyLineOf(source, path)) : undefined;
    throw new PlanError(`${where(file, at)}: \`${key}\` ${expected.must}`, { hint: expected.hint });
  }
  const plan = result.data;
  const title = (plan.title ?? plan.name)?.trim();
  return {
    ...(title ? { title } : {}),
    goal: plan.goal,
    context: toContext(plan.context),
    instructions: (plan.instructions ?? plan.steps ?? []).map((step) => step.trim()).filter(Boolean),
    file,
  };
}

/** Drops top-level `key:` entries with no value, so an empty `context:` means "no context". */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, child]) => child !== null));
}

function notAMapping(file: string, line: number | undefined): PlanError {
  return new PlanError(`${where(file, line)}: a plan must be a mapping with a \`goal\` key`, {
    hint: `plan keys: ${validKeys}`,
  });
}

/** What `keel run --mode plan --output json` prints: its goal, its answer (the rationale) and the plan's steps. */
const runOutputSchema = z.object({
  goal: z.string().trim().min(1),
  answer: z.string(),
  plan: z.array(z.object({ instruction: z.string().trim().min(1) }).loose()).min(1),
});

/** A plan-mode run's JSON output as a plan (its steps the instructions, its rationale the context), else undefined. */
function planFromRunOutput(value: Record<string, unknown>, file: string): Plan | undefined {
  if (!('answer' in value) || !('plan' in value)) return undefined;
  const parsed = runOutputSchema.safeParse(value);
  if (!parsed.success) {
    throw new PlanError(`${file}: a run's JSON output with no plan in it`, {
      hint: 'make one with keel run --mode plan --output json -p "<goal>" > plan.json',
    });
  }
  const { goal, plan } = parsed.data;
  // The prompt becomes `Rationale: …`: an answer that already opens with that word (often in bold) keeps it once.
  const answer = parsed.data.answer.trim().replace(/^(?:[*_#\s]*)rationale[*_\s]*:[*_\s]*/i, '');
  return {
    goal,
    context: answer ? [{ key: 'rationale', value: answer }] : [],
    instructions: plan.map((step) => step.instruction),
    file,
  };
}

export function parseJsonPlan(body: string, file: string): Plan {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw jsonSyntaxError(error as Error, body, file);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw notAMapping(file, 1);
  const fromRun = planFromRunOutput(value as Record<string, unknown>, file);
  if (fromRun) return fromRun;
  // JSON is YAML, so the YAML parser supplies the line numbers for errors after parsing.
  const source = parseYamlSource(body);
  return validate(withoutNulls(value as Record<string, unknown>), file, source.syntax ? undefined : source);
}

export function parseYamlPlan(body: string, file: string): Plan {
  const source = parseYamlSource(body);
  if (source.syntax) {
    const { line, column, reason } = source.syntax;
    throw new PlanError(`${file} line ${line}, column ${column}: YAML syntax error: ${reason}`, {
      hint: 'indent with spaces and quote text that contains ": " or "#"',
    });
  }
  const contents = source.document.contents;
  if (contents === null) return validate({}, file, source);
  if (!isMap(contents)) throw notAMapping(file, lineOf(source, []));
  return validate(withoutNulls(source.document.toJS() as Record<string, unknown>), file, source);
}
