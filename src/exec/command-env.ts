// The environment commands get: an allowlist of variables programs need to work (as data), plus the names the
// user passes through (safety.env_passthrough). Everything else, API keys and tokens above all, stays in Keel.

/**
 * Variables every command gets when Keel has them. PWD is left out on purpose: bash sets it from the working
 * directory, while Keel's own would name the directory Keel was started in.
 */
export const SAFE_ENV_NAMES: readonly string[] = [
  // Identity, paths, shell
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
  'HOSTNAME',
  // Locale and time
  'LANG',
  'LANGUAGE',
  'TZ',
  // Terminal and output
  'TERM',
  'COLORTERM',
  'COLUMNS',
  'LINES',
  'NO_COLOR',
  'FORCE_COLOR',
  'EDITOR',
  'VISUAL',
  'PAGER',
  // Toolchains that need to find themselves
  'NODE_ENV',
  'NVM_DIR',
  'GOPATH',
  'GOROOT',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'JAVA_HOME',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CI',
  // Where the trusted certificates are (a company's proxy): without them npm, pip, curl and git fail over TLS.
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'CURL_CA_BUNDLE',
  'REQUESTS_CA_BUNDLE',
  'GIT_SSL_CAINFO',
];

/** Name prefixes of whole families of harmless variables. */
export const SAFE_ENV_PREFIXES: readonly string[] = ['LC_', 'XDG_'];

/** Does `name` match a passthrough entry: an exact name, or a prefix ending in `*` (`MYAPP_*`)? */
function passes(name: string, passthrough: readonly string[]): boolean {
  return passthrough.some((rule) =>
    rule.endsWith('*') ? name.startsWith(rule.slice(0, -1)) : name === rule,
  );
}

/** Keel's environment reduced to the allowlist plus `passthrough` (which the user chose, secrets included). */
export function commandEnv(env: NodeJS.ProcessEnv, passthrough: readonly string[] = []): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const safe = SAFE_ENV_NAMES.includes(name) || SAFE_ENV_PREFIXES.some((prefix) => name.startsWith(prefix));
    if (safe || passes(name, passthrough)) kept[name] = value;
  }
  return kept;
}
