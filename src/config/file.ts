// Reads one config file and checks it against the schema on its own, so every error names that file and line.
import { readFile } from 'node:fs/promises';
import { isMap } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { configLeaves, describeExpected, describeValue, isSecretKey, schemaAt, validKeysAt } from './keys.js';
import { type ConfigLayer, findLeaf } from './layer.js';
import { configSchema } from './schema.js';
import { keyLineOf, lineOf, parseYamlSource, type YamlSource } from './yaml-source.js';

export interface ConfigFileOptions {
  /** How sources name the file: "user file", "project file", "config file". */
  label: string;
  /** A missing required file is an error; a missing optional one is an empty layer. */
  required: boolean;
}

async function readText(file: string, required: boolean): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !required) return undefined;
    if (code === 'ENOENT') {
      throw new ConfigError(`config file not found: ${file}`, {
        hint: 'check the path given to --config, or create it with `keel config init`',
      });
    }
    if (code === 'EISDIR') {
      throw new ConfigError(`config file ${file} is a directory`, { hint: 'point at a YAML file instead' });
    }
    throw new ConfigError(`cannot read config file ${file}: ${code ?? String(error)}`, {
      hint: 'check the file permissions',
      cause: error,
    });
  }
}

/** YAML `key:` with no value means "not set here", so a half-filled file still loads. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value) || value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (child !== null && child !== undefined) result[key] = withoutNulls(child);
  }
  return result;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function where(file: string, line: number | undefined): string {
  return line === undefined ? file : `${file} line ${line}`;
}

interface Problem {
  line: number | undefined;
  error: ConfigError;
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown, file: string, source: YamlSource): Problem {
  const path = issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment));
  if (issue.code === 'unrecognized_keys') {
    const unknown = issue.keys[0] ?? '';
    const line = lineOf(source, path, unknown);
    const valid = validKeysAt(path).join(', ');
    const level = path.length === 0 ? 'valid top-level keys' : `valid keys under \`${path.join('.')}\``;
    return {
      line,
      error: new ConfigError(`unknown key \`${[...path, unknown].join('.')}\` in ${where(file, line)}`, {
        hint: `${level}: ${valid}`,
      }),
    };
  }
  const key = path.join('.');
  // A rule across fields (a refinement) or a bad name in a mapping of names: its own message says it all.
  if (issue.code === 'custom' || issue.code === 'invalid_key') {
    const line = lineOf(source, path) ?? keyLineOf(source, path);
    const message =
      issue.code === 'invalid_key' ? `is not a valid name: ${issue.issues[0]?.message ?? ''}` : issue.message;
    return { line, error: new ConfigError(`\`${key}\` in ${where(file, line)}: ${message}`) };
  }
  const schema = schemaAt(path);
  const line = lineOf(source, path) ?? keyLineOf(source, path);
  const expected = schema ? describeExpected(schema) : issue.message;
  const got = describeValue(valueAt(raw, path), isSecretKey(key));
  const leaf = findLeaf(key);
  const fallback =
    leaf?.defaultValue === undefined
      ? ''
      : `, or remove it to use the default (${String(leaf.defaultValue)})`;
  return {
    line,
    error: new ConfigError(`\`${key}\` in ${where(file, line)} must be ${expected}, got ${got}`, {
      hint: `set \`${key}\` to ${expected}${fallback}`,
    }),
  };
}

/**
 * Reads and validates `file`; returns its leaf values with "<label> <file>:<line>" sources,
 * or undefined when an optional file does not exist.
 */
export async function readConfigFile(
  file: string,
  options: ConfigFileOptions,
): Promise<ConfigLayer | undefined> {
  const text = await readText(file, options.required);
  if (text === undefined) return undefined;
  const layer: ConfigLayer = new Map();

  const source = parseYamlSource(text);
  if (source.syntax) {
    const { line, column, reason } = source.syntax;
    throw new ConfigError(`YAML syntax error in ${file} line ${line}, column ${column}: ${reason}`, {
      hint: 'fix the YAML near that line: indent with spaces and quote values that contain ": " or "#"',
    });
  }
  const contents = source.document.contents;
  if (contents === null) return layer; // empty or comments only
  if (!isMap(contents)) {
    const line = lineOf(source, []);
    throw new ConfigError(`${where(file, line)}: a config file must be a mapping of keys, like \`agent:\``, {
      hint: 'start from `keel config init`, which writes a commented file with every key',
    });
  }

  const raw = withoutNulls(source.document.toJS());
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => describeIssue(issue, raw, file, source));
    problems.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
    throw problems[0]!.error;
  }

  for (const leaf of configLeaves()) {
    const value = valueAt(raw, leaf.path);
    if (value === undefined) continue;
    const line = keyLineOf(source, leaf.path);
    layer.set(leaf.key, { value, source: `${options.label} ${file}${line === undefined ? '' : `:${line}`}` });
  }
  return layer;
}
