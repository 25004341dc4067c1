// The config's leaf keys with their defaults, and the config those make, without building the zod schema: the
// build writes them into the bundle (KEEL_CONFIG_DEFAULTS, from keys.ts computeConfigDefaults), so a run with no
// config file starts without it; elsewhere (tests, the library) they are computed from the schema on first use.
import type { ConfigDefaults } from './leaf-schema.js';

export type { ConfigDefaults, LeafDefault } from './leaf-schema.js';
export { setPath } from './leaf-schema.js';

declare const KEEL_CONFIG_DEFAULTS: ConfigDefaults | undefined;

/** A fresh copy each time: callers change their config (the chat's /model, tool evals). */
export async function configDefaults(): Promise<ConfigDefaults> {
  const built = typeof KEEL_CONFIG_DEFAULTS === 'undefined' ? undefined : KEEL_CONFIG_DEFAULTS;
  return structuredClone(built ?? (await import('./keys.js')).computeConfigDefaults());
}
