// The gate for work that waits until a run's first model request is out: fetch sending a request opens it, so does
// a model response event (a model that does not fetch), and work given after that runs at once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch, quietHttpFetch } from '../../src/providers/http-fetch.js';
import { firstRequest } from '../../src/runtime/first-request.js';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('firstRequest', () => {
  it('holds work until a model request is out, then runs it once', async () => {
    const gate = firstRequest();
    let runs = 0;
    gate.after(() => runs++);
    gate.seen({ type: 'turn_start', turn: 1 });
    expect(runs).toBe(0);
    await (await httpFetch(url)).text();
    await (await httpFetch(url)).text();
    expect(runs).toBe(1);
    gate.dispose();
  });

  it('stays closed for fetches that are not model requests (an MCP server over HTTP)', async () => {
    const gate = firstRequest();
    let runs = 0;
    gate.after(() => runs++);
    await (await fetch(url)).text();
    expect(runs).toBe(0);
    gate.dispose();
  });

  it('opens for a model request httpFetch hands to the real fetch, once it is answered', async () => {
    const gate = firstRequest();
    let runs = 0;
    gate.after(() => runs++);
    // A Request object is one httpFetch does not send itself.
    await (await httpFetch(new Request(url))).text();
    expect(runs).toBe(1);
    gate.dispose();
  });

  it("opens when the providers' node:http client has sent a model request, not one of its quiet ones", async () => {
    const gate = firstRequest();
    let runs = 0;
    gate.after(() => runs++);
    await (await quietHttpFetch(url)).text();
    expect(runs).toBe(0);
    await (await httpFetch(url)).text();
    expect(runs).toBe(1);
    gate.dispose();
  });

  it('opens on a model response event when nothing is fetched', () => {
    const gate = firstRequest();
    let runs = 0;
    gate.after(() => runs++);
    gate.seen({ type: 'text_delta', turn: 1, delta: 'hi' });
    gate.seen({ type: 'turn_end', turn: 1, tool_calls: 0 });
    expect(runs).toBe(1);
    gate.dispose();
  });

  it('runs work given once it is open at once', () => {
    const gate = firstRequest();
    gate.seen({ type: 'usage', turn: 1, inputTokens: 1, outputTokens: 1 } as never);
    let runs = 0;
    gate.after(() => runs++);
    expect(runs).toBe(1);
    gate.dispose();
  });

  it('never runs work held when it is disposed before any request', async () => {
    const gate = firstRequest();
    let runs = 0;
    gate.after(() => runs++);
    gate.dispose();
    await (await fetch(url)).text();
    expect(runs).toBe(0);
  });
});
