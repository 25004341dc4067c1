// fetch for the providers on node:http / node:https: the global fetch is undici, whose first use costs tens of
// milliseconds of loading and compiling before the first model request. Plain requests (an http(s) URL, a string or
// byte body, headers as a record, pairs or Headers) go here; anything else is handed to the global fetch unchanged.
// Failures are shaped like undici's, so the AI SDK and providers/errors.ts classify them the same way.
import { channel } from 'node:diagnostics_channel';
import type { Agent, AgentOptions, ClientRequest, IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { type HeadersInput, LightHeaders } from './http-headers.js';
import { toResponse } from './http-response.js';

/** One request as sent: what a redirect changes is kept here. */
interface Outgoing {
  url: URL;
  method: string;
  headers: LightHeaders;
  body?: string | Uint8Array;
  redirects: number;
  announce: boolean;
}

// require, not import(): the bundle runs from V8's code cache, where Node 20 has no dynamic import callback.
const load = createRequire(import.meta.url);
const maxRedirects = 20;
// Ports fetch refuses before connecting (the Fetch standard's "bad port" list, as undici has it): the same URL
// fails here the same way, with no connection attempted.
const badPorts = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
// Fetch upper-cases these method names however they are written; others are sent as given.
const standardMethods = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH']);
// RequestInit members that change nothing for a request from Node; any other one set means "use the real fetch".
const ignoredInit = new Set([
  'method',
  'headers',
  'body',
  'signal',
  'redirect',
  'cache',
  'credentials',
  'keepalive',
  'mode',
  'priority',
  'referrer',
  'referrerPolicy',
  'window',
]);

/**
 * Published once a model request is written out (for one handed to the real fetch: once answered): work that waits
 * for a run's first model request (runtime/first-request.ts) listens here.
 */
export const requestSentChannel = 'keel:http:request-sent';
const requestSent = channel(requestSentChannel);

/** Runs `work` once, when the next model request to `origin`'s server has been written out. */
export function afterRequestSent(origin: string, work: () => void): void {
  const server = new URL(origin).origin;
  const once = (message: unknown) => {
    const { url } = message as { url: string };
    if (!URL.canParse(url) || new URL(url).origin !== server) return;
    requestSent.unsubscribe(once);
    work();
  };
  requestSent.subscribe(once);
}

/** fetch for model requests: each one sent is announced on requestSentChannel. */
export const httpFetch: typeof fetch = (input, init) => fetchOver(input, init, true);

/** The same for requests that are not the model's (/api/show, model lists), which must not open that gate. */
export const quietHttpFetch: typeof fetch = (input, init) => fetchOver(input, init, false);

function fetchOver(
  input: Parameters<typeof fetch>[0],
  init: RequestInit | undefined,
  announce: boolean,
): Promise<Response> {
  let outgoing: Outgoing | undefined;
  try {
    outgoing = plainRequest(input, init, announce);
  } catch (error) {
    return Promise.reject(error);
  }
  if (!outgoing) {
    const answered = globalThis.fetch(input, init);
    // The real fetch announces nothing of Keel's: its model request is announced once answered.
    if (announce)
      answered.then(
        () => requestSent.hasSubscribers && requestSent.publish({ url: String(input) }),
        () => {},
      );
    return answered;
  }
  return send(outgoing, init?.signal ?? undefined) as Promise<unknown> as Promise<Response>;
}

/** The request when httpFetch can send it itself; undefined for what only the real fetch does right. */
function plainRequest(
  input: Parameters<typeof fetch>[0],
  init: RequestInit | undefined,
  announce: boolean,
): Outgoing | undefined {
  // A Request (or anything else) is not looked at: testing `instanceof Request` alone would load undici.
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  for (const [key, value] of Object.entries(init ?? {}))
    if (value !== undefined && !ignoredInit.has(key)) return undefined;
  if (init?.redirect !== undefined && init.redirect !== 'follow') return undefined;
  const body = init?.body ?? undefined;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) return undefined;
  const method = init?.method ?? 'GET';
  const upper = method.toUpperCase();
  // A GET or HEAD with a body is an error fetch words itself.
  if (body !== undefined && (upper === 'GET' || upper === 'HEAD')) return undefined;
  let url: URL;
  try {
    url = new URL(String(input));
  } catch (error) {
    throw new TypeError(`Failed to parse URL from ${String(input)}`, { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined; // fetch refuses credentials in a URL; let it say so
  const headers = new LightHeaders(init?.headers as HeadersInput | undefined);
  return { url, method: standardMethods.has(upper) ? upper : method, headers, body, redirects: 0, announce };
}

// Preconnect: the connection to a provider (TCP, and TLS for https) is opened while the run is assembled, so the
// first request is written at once instead of waiting for its handshakes. One socket an origin, taken by the first
// request there (through the agents below) or closed after WARM_MS (the chat's first message may take a while); it
// never keeps the process alive.
const WARM_MS = 30_000;
const warm = new Map<string, Socket>();
/** Sockets opened by preconnect: a reset on one before any answer is retried once, as on a kept-alive one. */
const preconnected = new WeakSet<object>();

const originKey = (https: boolean, host: string, port: number) =>
  `${https ? 'https' : 'http'}://${host}:${port}`;

/**
 * Opens the connection a request to `base` (a provider's http(s) URL) will use, unless one is open or waiting.
 * Nothing is sent on it; a failure to connect is left for the request itself to meet and report.
 */
export function preconnect(base: string): void {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return;
  }
  const https = url.protocol === 'https:';
  if ((!https && url.protocol !== 'http:') || url.username || url.password) return;
  const port = Number(url.port || (https ? 443 : 80));
  if (badPorts.has(port)) return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const key = originKey(https, host, port);
  if (warm.has(key) || connectedTo(https, host, port)) return;
  const net = load('node:net') as typeof import('node:net');
  const socket: Socket = https
    ? (load('node:tls') as typeof import('node:tls')).connect({
        host,
        port,
        // As Node's https agent names the server: by its host name, not an IP address.
        ...(net.isIP(host) ? {} : { servername: host }),
      })
    : net.connect({ host, port });
  // As the agents make their own (net options noDelay and keepAlive): no Nagle delay between a request's head and
  // its body, and TCP keep-alive probes on a long wait for an answer.
  socket.setNoDelay(true);
  socket.setKeepAlive(true);
  socket.unref();
  preconnected.add(socket);
  warm.set(key, socket);
  const drop = () => {
    if (warm.get(key) !== socket) return;
    warm.delete(key);
    socket.destroy();
  };
  socket.once('error', drop);
  socket.once('close', drop);
  setTimeout(drop, WARM_MS).unref();
}

/** Whether the agent holds a connection to this origin already (a request's, or one kept alive after it). */
function connectedTo(https: boolean, host: string, port: number): boolean {
  const agent = agents[https ? 'https' : 'http'];
  if (!agent) return false;
  // The agent's names for its connections begin with host:port: (then the TLS options, for https).
  const prefix = `${host}:${port}:`;
  return [agent.sockets, agent.freeSockets].some((pool) =>
    Object.keys(pool).some((name) => name.startsWith(prefix)),
  );
}

/** The socket preconnect opened for this origin, if it is still usable; it is the caller's from here. */
function takeWarm(https: boolean, host: string | null | undefined, port: unknown): Socket | undefined {
  const key = originKey(https, host ?? 'localhost', Number(port));
  const socket = warm.get(key);
  if (!socket) return undefined;
  warm.delete(key);
  if (socket.destroyed || socket.readableEnded) return undefined;
  socket.ref();
  return socket;
}

// The agents model requests go through: Node's global agents' settings, and a preconnected socket taken first.
const agents: { http?: Agent; https?: Agent } = {};

function agentFor(https: boolean): Agent {
  const name = https ? 'https' : 'http';
  const existing = agents[name];
  if (existing) return existing;
  const Base = (load(`node:${name}`) as typeof import('node:http')).Agent;
  class WarmAgent extends Base {
    override createConnection(
      options: { host?: string | null; port?: unknown },
      callback?: (error: Error | null, socket: Socket) => void,
    ): Socket {
      const socket = takeWarm(https, options.host, options.port);
      if (socket) return socket;
      return (Base.prototype as unknown as WarmAgent).createConnection.call(this, options, callback);
    }
  }
  // Node 20's global agents: kept alive, the most recently used socket first, idle ones closed after 5 s.
  const options: AgentOptions & { scheduling: 'lifo' } = {
    keepAlive: true,
    scheduling: 'lifo',
    timeout: 5000,
  };
  const agent = new WarmAgent(options);
  agents[name] = agent;
  return agent;
}

/** Sends the request, following redirects as fetch does. */
async function send(outgoing: Outgoing, signal: AbortSignal | undefined) {
  let current = outgoing;
  for (;;) {
    if (badPorts.has(Number(current.url.port)))
      throw new TypeError('fetch failed', { cause: new Error('bad port') });
    const res = await exchange(current, signal);
    const location = res.headers.location;
    if (redirectStatuses.has(res.statusCode ?? 0) && location !== undefined) {
      res.resume(); // the redirect's own body is not wanted; draining it frees the connection
      current = redirected(current, res.statusCode!, location);
      continue;
    }
    if (signal?.aborted) {
      res.destroy();
      throw signal.reason;
    }
    const url = new URL(current.url);
    url.hash = '';
    return toResponse(res, {
      method: current.method,
      url: url.href,
      redirected: current.redirects > 0,
      signal,
    });
  }
}

/** One request and its response head. A connection failure rejects as fetch's TypeError('fetch failed'). */
function exchange(
  outgoing: Outgoing,
  signal: AbortSignal | undefined,
  again = false,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const https = outgoing.url.protocol === 'https:';
    const { request } = (https ? load('node:https') : load('node:http')) as typeof import('node:http');
    const req: ClientRequest = request(outgoing.url, {
      method: outgoing.method,
      headers: wireHeaders(outgoing),
      agent: agentFor(https),
    });
    const onAbort = () => {
      reject(signal?.reason);
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let answered = false;
    req.once('response', (res) => {
      answered = true;
      signal?.removeEventListener('abort', onAbort);
      resolve(res);
    });
    req.on('error', (error: Error & { code?: string }) => {
      signal?.removeEventListener('abort', onAbort);
      // Once answered, a reset is the body's to report (its stream errors): the request reached the server and is
      // never sent again here, or the provider would serve (and bill) it twice.
      if (answered) return;
      if (signal?.aborted) return reject(signal.reason);
      // A kept-alive connection the server closed as we reused it: the request never reached it, so send it again
      // once on a fresh connection (Node's documented remedy; undici retries this case too).
      // The same for a connection preconnect opened, which the server may have closed unused.
      if (!again && (req.reusedSocket || preconnected.has(req.socket ?? {})) && error.code === 'ECONNRESET')
        return resolve(exchange(outgoing, signal, true));
      reject(new TypeError('fetch failed', { cause: error }));
    });
    if (outgoing.announce && requestSent.hasSubscribers)
      req.once('finish', () => requestSent.publish({ url: outgoing.url.href }));
    req.end(outgoing.body);
  });
}

/** The headers on the wire: the caller's, with the defaults fetch adds when they are missing. */
function wireHeaders(outgoing: Outgoing): Record<string, string> {
  const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'node' };
  for (const name of outgoing.headers.keys()) headers[name] = outgoing.headers.get(name)!;
  const { body, method } = outgoing;
  if (typeof body === 'string' && !outgoing.headers.has('content-type'))
    headers['content-type'] = 'text/plain;charset=UTF-8';
  // Fetch always says how long the body is (0 for a POST or PUT without one); Node would otherwise chunk it.
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  else if (method === 'POST' || method === 'PUT' || method === 'PATCH') headers['content-length'] = '0';
  return headers;
}

