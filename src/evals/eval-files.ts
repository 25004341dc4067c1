// Reading eval files: every `*.json` of a directory, validated with a zod schema, named in any error.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { ExitCode, KeelError } from '../core/errors.js';

export class EvalFileError extends KeelError {
  constructor(message: string, hint?: string) {
    super('eval_file', ExitCode.usage, message, hint ? { hint } : undefined);
  }
}

/** Each `*.json` file of `dir` (sorted by name) parsed with `schema`. */
export async function readEvalFiles<T>(
  dir: string,
  schema: z.ZodType<T>,
): Promise<{ file: string; value: T }[]> {
  const names = await readdir(dir).catch(() => {
    throw new EvalFileError(
      `eval directory not found: ${dir}`,
      'pass --dir <evals dir> (it holds tools/ and llm/)',
    );
  });
  const files: { file: string; value: T }[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const file = join(dir, name);
    let json: unknown;
    try {
      json = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new EvalFileError(
        `${file}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new EvalFileError(`${file}: ${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`);
    }
    files.push({ file, value: parsed.data });
  }
  return files;
}

/** Case-insensitive: the filter appears in any of the names. */
export function matchesFilter(filter: string | undefined, ...names: string[]): boolean {
  if (!filter) return true;
  const wanted = filter.toLowerCase();
  return names.some((n) => n.toLowerCase().includes(wanted));
}
