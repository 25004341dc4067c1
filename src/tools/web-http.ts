// One HTTP exchange for the web tools over node:http(s): redirects followed by hand (each hop asked of the policy
// and its host's addresses checked), the connection pinned to the checked address (no second DNS answer can
// rebind it), a timeout over the whole exchange, and the body cut at a size.
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { LookupFunction } from 'node:net';
import { checkedAddresses, type HostLookup, type ResolvedAddress } from '../safety/network.js';

export const MAX_REDIRECTS = 5;

export interface HttpRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Bytes of (decoded) body kept; the rest is not read. */
  maxBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** Loopback, link-local and private addresses allowed (safety.web.allow_private, or a configured endpoint). */
  allowPrivate: boolean;
  lookup?: HostLookup;
  /** Why an address is not public; default: privateReason (tests call loopback public). */
  classify?: (address: string) => string | undefined;
  /** Asked about each redirect's URL before it is followed: undefined lets it, a string is the refusal. */
  authorize?: (url: string) => Promise<string | undefined>;
}

export interface HttpResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** The body was longer than maxBytes and was cut there. */
  truncated: boolean;
}

/** A failure the model reads as the tool's error: refused, unreachable, timed out. */
export class WebError extends Error {}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A lookup that answers only the address already checked, whatever the resolver would say now. */
function pinned(address: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
}

function parseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebError(`not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new WebError(`only http and https URLs can be fetched, not ${parsed.protocol}`);
  if (parsed.username || parsed.password) throw new WebError('URLs with credentials are not fetched');
  return parsed;
}

function send(url: URL, request: HttpRequest, address: ResolvedAddress, method: string, body?: string) {
  return new Promise<IncomingMessage>((resolve, reject) => {
    // Loaded when a web tool first runs (https only for https URLs): none of it weighs on start-up. require, not
    // import(): the bundle runs from V8's code cache, where Node 20 has no dynamic import callback.
    const load = createRequire(import.meta.url);
    const client = (
      url.protocol === 'https:' ? load('node:https') : load('node:http')
    ) as typeof import('node:http');
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        headers: {
          'user-agent': 'Keel (web_fetch)',
          'accept-encoding': 'gzip, deflate, br',
          ...request.headers,
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
        lookup: pinned(address),
        signal: request.signal,
        agent: false,
      },
      resolve,
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Reads the decoded body up to maxBytes, then stops reading (a 20 MB page costs what was kept, not 20 MB). */
async function readBody(response: IncomingMessage, maxBytes: number) {
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  const zlib = createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  const stream: NodeJS.ReadableStream = decoder ? response.pipe(decoder) : response;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > maxBytes) {
      truncated = true;
      break;
    }
  }
  response.destroy();
  decoder?.destroy();
  const body = Buffer.concat(chunks);
  return { body: truncated ? body.subarray(0, maxBytes) : body, truncated };
}

/** Sends the request, following up to MAX_REDIRECTS redirects, each one authorized and address-checked. */
export async function httpRequest(request: HttpRequest): Promise<HttpResponse> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = AbortSignal.any([request.signal, timeout]);
  const bounded = { ...request, signal };
  let url = parseUrl(request.url);
  let method = request.method ?? 'GET';
  let body = request.body;
  try {
    // The policy judges domains: a redirect within the host already allowed is not asked about again.
    let allowedHost = url.hostname;
    for (let hop = 0; ; hop++) {
      if (url.hostname !== allowedHost) {
        const refused = await request.authorize?.(url.href);
        if (refused !== undefined) throw new WebError(`redirect to ${url.href} refused: ${refused}`);
        allowedHost = url.hostname;
      }
      const addresses = await checkedAddresses(url.hostname, {
        allowPrivate: request.allowPrivate,
        lookup: request.lookup,
        classify: request.classify,
      }).catch((error: unknown) => {
        throw error instanceof WebError ? error : new WebError(describe(error, url.hostname));
      });
      const response = await send(url, bounded, addresses[0]!, method, body);
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode ?? 0) && location) {
        response.destroy();
        if (hop >= MAX_REDIRECTS)
          throw new WebError(`more than ${MAX_REDIRECTS} redirects, last to ${location}`);
        url = parseUrl(new URL(location, url).href);
        // 303, and 301/302 after a POST, become a GET as browsers do.
        if (response.statusCode === 303 || method === 'POST') {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const read = await readBody(response, request.maxBytes);
      return {
        url: url.href,
        status: response.statusCode ?? 0,
        contentType: String(response.headers['content-type'] ?? ''),
        ...read,
      };
    }
  } catch (error) {
    if (timeout.aborted && !request.signal.aborted)
      throw new WebError(`no complete answer from ${url.host} within ${request.timeoutMs / 1000} s`);
    throw error;
  }
}

function describe(error: unknown, host: string): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `${host} could not be resolved (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/** Connection failures in words (refused, reset, TLS), for the tool's error. */
export function networkError(error: unknown, url: string): string {
  if (error instanceof WebError) return error.message;
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return `could not fetch ${url}: ${code ? `${code} ` : ''}${message}`;
}
