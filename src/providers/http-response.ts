// The Response that src/providers/http-fetch.ts returns: status, headers and a web ReadableStream read from Node's
// IncomingMessage with backpressure (a read resumes the socket, a full queue pauses it), decompressed when the
// server compressed it anyway. Failures look like undici's: a broken body errors as TypeError('terminated').
import { channel } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { type HeadersInput, LightHeaders } from './http-headers.js';

/**
 * Published with the request's AbortSignal for each chunk of a body read as a stream: bytes arriving are a live
 * stream even when they parse to nothing (OpenRouter's `: OPENROUTER PROCESSING` comments), which ai-sdk.ts tells
 * the retry wrapper's idle timer.
 */
export const bodyDataChannel = 'keel:http:body-data';
const bodyData = channel(bodyDataChannel);

export interface HttpResponseInit {
  status: number;
  statusText?: string;
  /** A record, pairs, or any Headers (a Response's own). */
  headers?: HeadersInput | LightHeaders | null;
  url?: string;
  redirected?: boolean;
}

/** Where a body comes from: a web stream as given (a copy, a test's), or Node's readable it is made from on demand. */
export type BodySource = ReadableStream<Uint8Array> | { node: Readable; signal?: AbortSignal | undefined };

/** What the AI SDK, Keel's providers and fetch-json read of a fetch Response. */
export class HttpResponse {
  readonly type = 'basic';
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: LightHeaders;
  readonly url: string;
  readonly redirected: boolean;
  #body: ReadableStream<Uint8Array> | null = null;
  // The web stream is made when `body` is first asked for: text() and json() read Node's stream directly, so a
  // response read whole (Ollama's /api/show before the first model request) never loads Node's web streams.
  #node: { node: Readable; signal?: AbortSignal | undefined } | null = null;
  #used = false;

  constructor(body: BodySource | null, init: HttpResponseInit) {
    if (body && 'node' in body) {
      this.#node = body;
      watchAbort(body.node, body.signal);
    } else this.#body = body;
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.ok = init.status >= 200 && init.status <= 299;
    this.headers = new LightHeaders(init.headers as HeadersInput | undefined);
    this.url = init.url ?? '';
    this.redirected = init.redirected ?? false;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#node) {
      this.#body = bodyStream(this.#node.node, this.#node.signal);
      this.#node = null;
    }
    return this.#body;
  }

  /** As fetch's: once read, or handed to a reader (the AI SDK pipes it), it cannot be read again. */
  get bodyUsed(): boolean {
    return this.#used || (this.#body?.locked ?? false);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    if (this.#node) {
      const { node, signal } = this.#node;
      this.#node = null;
      return readWhole(node, signal);
    }
    if (!this.#body) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    const reader = this.#body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    return Buffer.concat(chunks);
  }

  async text(): Promise<string> {
    // TextDecoder drops a leading BOM, as fetch's text() does.
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  clone(): HttpResponse {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    let copy: ReadableStream<Uint8Array> | null = null;
    const body = this.body;
    if (body) [this.#body, copy] = body.tee();
    return new HttpResponse(copy, this);
  }
}

// Fetch gives these no body: 1xx informational, 204 No Content, 205 Reset Content, 304 Not Modified.
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/** The response to a request sent over node:http; the body streams from `res` until it ends, fails or is aborted. */
export function toResponse(
  res: IncomingMessage,
  request: { method: string; url: string; redirected: boolean; signal?: AbortSignal },
): HttpResponse {
  const status = res.statusCode ?? 0;
  const headers = new LightHeaders();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const init = {
    status,
    statusText: res.statusMessage ?? '',
    headers,
    url: request.url,
    redirected: request.redirected,
  };
  if (request.method === 'HEAD' || nullBodyStatuses.has(status)) {
    res.resume(); // nothing to read: the connection goes back to the pool
    return new HttpResponse(null, init);
  }
  return new HttpResponse(
    { node: decoded(res, headers.get('content-encoding')), signal: request.signal },
    init,
  );
}

/** The body with the server's content codings undone (gzip, deflate, br); unknown codings pass through raw, as in undici. */
function decoded(res: IncomingMessage, encoding: string | null): Readable {
  const codings = (encoding ?? '')
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return res;
  // require, not import(): the bundle runs from V8's code cache, where Node 20 has no dynamic import callback.
  const load = createRequire(import.meta.url);
  const zlib = load('node:zlib') as typeof import('node:zlib');
  // Flushing as data arrives keeps a compressed event stream streaming; a truncated one still yields what came.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const decoders: Readable[] = [];
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(zlib.createGunzip(flush));
    else if (coding === 'deflate') decoders.push(zlib.createInflate(flush));
    else if (coding === 'br')
      decoders.push(
        zlib.createBrotliDecompress({
          flush: zlib.constants.BROTLI_OPERATION_FLUSH,
          finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
        }),
      );
    else return res;
  }
  const { pipeline } = load('node:stream') as typeof import('node:stream');
  // pipeline destroys every stage when one fails; the last one carries the error to the body stream.
  return (pipeline as (...streams: unknown[]) => Readable)(res, ...decoders, () => {});
}

