// httpFetch against a loopback node:http server: streaming, aborts, failures shaped like undici's, compressed
// bodies, redirects, and the requests it hands to the global fetch.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { httpFetch, preconnect } from '../../src/providers/http-fetch.js';
import { freePort } from './helpers.js';

let server: Server;
let base: string;
/** Resolved by the test to let /stream send its second chunk: proof that the first arrived alone. */
let release: () => void = () => {};
/** Requests /reset-counted received. */
let resets = 0;

const routes: Record<string, (req: IncomingMessage, res: ServerResponse, body: string) => void> = {
  '/echo': (req, res, body) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-Multi', ['a', 'b']);
    res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
  },
  '/stream': (_req, res) => {
    res.write('first;');
    release = () => res.end('second');
  },
  '/hang': () => {},
  '/reset': (_req, res) => {
    res.write('partial');
    setImmediate(() => res.socket?.resetAndDestroy());
  },
  '/reset-counted': (_req, res) => {
    resets += 1;
    // Mid-stream, as a provider's stream breaks: the head and a chunk reach the client, then the reset.
    res.write('partial', () => setTimeout(() => res.socket?.resetAndDestroy(), 20));
  },
  '/gzip': (_req, res) => compressed(res, 'gzip', gzipSync('zipped text')),
  '/deflate': (_req, res) => compressed(res, 'deflate', deflateSync('deflated text')),
  '/br': (_req, res) => compressed(res, 'br', brotliCompressSync('brotli text')),
  '/empty': (_req, res) => res.writeHead(204).end(),
  '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
};

