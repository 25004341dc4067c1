// NODE_EXTRA_CA_CERTS without its start-up cost. Node 20 reads that file and parses it, with all of its own root
// certificates, before it runs any code: about 40 ms of every start where it is set, even for a run that never makes
// a TLS connection (a local Ollama). The `keel` command (scripts/launcher.sh) hands the value to Node under
// KEEL_NODE_EXTRA_CA_CERTS instead. Here it is put back, so every process Keel starts (shells, git, MCP and language
// servers) gets it as the user set it, and Keel's own TLS connections trust those certificates as Node's would: they
// are added to the default roots when the first connection is made. Run as `node dist/keel.js`, nothing was handed
// over and Node did it all itself.
import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Tls from 'node:tls';

export const handedOver = 'KEEL_NODE_EXTRA_CA_CERTS';

// createSecureContext options that make one context differ from another; anything else (host, servername, ALPN,
// rejectUnauthorized, …) belongs to the connection, so contexts without these can be one shared context.
const contextOptions = [
  'ca',
  'cert',
  'key',
  'pfx',
  'passphrase',
  'ciphers',
  'ecdhCurve',
  'dhparam',
  'crl',
  'sigalgs',
  'privateKeyIdentifier',
  'privateKeyEngine',
  'clientCertEngine',
  'ticketKeys',
  'sessionTimeout',
  'sessionIdContext',
  'secureOptions',
  'secureProtocol',
  'honorCipherOrder',
  'minVersion',
  'maxVersion',
  'allowPartialTrustChain',
] as const;

const load = createRequire(import.meta.url);
/** What loads a TLS client from JavaScript: the modules (through require) and the global fetch. */
const tlsModules = new Set(['tls', 'node:tls', 'https', 'node:https', 'http2', 'node:http2']);

/** Calls `patch` once, before the first TLS connection can be made: at the first require of a TLS module or fetch. */
export function beforeFirstTls(patch: () => void): void {
  const modules = load('node:module') as unknown as {
    _load: (request: string, ...rest: unknown[]) => unknown;
  };
  const originalLoad = modules._load;
  const originalFetch = globalThis.fetch;
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    modules._load = originalLoad;
    if (globalThis.fetch === wrappedFetch) globalThis.fetch = originalFetch;
    patch();
  };
  modules._load = function _load(this: unknown, request: string, ...rest: unknown[]) {
    if (tlsModules.has(request)) once();
    return originalLoad.call(this, request, ...rest);
  };
  const wrappedFetch: typeof fetch = (...args) => {
    once();
    return originalFetch(...args);
  };
  globalThis.fetch = wrappedFetch;
}

/**
 * Puts a handed-over NODE_EXTRA_CA_CERTS back into `env` and has `tls` add its certificates to every context that
 * uses the default roots, from the first TLS connection on. Returns whether there was one. Nothing is loaded or read
 * until then: a run that never connects over TLS pays nothing.
 */
export function restoreExtraCa(
  env: NodeJS.ProcessEnv = process.env,
  whenTls: (patch: () => void) => void = beforeFirstTls,
  // Node's words, without the hint about --trace-warnings that emitWarning adds.
  warn: (message: string) => void = (message) => process.stderr.write(`Warning: ${message}\n`),
): boolean {
  const file = env[handedOver];
  if (file === undefined) return false;
  delete env[handedOver];
  env.NODE_EXTRA_CA_CERTS = file;
  // Node ignores an empty value.
  if (!file) return true;
  // A file that cannot be read is said at start, as Node says it (a chat's screen is not drawn yet); one that reads
  // but holds no certificate is said at the first connection, where it is parsed.
  try {
    accessSync(file, constants.R_OK);
  } catch (error) {
    warn(loadFailed(file, error));
    return true;
  }
  whenTls(() => addToDefaultRoots(load('node:tls') as typeof Tls, file, warn));
  return true;
}

function addToDefaultRoots(tls: typeof Tls, file: string, warn: (message: string) => void): void {
  const original = tls.createSecureContext;
  let extra: string | undefined;
  let shared: Tls.SecureContext | undefined;
  /** The file's certificates that are not among Node's own roots (read once; a repeated root costs time, not trust). */
  const certificates = (): string => {
    if (extra !== undefined) return extra;
    try {
      const own = new Set(tls.rootCertificates.map(squeeze));
      const pems = readFileSync(file, 'latin1').match(
        /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g,
      );
      if (!pems) throw new Error('no PEM certificate in it');
      extra = pems.filter((pem) => !own.has(squeeze(pem))).join('\n');
    } catch (error) {
      warn(loadFailed(file, error));
      extra = '';
    }
    return extra;
  };
  /** The context with the extra certificates added to its default roots (Node copies the roots before adding). */
  const withExtra = (context: Tls.SecureContext): Tls.SecureContext => {
    const pems = certificates();
    if (pems) (context.context as { addCACert(pem: string): void }).addCACert(pems);
    return context;
  };
  tls.createSecureContext = function createSecureContext(options?: Tls.SecureContextOptions) {
    // Node's rule: certificates given as `ca` replace the default roots, and the extra ones with them.
    if (options?.ca !== undefined) return original(options);
    const record = (options ?? {}) as Record<string, unknown>;
    if (contextOptions.some((key) => record[key] !== undefined)) return withExtra(original(options));
    // Building a context with a few hundred roots takes milliseconds: connections without options of their own share one.
    shared ??= withExtra(original());
    return shared;
  };
}

/** What Node says of an extra certificates file it cannot use. */
const loadFailed = (file: string, error: unknown): string =>
  `Ignoring extra certs from \`${file}\`, load failed: ${error instanceof Error ? error.message : String(error)}`;

/** A PEM without its line breaks, to compare certificates written with different wrapping. */
const squeeze = (pem: string): string => pem.replace(/\s+/g, '');