// Request-body headers dropped when a redirect turns the request into a GET (Fetch standard, HTTP-redirect fetch).
const bodyHeaders = [
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
  'content-length',
];
// Credentials that do not follow a redirect to another origin: fetch's, and the API-key headers of the providers
// (Anthropic's, Gemini's, Azure-style), which fetch itself would carry along.
const originHeaders = [
  'authorization',
  'cookie',
  'proxy-authorization',
  'host',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
];

/** The request a redirect asks for: 303 (and a POST's 301/302) becomes a GET without a body; 307/308 keep both. */
function redirected(outgoing: Outgoing, status: number, location: string): Outgoing {
  if (outgoing.redirects >= maxRedirects)
    throw new TypeError('fetch failed', { cause: new Error('redirect count exceeded') });
  let url: URL;
  try {
    url = new URL(location, outgoing.url);
  } catch (error) {
    throw new TypeError('fetch failed', { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError('fetch failed', { cause: new Error('URL scheme must be a HTTP(S) scheme') });
  const headers = new LightHeaders(outgoing.headers);
  let { method, body } = outgoing;
  const toGet = status === 303 ? method !== 'GET' && method !== 'HEAD' : status <= 302 && method === 'POST';
  if (toGet) {
    method = 'GET';
    body = undefined;
    for (const name of bodyHeaders) headers.delete(name);
  }
  if (url.origin !== outgoing.url.origin) for (const name of originHeaders) headers.delete(name);
  return { ...outgoing, url, method, headers, body, redirects: outgoing.redirects + 1 };
}