function compressed(res: ServerResponse, encoding: string, bytes: Buffer) {
  res.writeHead(200, { 'content-encoding': encoding, 'content-length': bytes.length });
  res.end(bytes);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const redirect = /^\/redirect\/(\d+)$/.exec(url.pathname);
      if (redirect) {
        res.writeHead(Number(redirect[1]), { location: url.searchParams.get('to') ?? '/echo' });
        res.end('moved');
        return;
      }
      (routes[url.pathname] ?? routes['/echo']!)(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => vi.restoreAllMocks());

type Echo = { method: string; url: string; headers: Record<string, string>; body: string };

describe('httpFetch sends requests and reads responses as fetch does', () => {
  it('sends the method, headers and body, and reads status, headers and JSON', async () => {
    const response = await httpFetch(`${base}/echo`, {
      method: 'post',
      headers: { 'Content-Type': 'application/json', 'X-Key': 'k' },
      body: '{"a":1}',
    });
    expect([response.status, response.ok, response.url, response.redirected]).toEqual([
      200,
      true,
      `${base}/echo`,
      false,
    ]);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(response.headers.get('x-multi')).toBe('a, b');
    const echo = (await response.json()) as Echo;
    expect(echo).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(echo.headers).toMatchObject({
      'content-type': 'application/json',
      'x-key': 'k',
      'content-length': '7',
    });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it.each([
    ['pairs', [['X-A', '1']] as [string, string][]],
    ['a fetch Headers', new Headers({ 'x-a': '1' })],
  ])('takes request headers as %s', async (_kind, headers) => {
    const echo = (await (await httpFetch(`${base}/echo`, { headers })).json()) as Echo;
    expect(echo.headers['x-a']).toBe('1');
  });

  it('sends a byte body as it is', async () => {
    const response = await httpFetch(`${base}/echo`, {
      method: 'PUT',
      body: new TextEncoder().encode('bytes'),
    });
    expect(((await response.json()) as Echo).body).toBe('bytes');
  });

  it('streams the body chunk by chunk, before the server has ended it', async () => {
    const reader = (await httpFetch(`${base}/stream`)).body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe('first;');
    release();
    expect(decoder.decode((await reader.read()).value)).toBe('second');
    expect((await reader.read()).done).toBe(true);
  });

  it('gives a 204 no body', async () => {
    const response = await httpFetch(`${base}/empty`);
    expect([response.status, response.body]).toEqual([204, null]);
  });

  it.each([
    ['gzip', 'zipped text'],
    ['deflate', 'deflated text'],
    ['br', 'brotli text'],
  ])('decompresses a %s body the server compressed unasked', async (encoding, text) => {
    const response = await httpFetch(`${base}/${encoding}`);
    expect(await response.text()).toBe(text);
    expect(response.headers.get('content-encoding')).toBe(encoding);
  });
});

describe('httpFetch follows redirects as fetch does', () => {
  it('turns a POST into a GET without its body on 303', async () => {
    const response = await httpFetch(`${base}/redirect/303?to=/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const echo = (await response.json()) as Echo;
    expect([echo.method, echo.body, echo.headers['content-type']]).toEqual(['GET', '', undefined]);
    expect([response.redirected, response.url]).toEqual([true, `${base}/echo`]);
  });

  it.each([307, 308])('keeps the method and body on %i', async (status) => {
    const response = await httpFetch(`${base}/redirect/${status}?to=/echo`, { method: 'POST', body: 'kept' });
    expect((await response.json()) as Echo).toMatchObject({ method: 'POST', body: 'kept' });
  });

  it("drops the authorization and providers' API-key headers on a redirect to another origin", async () => {
    const other = base.replace('127.0.0.1', 'localhost');
    const response = await httpFetch(`${base}/redirect/302?to=${other}/echo`, {
      headers: { authorization: 'Bearer secret', 'x-api-key': 'k1', 'x-goog-api-key': 'k2', 'x-keep': 'yes' },
    });
    const { headers } = (await response.json()) as Echo;
    expect([
      headers.authorization,
      headers['x-api-key'],
      headers['x-goog-api-key'],
      headers['x-keep'],
    ]).toEqual([undefined, undefined, undefined, 'yes']);
  });

  it('fails after 20 redirects', async () => {
    const error = await httpFetch(`${base}/loop`).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
  });
});

describe('httpFetch fails as undici does', () => {
  it('rejects a refused connection with TypeError("fetch failed") caused by ECONNREFUSED', async () => {
    const error = await httpFetch(`http://127.0.0.1:${await freePort()}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });

  it('refuses a port fetch blocks, before connecting', async () => {
    const error = await httpFetch('http://127.0.0.1:9/').catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'fetch failed', cause: { message: 'bad port' } });
  });

  it('rejects with the signal reason when aborted before the response', async () => {
    const controller = new AbortController();
    const pending = httpFetch(`${base}/hang`, { signal: controller.signal });
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('rejects an already aborted signal with an AbortError', async () => {
    const error = await httpFetch(`${base}/echo`, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
  });

  it('errors the body with the signal reason when aborted mid-body', async () => {
    const controller = new AbortController();
    const reader = (await httpFetch(`${base}/stream`, { signal: controller.signal })).body!.getReader();
    await reader.read();
    controller.abort();
    const error = await reader.read().catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
  });

  it('rejects text() with the signal reason when aborted mid-body', async () => {
    const controller = new AbortController();
    const response = await httpFetch(`${base}/stream`, { signal: controller.signal });
    const reading = response.text().catch((e: unknown) => e);
    const reason = new Error('stop');
    controller.abort(reason);
    expect(await reading).toBe(reason);
  });

  it('rejects text() with the signal reason when aborted before the body is read', async () => {
    const controller = new AbortController();
    const response = await httpFetch(`${base}/stream`, { signal: controller.signal });
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(response.text()).rejects.toBe(reason);
  });

  it('reads a body once, whether as a stream or whole', async () => {
    const streamed = await httpFetch(`${base}/echo`, { method: 'POST', body: 'one' });
    await streamed.body!.getReader().read();
    expect(streamed.bodyUsed).toBe(true);
    await expect(streamed.text()).rejects.toThrow(TypeError);
    const whole = await httpFetch(`${base}/echo`, { method: 'POST', body: 'two' });
    await whole.text();
    expect(whole.bodyUsed).toBe(true);
    await expect(whole.text()).rejects.toThrow(TypeError);
  });

  it('errors the body with TypeError("terminated") caused by ECONNRESET when the connection resets mid-body', async () => {
    const response = await httpFetch(`${base}/reset`);
    const error = await response.text().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ message: 'terminated', cause: { code: 'ECONNRESET' } });
  });

  it.each([
    ['text()', (response: Response) => response.text()],
    ['the body stream', (response: Response) => response.body!.getReader().read()],
  ])(
    'fails %s with TypeError("terminated") when the connection reset before it was read',
    async (_name, read) => {
      const response = await httpFetch(`${base}/reset`);
      // The reset arrives and closes the response while nobody reads it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const error = await read(response).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect(error).toMatchObject({ message: 'terminated' });
    },
  );

  it('never sends a request again when a reused connection resets after the response began (it reached the server)', async () => {
    await (await httpFetch(`${base}/echo`)).text(); // a kept-alive connection, reused next
    resets = 0;
    const response = await httpFetch(`${base}/reset-counted`);
    await expect(response.text()).rejects.toMatchObject({ message: 'terminated' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(resets).toBe(1);
  });

  it('rejects a URL it cannot parse with a TypeError', async () => {
    await expect(httpFetch('not a url')).rejects.toThrow(TypeError);
  });
});

describe('httpFetch hands anything but a plain request to the global fetch', () => {
  const cases: [string, () => Parameters<typeof fetch>][] = [
    ['a Request', () => [new Request(`${base}/echo`)]],
    ['redirect: manual', () => [`${base}/echo`, { redirect: 'manual' }]],
    ['a FormData body', () => [`${base}/echo`, { method: 'POST', body: new FormData() }]],
    ['a data: URL', () => ['data:text/plain,hi']],
    ['an unknown option', () => [`${base}/echo`, { dispatcher: {} } as RequestInit]],
  ];

  it.each(cases)('%s', async (_name, args) => {
    const answer = new Response('delegated');
    const spy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(answer);
    const [input, init] = args();
    expect(await httpFetch(input, init)).toBe(answer);
    expect(spy).toHaveBeenCalledWith(input, init);
  });
});

describe('preconnect opens the connection a provider request then goes out on', () => {
  /** A server of its own that counts connections; `greet` decides what each new connection meets. */
  async function counting(greet: (socket: Socket, nth: number) => void = () => {}) {
    let connections = 0;
    const own = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end(`served on connection ${connections}`));
    });
    own.on('connection', (socket) => greet(socket, ++connections));
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(own.address() as { port: number }).port}`;
    return {
      url,
      connections: () => connections,
      async close() {
        own.closeAllConnections();
        await new Promise((resolve) => own.close(resolve));
      },
    };
  }
  const until = async (holds: () => boolean) => {
    for (let i = 0; i < 200 && !holds(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(holds()).toBe(true);
  };

  it('sends the first request on the connection opened ahead of it, and only one is opened however often asked', async () => {
    const own = await counting();
    try {
      preconnect(`${own.url}/v1`);
      preconnect(own.url);
      await until(() => own.connections() === 1);
      const response = await httpFetch(`${own.url}/v1/chat`, { method: 'POST', body: '{}' });
      expect(await response.text()).toBe('served on connection 1');
      expect(own.connections()).toBe(1);
    } finally {
      await own.close();
    }
  });

  it('sends the request on a new connection when the server closed the one opened ahead, before or as it is used', async () => {
    // Closed at once, unused: the request finds it gone. Reset as the request arrives: the request is sent again.
    for (const drop of [
      (socket: Socket) => socket.destroy(),
      (socket: Socket) => socket.once('data', () => socket.resetAndDestroy()),
    ]) {
      const own = await counting((socket, nth) => nth === 1 && drop(socket));
      try {
        preconnect(own.url);
        await until(() => own.connections() === 1);
        const response = await httpFetch(`${own.url}/echo`);
        expect(await response.text()).toBe('served on connection 2');
      } finally {
        await own.close();
      }
    }
  });

  it('opens nothing where a connection is kept alive already (a later model of the same run)', async () => {
    const own = await counting();
    try {
      await (await httpFetch(`${own.url}/a`)).text();
      preconnect(own.url);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(await (await httpFetch(`${own.url}/b`)).text()).toBe('served on connection 1');
      expect(own.connections()).toBe(1);
    } finally {
      await own.close();
    }
  });

  it('leaves a refused connection for the request to report, as fetch reports it', async () => {
    const port = await freePort();
    preconnect(`http://127.0.0.1:${port}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(httpFetch(`http://127.0.0.1:${port}/x`)).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { code: 'ECONNREFUSED' },
    });
  });

  it('opens nothing for what fetch would refuse or is no http(s) URL, and never throws', async () => {
    const own = await counting();
    try {
      const { port } = new URL(own.url);
      for (const url of ['not a url', `ftp://127.0.0.1:${port}/`, `http://user:pw@127.0.0.1:${port}/`])
        expect(() => preconnect(url)).not.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(own.connections()).toBe(0);
    } finally {
      await own.close();
    }
  });
});
