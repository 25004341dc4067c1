// Walks the config schema: every leaf key with its default and description, the valid keys at each level,
// and a plain-words description of what a key accepts. Loading, showing and the starter file all read it.
import * as z from 'zod';
import { ConfigError } from '../core/errors.js';
import { editDistance } from '../core/text.js';
import { type ConfigDefaults, isSecretKey, objectIn, schemaIn, setPath, unwrap } from './leaf-schema.js';
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

/**
 * A key inside an entry of a mapping whose entries the user names (`mcp.servers.<name>.enabled`): the entry's path
 * (`['mcp', 'servers', '<name>']`) and the key's schema, or undefined when `key` is no such key. Keys holding
 * mappings of their own (a server's `env`) are left to the file.
 */
export function entryKey(key: string): { entry: string[]; leaf: ConfigLeaf } | undefined {
  const path = key.split('.');
  const schema = schemaAt(path);
  if (schema === undefined || schema instanceof z.ZodObject || schema instanceof z.ZodRecord)
    return undefined;
  for (let i = path.length - 2; i >= 1; i--) {
    if (schemaAt(path.slice(0, i)) instanceof z.ZodRecord) {
      const { defaultValue, description } = unwrap(schemaChild(path) ?? schema);
      return {
        entry: path.slice(0, i + 1),
        leaf: { path, key, schema, defaultValue, description, secret: isSecretKey(key) },
      };
    }
  }
  return undefined;
}

/** The key's own schema with its wrappers (default, description), as its parent object holds it. */
function schemaChild(path: readonly string[]): z.ZodType | undefined {
  const parent = objectIn(configSchema, path.slice(0, -1));
  return parent ? (parent.shape as Record<string, z.ZodType>)[path.at(-1)!] : undefined;
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
    hint: near.length > 0 ? `did you mean ${near.join(', ')}?` : 'keel config show lists every key',
  });
}
