// Reading eval files: every `*.json` of a directory, validated with a zod schema, named in any error with its line.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { keyLineOf, parseYamlSource } from '../config/yaml-source.js';
import { ExitCode, KeelError } from '../core/errors.js';
import { jsonSyntaxProblem } from '../core/text.js';

export class EvalFileError extends KeelError {
  constructor(message: string, hint?: string) {
    super('eval_file', ExitCode.usage, message, hint ? { hint } : undefined);
  }
}

export interface EvalFile<T> {
  file: string;
  value: T;
  /** `file line N` for the entry at `path` (as `cases.0.fixture`), or `file` when it has no line. */
  at(path: readonly (string | number)[]): string;
}

/** `cases[0].expect.output` from a zod issue path. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

/**
 * Each `*.json` file of `dir` (sorted by name) parsed with `schema`. `format` is the hint of an invalid file: the
 * fields a file and a case hold.
 */
export async function readEvalFiles<T>(
  dir: string,
  schema: z.ZodType<T>,
  format: string,
): Promise<EvalFile<T>[]> {
  const names = await readdir(dir).catch(() => {
    throw new EvalFileError(
      `eval directory not found: ${dir}`,
      'pass --dir <evals dir> (it holds tools/ and llm/)',
    );
  });
  const files: EvalFile<T>[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const file = join(dir, name);
    const text = await readFile(file, 'utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      const { line, column, reason } = jsonSyntaxProblem(text, error);
      throw new EvalFileError(
        `${file} line ${line}, column ${column}: not valid JSON: ${reason}`,
        'check for a missing or extra comma, quote or bracket near that point',
      );
    }
    // JSON is YAML: its parser gives the line of any key for the errors below.
    const source = parseYamlSource(text);
    const at = (path: readonly (string | number)[]) => {
      const line = source.syntax ? undefined : keyLineOf(source, path);
      return line === undefined ? file : `${file} line ${line}`;
    };
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
      if (issue.code === 'unrecognized_keys') {
        const key = issue.keys[0] ?? '';
        const where = pathText([...path, key]);
        throw new EvalFileError(`${at([...path, key])}: unknown key \`${where}\``, format);
      }
      const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
      const what = missing ? `\`${pathText(path)}\` is missing` : `\`${pathText(path)}\`: ${issue.message}`;
      throw new EvalFileError(`${at(path)}: ${path.length ? what : issue.message}`, format);
    }
    files.push({ file, value: parsed.data, at });
  }
  return files;
}

/** Throws an eval file error at `where` unless `evals/fixtures/<fixture>` is a directory. */
export async function checkFixture(
  evalsDir: string,
  fixture: string | undefined,
  where: string,
): Promise<void> {
  if (fixture === undefined) return;
  const fixtures = join(evalsDir, 'fixtures');
  if ((await stat(join(fixtures, fixture)).catch(() => undefined))?.isDirectory()) return;
  const known = await readdir(fixtures).catch(() => [] as string[]);
  throw new EvalFileError(
    `${where}: fixture \`${fixture}\` not found in ${fixtures}`,
    known.length
      ? `fixtures there: ${known.sort().join(', ')}; or leave \`fixture\` out for an empty workspace`
      : `make the directory ${join(fixtures, fixture)} with the case's files, or leave \`fixture\` out for an empty workspace`,
  );
}

/** Case-insensitive: the filter appears in any of the names. */
export function matchesFilter(filter: string | undefined, ...names: string[]): boolean {
  if (!filter) return true;
  const wanted = filter.toLowerCase();
  return names.some((n) => n.toLowerCase().includes(wanted));
}
