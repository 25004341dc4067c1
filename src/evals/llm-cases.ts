// LLM eval cases (evals/llm/*.json): a prompt on a fixture workspace, the tool a good first move calls, acceptable
// alternatives, forbidden tools, and checks of the call's parameters. Each case's `reference` call must pass them.
import { join } from 'node:path';
import * as z from 'zod';
import { EvalFileError, matchesFilter, readEvalFiles } from './eval-files.js';
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
    reference: z.record(z.string(), z.unknown()),
  })
  .strict();

export const llmEvalFileSchema = z.object({ cases: z.array(caseSchema).min(1) }).strict();

export type LlmCase = z.infer<typeof caseSchema> & { parameters: ParameterCheck[] };

export async function loadLlmCases(evalsDir: string, filter?: string): Promise<LlmCase[]> {
  const files = await readEvalFiles(join(evalsDir, 'llm'), llmEvalFileSchema);
  const cases: LlmCase[] = [];
  const ids = new Set<string>();
  for (const { file, value } of files) {
    for (const c of value.cases) {
      if (ids.has(c.id)) throw new EvalFileError(`${file}: case id ${c.id} is used twice`);
      ids.add(c.id);
      const overlap = c.forbidden_tools.filter(
        (t) => t === c.expected_tool || c.acceptable_tools.includes(t),
      );
      if (overlap.length > 0)
        throw new EvalFileError(`${file}: ${c.id}: ${overlap.join(', ')} both allowed and forbidden`);
      const failed = runParameterChecks(
        c.parameters,
        c.expected_tool,
        c.expected_tool,
        c.reference,
        '',
      ).filter((r) => !r.passed);
      if (failed.length > 0) {
        throw new EvalFileError(
          `${file}: ${c.id}: its reference call fails the check of ${failed[0]!.param}`,
        );
      }
      if (matchesFilter(filter, c.id, c.intent, c.expected_tool)) cases.push(c);
    }
  }
  return cases;
}
