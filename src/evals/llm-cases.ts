// LLM eval cases (evals/llm/*.json): a prompt on a fixture workspace, the tool a good first move calls, acceptable
// alternatives, forbidden tools, and checks of the call's parameters. A case's `reference` call must pass them.
import { join } from 'node:path';
import * as z from 'zod';
import type { ToolSpec } from '../core/model.js';
import { editDistance } from '../core/text.js';
import { createRegistry, defaultTools } from '../tools/registry.js';
import { checkFixture, EvalFileError, matchesFilter, readEvalFiles } from './eval-files.js';
import { type ParameterCheck, parameterCheckSchema, runParameterChecks } from './llm-score.js';

export const INTENTS = ['explain', 'implement', 'refactor', 'debug', 'test', 'document', 'analyze'] as const;

const caseSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
    intent: z.enum(INTENTS),
    prompt: z.string().min(1),
    /** A directory under evals/fixtures; absent: an empty workspace. */
    fixture: z.string().optional(),
    expected_tool: z.string(),
    acceptable_tools: z.array(z.string()).default([]),
    forbidden_tools: z.array(z.string()).default([]),
    parameters: z.array(parameterCheckSchema).default([]),
    /** A correct first call's arguments (documentation, and a check of the case: it must pass every parameter check). */
    reference: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const llmEvalFileSchema = z.object({ cases: z.array(caseSchema).min(1) }).strict();

export type LlmCase = z.infer<typeof caseSchema> & { parameters: ParameterCheck[] };

/** The tools a case's request offers, as a run's: web_search only with a search endpoint, which an eval has not. */
export function offeredTools(): ToolSpec[] {
  return createRegistry(defaultTools().filter((t) => t.name !== 'web_search')).specs();
}

const caseFields =
  'an LLM eval file is {"cases": [...]}; a case: id, intent, prompt, expected_tool, and optionally fixture, ' +
  'acceptable_tools, forbidden_tools, parameters, reference';

/** A tool name no case could ever see called (a typo scores every model "wrong"), with the nearest real one. */
function unknownTool(name: string, known: readonly string[]): string | undefined {
  if (known.includes(name)) return undefined;
  const near = known.find((k) => editDistance(k, name) <= 2);
  return `\`${name}\` is not a tool Keel offers${near ? `; did you mean \`${near}\`?` : ''}`;
}

export async function loadLlmCases(evalsDir: string, filter?: string): Promise<LlmCase[]> {
  const files = await readEvalFiles(join(evalsDir, 'llm'), llmEvalFileSchema, caseFields);
  const known = offeredTools().map((t) => t.name);
  const cases: LlmCase[] = [];
  const ids = new Set<string>();
  for (const { value, at } of files) {
    for (const [index, c] of value.cases.entries()) {
      const field = (...path: (string | number)[]) => at(['cases', index, ...path]);
      if (ids.has(c.id)) throw new EvalFileError(`${field('id')}: case id ${c.id} is used twice`);
      ids.add(c.id);
      const named: [string, number | undefined, string][] = [
        ['expected_tool', undefined, c.expected_tool],
        ...c.acceptable_tools.map((t, i): [string, number, string] => ['acceptable_tools', i, t]),
        ...c.forbidden_tools.map((t, i): [string, number, string] => ['forbidden_tools', i, t]),
      ];
      for (const [key, i, tool] of named) {
        const problem = unknownTool(tool, known);
        if (problem) {
          const where = field(...(i === undefined ? [key] : [key, i]));
          throw new EvalFileError(`${where}: ${c.id}: ${problem}`, `tools: ${known.join(', ')}`);
        }
      }
      const overlap = c.forbidden_tools.filter(
        (t) => t === c.expected_tool || c.acceptable_tools.includes(t),
      );
      if (overlap.length > 0)
        throw new EvalFileError(
          `${field('forbidden_tools')}: ${c.id}: ${overlap.join(', ')} both allowed and forbidden`,
        );
      const failed = c.reference
        ? runParameterChecks(c.parameters, c.expected_tool, c.expected_tool, c.reference, '').filter(
            (r) => !r.passed,
          )
        : [];
      if (failed.length > 0) {
        throw new EvalFileError(
          `${field('reference')}: ${c.id}: its reference call fails the check of ${failed[0]!.param}`,
        );
      }
      await checkFixture(evalsDir, c.fixture, field('fixture'));
      if (matchesFilter(filter, c.id, c.intent, c.expected_tool)) cases.push(c);
    }
  }
  return cases;
}
