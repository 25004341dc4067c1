// The secret values written in config (`provider.openai-compatible.api_key`, an MCP server's token), collected so
// the redactor can remove them wherever they show up.

/** Keys whose string values are secrets; the same words the redactor looks for in variable names. */
const SECRET_KEY = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;
/** Shorter values are too common as plain words to replace everywhere (as for the environment's). */
const MIN_SECRET_VALUE = 8;

/** String leaves under a secret-looking key, at any depth of a config object. */
export function configSecrets(config: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown, key: string): void => {
    if (typeof value === 'string') {
      if (SECRET_KEY.test(key) && value.length >= MIN_SECRET_VALUE) found.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item, key);
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  walk(config, '');
  return found;
}

/** Request headers that carry credentials: a shown config masks them beside the secret-looking keys. */
const CREDENTIAL_HEADER = /^(proxy-)?authorization$|^cookie$/i;

/**
 * `value` with every string under a secret-looking key (an MCP server's `env.GITHUB_TOKEN`, its `Authorization`
 * header) replaced by `mask`, for showing the config; a `${VAR}` reference is no secret and stays.
 */
export function maskSecrets(value: unknown, mask: string, key = ''): unknown {
  if (typeof value === 'string')
    return (SECRET_KEY.test(key) || CREDENTIAL_HEADER.test(key)) && !/^\$\{\w+\}$/.test(value) ? mask : value;
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, mask, key));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v, mask, k)]));
  return value;
}
