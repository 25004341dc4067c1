// Config leaves without the schema they come from: a key's own schema inside a zod object (wrappers removed), the
// words for what it accepts, and the shapes of leaves and layer entries. The whole schema (keys.ts) and the provider
// block alone (overrides.ts: the flags and variables, checked without building the rest) both use it.
import * as z from 'zod';
import { ConfigError } from '../core/errors.js';
import { clip } from '../core/text.js';
import type { KeelConfig } from './schema.js';

/** One leaf's value in a config layer (layer.ts). */
export interface LayerEntry {
  value: unknown;
  /** Where the value came from: "env KEEL_MODEL", "project file /w/.keel.yaml:5". */
  source: string;
}

export interface LeafDefault {
  /** Segments from the root, e.g. ['agent', 'max_turns']. */
  path: string[];
  /** Dotted form, e.g. 'agent.max_turns'. */
  key: string;
  /** undefined for optional keys without a default. */
  defaultValue?: unknown;
}

export interface ConfigDefaults {
  leaves: LeafDefault[];
  /** The schema's parse of the defaults alone. */
  config: KeelConfig;
}

/** Sets `value` at `path` under `root`, making the mappings on the way. */
export function setPath(root: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let current = root;
  for (const segment of path.slice(0, -1)) {
    current[segment] ??= {};
    current = current[segment] as Record<string, unknown>;
  }
  current[path.at(-1)!] = value;
}

const secretPattern = /(api_key|token|secret|password)$/;

export function isSecretKey(key: string): boolean {
  return secretPattern.test(key);
}

export interface Unwrapped {
  inner: z.ZodType;
  defaultValue: unknown;
  description?: string;
}

/** Strips default/prefault/optional wrappers, keeping the first default and description met. */
export function unwrap(schema: z.ZodType): Unwrapped {
  let current = schema;
  let defaultValue: unknown;
  let description = schema.description;
  for (;;) {
    if (current instanceof z.ZodDefault || current instanceof z.ZodPrefault) {
      if (defaultValue === undefined) defaultValue = current.def.defaultValue;
      current = current.def.innerType as z.ZodType;
    } else if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.def.innerType as z.ZodType;
    } else {
      return { inner: current, defaultValue, description };
    }
    description ??= current.description;
  }
}

/** The mapping at `path` under `root` (a record's entries share its value schema, a list's items its element's), if it is one. */
export function objectIn(root: z.ZodType, path: readonly (string | number)[]): z.ZodObject | undefined {
  let current: z.ZodType = root;
  for (const segment of path) {
    // A record's entries (mcp.servers.<name>) all share its value schema.
    if (current instanceof z.ZodRecord) {
      current = unwrap(current.valueType as z.ZodType).inner;
      continue;
    }
    // A list's items (hooks.pre_tool.0) all share its element schema.
    if (current instanceof z.ZodArray && typeof segment === 'number') {
      current = unwrap(current.element as z.ZodType).inner;
      continue;
    }
    if (!(current instanceof z.ZodObject)) return undefined;
    const child = (current.shape as Record<string, z.ZodType>)[String(segment)];
    if (child === undefined) return undefined;
    current = unwrap(child).inner;
  }
  return current instanceof z.ZodObject ? current : undefined;
}

/** The schema of the key at `path` under `root` (wrappers removed), or undefined when there is no such key. */
export function schemaIn(root: z.ZodType, path: readonly (string | number)[]): z.ZodType | undefined {
  if (path.length === 0) return root;
  const parent = objectIn(root, path.slice(0, -1));
  const child = parent ? (parent.shape as Record<string, z.ZodType>)[String(path.at(-1))] : undefined;
  return child === undefined ? undefined : unwrap(child).inner;
}

function describeNumber(schema: z.ZodNumber): string {
  const isInt = schema.isInt === true;
  const bounds: string[] = [];
  let positive = false;
  for (const check of schema.def.checks ?? []) {
    const def = check._zod.def as { check: string; value?: unknown; inclusive?: boolean };
    if (def.check === 'greater_than') {
      if (def.value === 0 && !def.inclusive) positive = true;
      bounds.push(`${def.inclusive ? 'at least' : 'greater than'} ${String(def.value)}`);
    } else if (def.check === 'less_than') {
      bounds.push(`${def.inclusive ? 'at most' : 'less than'} ${String(def.value)}`);
    }
  }
  if (isInt && positive && bounds.length === 1) return 'a positive integer';
  const base = isInt ? 'an integer' : 'a number';
  return bounds.length === 0 ? base : `${base} ${bounds.join(' and ')}`;
}

/** What a value must be, in words: "a positive integer", "one of: a, b". */
export function describeExpected(schema: z.ZodType): string {
  if (schema instanceof z.ZodNumber) return describeNumber(schema);
  if (schema instanceof z.ZodURL) return 'an http(s) URL';
  if (schema instanceof z.ZodString) return (schema.minLength ?? 0) > 0 ? 'a non-empty string' : 'a string';
  if (schema instanceof z.ZodEnum) return `one of: ${schema.options.join(', ')}`;
  if (schema instanceof z.ZodBoolean) return 'true or false';
  if (schema instanceof z.ZodObject) return 'a mapping';
  if (schema instanceof z.ZodArray)
    return `a list of ${describeExpected(schema.element as z.ZodType).replace(/^an? /, '')}s`;
  return 'a valid value';
}

/** A short rendering of a bad value for an error message; secrets are not echoed. */
export function describeValue(value: unknown, secret = false): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (secret) return `a ${typeof value}`;
  const text = JSON.stringify(value);
  return clip(text, 60);
}

/**
 * Checks one value from the environment or a flag against its key's schema, so the error names
 * the variable or flag the user set rather than a config key they never wrote.
 */
export function checkValue(
  key: string,
  schema: z.ZodType,
  value: unknown,
  origin: string,
  source: string,
): LayerEntry {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new ConfigError(
      `\`${origin}\` must be ${describeExpected(schema)}, got ${describeValue(value, isSecretKey(key))}`,
      { hint: `${origin} sets \`${key}\`; fix or unset it` },
    );
  }
  return { value: result.data, source };
}
