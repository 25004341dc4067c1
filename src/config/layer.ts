// A config layer: leaf values from one place (a file, the environment, the flags), each with its source.
import { type ConfigLeaf, configLeaves } from './keys.js';
import { checkValue, type LayerEntry } from './leaf-schema.js';

export type { LayerEntry } from './leaf-schema.js';

/** Dotted leaf key -> value and source. */
export type ConfigLayer = Map<string, LayerEntry>;

export function findLeaf(key: string): ConfigLeaf | undefined {
  return configLeaves().find((leaf) => leaf.key === key);
}

/**
 * Checks one value from the environment or a flag against its key's schema, so the error names
 * the variable or flag the user set rather than a config key they never wrote.
 */
export function checkedEntry(key: string, value: unknown, origin: string, source: string): LayerEntry {
  const leaf = findLeaf(key);
  if (leaf === undefined) throw new Error(`no config key ${key}`);
  return checkValue(key, leaf.schema, value, origin, source);
}
