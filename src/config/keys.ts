// Walks the config schema: every leaf key with its default and description, the valid keys at each level,
// and a plain-words description of what a key accepts. Loading, showing and the starter file all read it.
import { z } from 'zod';
import { clip } from '../core/text.js';
import { configSchema } from './schema.js';

export interface ConfigLeaf {
  /** Segments from the root, e.g. ['agent', 'max_turns']. */
  path: string[];
  /** Dotted form, e.g. 'agent.max_turns'. */
  key: string;
  /** The leaf schema with default/optional wrappers removed. */
  schema: z.ZodType;
  /** undefined for optional keys without a default. */
  defaultValue: unknown;
  description?: string;
  /** Secrets are never shown or echoed back in errors. */
  secret: boolean;
}

export interface ConfigGroup {
  path: string[];
  key: string;
  description?: string;
}

const secretPattern = /(api_key|token|secret|password)$/;

export function isSecretKey(key: string): boolean {
  return secretPattern.test(key);
}

interface Unwrapped {
  inner: z.ZodType;
  defaultValue: unknown;
  description?: string;
}

/** Strips default/prefault/optional wrappers, keeping the first default and description met. */
function unwrap(schema: z.ZodType): Unwrapped {
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

function objectAt(path: readonly (string | number)[]): z.ZodObject | undefined {
  let current: z.ZodType = configSchema;
  for (const segment of path) {
    // A record's entries (mcp.servers.<name>) all share its value schema.
    if (current instanceof z.ZodRecord) {
      current = unwrap(current.valueType as z.ZodType).inner;
      continue;
    }
    if (!(current instanceof z.ZodObject)) return undefined;
    const child = (current.shape as Record<string, z.ZodType>)[String(segment)];
    if (child === undefined) return undefined;
    current = unwrap(child).inner;
  }
  return current instanceof z.ZodObject ? current : undefined;
}

/** The schema of the key at `path` (wrappers removed), or undefined when there is no such key. */
export function schemaAt(path: readonly (string | number)[]): z.ZodType | undefined {
  if (path.length === 0) return configSchema;
  const parent = objectAt(path.slice(0, -1));
  const child = parent ? (parent.shape as Record<string, z.ZodType>)[String(path.at(-1))] : undefined;
  return child === undefined ? undefined : unwrap(child).inner;
}

/** The keys allowed in the mapping at `path`, in schema order. */
export function validKeysAt(path: readonly (string | number)[]): string[] {
  const object = objectAt(path);
  return object ? Object.keys(object.shape) : [];
}

function walk(schema: z.ZodObject, prefix: string[], leaves: ConfigLeaf[], groups: ConfigGroup[]): void {
  for (const [name, child] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const path = [...prefix, name];
    const { inner, defaultValue, description } = unwrap(child);
    if (inner instanceof z.ZodObject) {
      groups.push({ path, key: path.join('.'), description });
      walk(inner, path, leaves, groups);
    } else {
      const key = path.join('.');
      leaves.push({ path, key, schema: inner, defaultValue, description, secret: isSecretKey(key) });
    }
  }
}

const leaves: ConfigLeaf[] = [];
const groups: ConfigGroup[] = [];
walk(configSchema, [], leaves, groups);

/** Every leaf key of the schema, in schema order. */
export function configLeaves(): readonly ConfigLeaf[] {
  return leaves;
}

/** Every mapping (group) key of the schema, in schema order. */
export function configGroups(): readonly ConfigGroup[] {
  return groups;
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

export type OutlineItem =
  | { kind: 'group'; depth: number; name: string; key: string }
  | { kind: 'leaf'; depth: number; name: string; leaf: ConfigLeaf };

/** The schema as a YAML outline, in schema order: each mapping opens before its first leaf. */
export function* configOutline(): Generator<OutlineItem> {
  let open: string[] = [];
  for (const leaf of leaves) {
    const parents = leaf.path.slice(0, -1);
    let shared = 0;
    while (shared < open.length && open[shared] === parents[shared]) shared++;
    for (let depth = shared; depth < parents.length; depth++) {
      yield { kind: 'group', depth, name: parents[depth]!, key: parents.slice(0, depth + 1).join('.') };
    }
    open = parents;
    yield { kind: 'leaf', depth: parents.length, name: leaf.path.at(-1)!, leaf };
  }
}