/** An abort before the body is read destroys the connection at once, as fetch's does; the read then fails with it. */
function watchAbort(source: Readable, signal: AbortSignal | undefined): void {
  if (!signal) return;
  const onAbort = () => {
    source.destroy();
  };
  if (signal.aborted) {
    onAbort();
    return;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  source.once('close', () => signal.removeEventListener('abort', onAbort));
}

/** The whole body of a Node readable, failing as the web stream below would. */
function readWhole(source: Readable, signal: AbortSignal | undefined): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (error: unknown, bytes?: Uint8Array) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (bytes) resolve(bytes);
      else {
        source.destroy();
        reject(error);
      }
    };
    const onAbort = () => settle(signal?.reason);
    // Closed while nobody read it (the connection reset after the headers): its events are gone.
    if (source.destroyed)
      return settle(new TypeError('terminated', { cause: source.errored ?? closedEarly() }));
    signal?.addEventListener('abort', onAbort, { once: true });
    source.on('data', (chunk: Buffer) => chunks.push(chunk));
    source.once('end', () => settle(undefined, Buffer.concat(chunks)));
    source.once('error', (error) => settle(new TypeError('terminated', { cause: error })));
    source.once('close', () => settle(new TypeError('terminated', { cause: closedEarly() })));
  });
}

/** A web stream over a Node readable: pulled chunk by chunk, cancel destroys it, the signal aborts it. */
function bodyStream(source: Readable, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let settled = false;
  let finish: () => void = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (error: unknown) => {
          if (settled) return;
          finish();
          controller.error(error);
          source.destroy();
        };
        const onAbort = () => fail(signal?.reason);
        finish = () => {
          settled = true;
          signal?.removeEventListener('abort', onAbort);
        };
        if (signal?.aborted) return onAbort();
        // Made after the connection closed unread (the stream is made when `body` is first asked for).
        if (source.destroyed)
          return fail(new TypeError('terminated', { cause: source.errored ?? closedEarly() }));
        signal?.addEventListener('abort', onAbort, { once: true });
        source.on('data', (chunk: Buffer) => {
          if (settled) return;
          if (signal && bodyData.hasSubscribers) bodyData.publish(signal);
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.pause(); // until the first read: the data listener alone would set it flowing
        source.once('end', () => {
          if (settled) return;
          finish();
          controller.close();
        });
        source.once('error', (error) => fail(new TypeError('terminated', { cause: error })));
        // Closed without an end or an error of its own: the connection went away mid-body.
        source.once('close', () => fail(new TypeError('terminated', { cause: closedEarly() })));
      },
      pull() {
        source.resume();
      },
      cancel() {
        if (settled) return;
        finish();
        source.destroy();
      },
    },
    // No read-ahead beyond Node's own buffer: the socket is read as the consumer reads.
    { highWaterMark: 0 },
  );
}

function closedEarly(): Error {
  return Object.assign(new Error('other side closed'), { code: 'ECONNRESET' });
}
