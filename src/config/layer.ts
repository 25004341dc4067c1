// A config layer: leaf values from one place (a file, the environment, the flags), each with its source.
import { ConfigError } from '../core/errors.js';
import { type ConfigLeaf, configLeaves, describeExpected, describeValue } from './keys.js';

export interface LayerEntry {
  value: unknown;
  /** Where the value came from: "env KEEL_MODEL", "project file /w/.keel.yaml:5". */
  source: string;
}

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
  const result = leaf.schema.safeParse(value);
  if (!result.success) {
    throw new ConfigError(
      `\`${origin}\` must be ${describeExpected(leaf.schema)}, got ${describeValue(value, leaf.secret)}`,
      { hint: `${origin} sets \`${key}\`; fix or unset it` },
    );
  }
  return { value: result.data, source };
}
