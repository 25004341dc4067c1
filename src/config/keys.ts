// Walks the config schema: every leaf key with its default and description, the valid keys at each level,
// and a plain-words description of what a key accepts. Loading, showing and the starter file all read it.
import * as z from 'zod';
import { ConfigError } from '../core/errors.js';
import { editDistance } from '../core/text.js';
import {
  type ConfigDefaults,
  isSecretKey,
  objectIn,
  schemaIn,
  setPath,
  type Unwrapped,
  unwrap,
} from './leaf-schema.js';
import { configSchema } from './schema.js';

export { describeExpected, describeValue, isSecretKey } from './leaf-schema.js';

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

/** The schema of the key at `path` (wrappers removed), or undefined when there is no such key. */
export function schemaAt(path: readonly (string | number)[]): z.ZodType | undefined {
  return schemaIn(configSchema, path);
}

/** A key at any depth: through mappings and through the entries of mappings whose entries the user names. */
export interface KeyAt {
  path: string[];
  /** The key's schema, wrappers removed. */
  schema: z.ZodType;
  defaultValue: unknown;
  description?: string;
  /**
   * The named entries on the way, outermost first: `mcp.servers.fs.env.HOME` passes `mcp.servers.fs` and
   * `mcp.servers.fs.env.HOME`. Empty for a key of the schema itself.
   */
  entries: string[][];
}

/**
 * The key `keel config get/set` names, however deep (`mcp.servers.fs`, `mcp.servers.fs.command`,
 * `mcp.servers.fs.env.HOME`), or undefined when the schema has no such key (a name its mapping refuses included).
 */
export function keyAt(key: string): KeyAt | undefined {
  const path = key.split('.');
  if (path.some((segment) => segment === '')) return undefined;
  let current: Unwrapped = { inner: configSchema, defaultValue: undefined };
  const entries: string[][] = [];
  for (const [i, segment] of path.entries()) {
    const schema = current.inner;
    if (schema instanceof z.ZodRecord) {
      if (!(schema.keyType as z.ZodType).safeParse(segment).success) return undefined;
      entries.push(path.slice(0, i + 1));
      current = unwrap(schema.valueType as z.ZodType);
      continue;
    }
    if (!(schema instanceof z.ZodObject)) return undefined;
    const child = (schema.shape as Record<string, z.ZodType>)[segment];
    if (child === undefined) return undefined;
    current = unwrap(child);
  }
  const { inner, defaultValue, description } = current;
  return { path, schema: inner, defaultValue, entries, ...(description ? { description } : {}) };
}

/** The keys allowed in the mapping at `path`, in schema order. */
export function validKeysAt(path: readonly (string | number)[]): string[] {
  const object = objectIn(configSchema, path);
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

/** The leaves' defaults and the config they make (the build writes them into the bundle: defaults.ts). */
export function computeConfigDefaults(): ConfigDefaults {
  const raw: Record<string, unknown> = {};
  for (const leaf of leaves) if (leaf.defaultValue !== undefined) setPath(raw, leaf.path, leaf.defaultValue);
  return {
    leaves: leaves.map(({ path, key, defaultValue }) =>
      defaultValue === undefined ? { path, key } : { path, key, defaultValue },
    ),
    config: configSchema.parse(raw),
  };
}

/** Every leaf key of the schema, in schema order. */
export function configLeaves(): readonly ConfigLeaf[] {
  return leaves;
}

/** Every mapping (group) key of the schema, in schema order. */
export function configGroups(): readonly ConfigGroup[] {
  return groups;
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

/** Keys like one that is none: the leaves it ends or begins, else keys (or groups of keys) a typo or two away. */
export function nearKeys(key: string): string[] {
  const keys = leaves.map((l) => l.key);
  const around = keys.filter((k) => k.endsWith(`.${key}`) || k.startsWith(`${key}.`));
  if (around.length > 0) return around.slice(0, 5);
  const groups = new Set<string>();
  for (const k of keys) {
    const parts = k.split('.');
    for (let i = 1; i < parts.length; i++) groups.add(parts.slice(0, i).join('.'));
  }
  return [...keys, ...groups]
    .map((k) => ({ k, distance: editDistance(key, k) }))
    .filter(({ distance }) => distance <= 2)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ k }) => k);
}

/** The error for a key the config does not have, naming those it may have meant. */
export function unknownKey(key: string): ConfigError {
  const near = nearKeys(key);
  return new ConfigError(`unknown config key \`${key}\``, {
    hint:
      near.length > 0
        ? `did you mean ${near.join(', ')}?`
        : (keysBeside(key) ?? 'keel config show lists every key'),
  });
}

/** For a key inside a named entry (`mcp.servers.fs.timeout`), the keys its mapping has: the leaves do not list them. */
function keysBeside(key: string): string | undefined {
  const path = key.split('.');
  const parent = keyAt(path.slice(0, -1).join('.'));
  if (!parent || parent.entries.length === 0 || !(parent.schema instanceof z.ZodObject)) return undefined;
  const names = Object.keys(parent.schema.shape);
  const last = path.at(-1)!;
  const close = names.filter((name) => editDistance(last, name) <= 2 || name.startsWith(last));
  const prefix = parent.path.join('.');
  return close.length > 0
    ? `did you mean ${close.map((name) => `${prefix}.${name}`).join(', ')}?`
    : `the keys of ${prefix} are ${names.join(', ')}`;
}
