// Tests for web_fetch and web_search against a local HTTP server: pages to Markdown, redirects each checked by the
// policy and the address check, the body cap, dry run, per-domain approval, condensing, and each search API.
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import type { ApprovalRequest } from '../../src/core/approval.js';
import { ApprovalMemory } from '../../src/safety/approval-memory.js';
import { privateReason } from '../../src/safety/network.js';
import { createPolicy, type ExecutionMode } from '../../src/safety/policy.js';
import { type ExecutorContext, executeToolCall } from '../../src/tools/executor.js';
import { createOutputStore } from '../../src/tools/output-cap.js';
import { createRegistry } from '../../src/tools/registry.js';
import type { SearchEndpoint, ToolContext, WebAccess } from '../../src/tools/tool.js';
import { webFetchTool } from '../../src/tools/web-fetch.js';
import { decodeBody, htmlToMarkdown } from '../../src/tools/web-page.js';
import { webSearchTool } from '../../src/tools/web-search.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

const ARTICLE = `<!doctype html><html><head><title>Release notes</title></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Version 2.0</h1><p>The <strong>new API</strong> replaces <code>connect()</code> with
<code>open()</code>. Every caller must change, and this paragraph is long enough for Readability to keep it.</p>
<pre><code>const c = open('db');</code></pre><ul><li>faster start</li><li>smaller bundle</li></ul></article>
<script>alert('x')</script></body></html>`;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const TABLE_PAGE = `<!doctype html><html><head><title>Options</title></head><body><article>
<h1>Options</h1><p>Every option the command takes is listed here, with its default, and this paragraph is long
enough for Readability to keep the article it belongs to. See <a href="guide.html">the guide</a> and
<a href="https://example.com/x">elsewhere</a>.</p><img src="/static/logo.png" alt="logo">
<table><thead><tr><th>Option</th><th>Default</th></tr></thead>
<tbody><tr><td><code>--json</code></td><td>off</td></tr></tbody></table>
<div class="highlight highlight-source-js"><pre>const a = 1;</pre></div>
</article></body></html>`;

const requests: { url: string; method: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
let server: http.Server;
let port: number;
let ws: TestWorkspace;

function route(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
  const url = new URL(req.url ?? '/', 'http://x');
  const json = (value: unknown) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  switch (url.pathname) {
    case '/page.html':
      return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    case '/app.html':
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<!doctype html><html><head><title>My App</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>',
        );
    case '/gzip.html':
      return res
        .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
        .end(gzipSync(ARTICLE));
    case '/notes.txt':
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('<b>kept</b> as is\n');
    case '/data.bin':
      return res
        .writeHead(200, { 'content-type': 'application/octet-stream' })
        .end(Buffer.from([1, 0, 2, 0]));
    case '/pic.png':
      return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64));
    case '/dot.png':
      return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    case '/docs/table.html':
      return res.writeHead(200, { 'content-type': 'text/html' }).end(TABLE_PAGE);
    case '/missing':
      return res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    case '/to-page':
      return res.writeHead(302, { location: '/page.html' }).end();
    case '/to-private':
      return res.writeHead(302, { location: 'http://internal.test/secret' }).end();
    case '/to-other':
      return res.writeHead(301, { location: `http://other.test:${port}/notes.txt` }).end();
    case '/loop':
      return res.writeHead(302, { location: '/loop' }).end();
    case '/huge': {
      // 20 MB of text, written as the client reads: the client stops at its cap and closes.
      res.writeHead(200, { 'content-type': 'text/plain' });
      const line = `${'x'.repeat(65_535)}\n`;
      let sent = 0;
      const more = () => {
        while (sent < 20 * 16) {
          sent++;
          if (!res.write(line)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => {});
      return more();
    }
    case '/brave/search':
      return json({
        web: {
          results: [
            {
              title: 'Node <strong>20</strong>',
              url: 'https://nodejs.org/en/blog/20',
              description: 'The <strong>release</strong>',
            },
            { title: 'Second', url: 'https://b.example/2', description: 'two' },
          ],
        },
      });
    case '/tavily/search':
      return json({ results: [{ title: 'Tavily hit', url: 'https://t.example/1', content: 'from tavily' }] });
    case '/searx/search':
      return json({ results: [{ title: 'Searx hit', url: 'https://s.example/1', content: null }] });
    default:
      return res.writeHead(404).end(body);
  }
}

/** public.test and other.test are "public" hosts that land on this server; internal.test is a private address. */
const web = (extra: Partial<WebAccess> = {}): WebAccess => ({
  allowPrivate: false,
  lookup: async (host) => [{ address: host === 'internal.test' ? '10.0.0.5' : '127.0.0.1', family: 4 }],
  classify: (address) => (address === '127.0.0.1' ? undefined : privateReason(address)),
  ...extra,
});

const registry = createRegistry([webFetchTool, webSearchTool]);
const page = (p: string) => `http://public.test:${port}${p}`;

async function run(
  name: string,
  args: Record<string, unknown>,
  options: {
    mode?: ExecutionMode;
    held?: Partial<ExecutorContext>;
    ctx?: Partial<ToolContext>;
    domains?: string[];
  } = {},
) {
  const config = configSchema.parse({ safety: { web: { allow_domains: options.domains ?? [] } } });
  const policy = createPolicy({ mode: options.mode ?? 'auto', workspace: ws.ctx.workspace, config });
  const held: ExecutorContext = { registry, policy, ...options.held };
  const ctx: ToolContext = { ...ws.ctx, web: web(), ...options.ctx };
  return executeToolCall({ id: 'call-1', name, input: JSON.stringify(args) }, 1, held, ctx);
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      requests.push({ url: req.url ?? '', method: req.method ?? '', headers: req.headers, body });
      route(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  ws = await makeWorkspace();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await ws.cleanup();
});

beforeEach(() => {
  requests.length = 0;
  ws.events.length = 0;
});

describe('a page body decoded as browsers decode it', () => {
  // "Привет" in windows-1251, and "café" in latin1.
  const ru = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]);
  const cafe = Buffer.from('caf\u00e9', 'latin1');
  const html = (head: string, body: Buffer) =>
    Buffer.concat([Buffer.from(`<html><head>${head}</head><body>`), body]);
  test.each([
    ['the content type', 'text/html; charset=windows-1251', html('', ru), 'Привет'],
    ['<meta charset>', 'text/html', html('<meta charset="windows-1251">', ru), 'Привет'],
    [
      '<meta http-equiv>',
      'text/html',
      html('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">', cafe),
      'café',
    ],
    [
      'the content type over <meta>',
      'text/html; charset=windows-1251',
      html('<meta charset="utf-8">', ru),
      'Привет',
    ],
    [
      'the XML declaration',
      'application/xml',
      Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>'), cafe]),
      'café',
    ],
    [
      'a UTF-16 byte order mark',
      'text/html; charset=windows-1251',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>ok', 'utf16le')]),
      '<p>ok',
    ],
    ['nothing: UTF-8', 'text/html', Buffer.from('<p>caf\u00e9'), 'café'],
    ['an unknown name: UTF-8', 'text/html; charset=x-nothing', Buffer.from('<p>caf\u00e9'), 'café'],
  ])('by %s', (_by, contentType, body, expected) => {
    expect(decodeBody(contentType, body)).toContain(expected);
  });
});

describe('a page whose <html>, <head> or <body> tags are left out, as HTML allows', () => {
  const text = 'The new API replaces connect() with open(), and every caller must change.';
  test.each([
    [
      'a minified page',
      `<!doctype html><html lang=en><meta charset=utf-8><title>Notes</title><p>${text}<p>Second`,
    ],
    ['no <html> tag', `<!doctype html><title>Notes</title><style>p{}</style><p>${text}</p><p>Second</p>`],
    [
      '<head> and <body> without <html>',
      `<head><title>Notes</title></head><body><p>${text}</p><p>Second</p></body>`,
    ],
    ['a fragment', `<p>${text}</p>\n<p>Second</p>`],
    [
      'a whole document',
      `<!doctype html><html><head><title>Notes</title></head><body><p>${text}</p><p>Second</p></body></html>`,
    ],
  ])('%s keeps its content', (_shape, html) => {
    const page = htmlToMarkdown(html, 'http://example.com/notes');
    expect(page.markdown).toContain(text);
    expect(page.markdown).toContain('Second');
    expect(page.markdown).not.toContain('p{}');
    if (html.includes('<title>')) expect(page.title).toBe('Notes');
  });
});

describe('a page its scripts fill in', () => {
  test('says it has no text without JavaScript, rather than a bare title', async () => {
    const result = await run('web_fetch', { url: page('/app.html') });
    expect(result.output).toMatch(/^# My App\n\n\[the page has no text without running its scripts/);
  });
});

describe('web_fetch', () => {
  test('turns an HTML page into Markdown: its title, article, code block and list, without scripts or navigation', async () => {
    const result = await run('web_fetch', { url: page('/page.html') });
    expect(result.success).toBe(true);
    expect(result.output).toMatch(/^# Release notes\n/);
    expect(result.output).toContain('The **new API** replaces `connect()` with `open()`');
    expect(result.output).toContain("```\nconst c = open('db');\n```");
    expect(result.output).toMatch(/^-\s+faster start$/m);
    expect(result.output).not.toContain('alert');
    expect(result.output).not.toContain('About');
    expect(requests[0]?.headers.host).toBe(`public.test:${port}`);
  });

  test('decodes a gzip-encoded page', async () => {
    const result = await run('web_fetch', { url: page('/gzip.html') });
    expect(result.output).toContain('The **new API**');
  });

  test('returns text as it is', async () => {
    const result = await run('web_fetch', { url: page('/notes.txt') });
    expect(result.output).toBe('<b>kept</b> as is\n');
  });

  test('refuses a binary body; an image comes back as an image part, described when its bytes are no image', async () => {
    const binary = await run('web_fetch', { url: page('/data.bin') });
    expect(binary.error).toMatch(/is binary \(application\/octet-stream\)/);
    const image = await run('web_fetch', { url: page('/dot.png') });
    expect(image.output).toMatch(/^image image\/png, \d+ bytes, from http/);
    expect(image.images).toEqual([
      expect.objectContaining({ mediaType: 'image/png', data: PNG.toString('base64') }),
    ]);
    const notImage = await run('web_fetch', { url: page('/pic.png') });
    expect(notImage.output).toMatch(/^\[image: image\/png, 64 bytes, from .*cannot show it/);
    expect(notImage.images).toBeUndefined();
  });

  test('keeps tables and highlighted code blocks, and makes relative links and images absolute', async () => {
    const result = await run('web_fetch', { url: page('/docs/table.html') });
    expect(result.output).toContain('| Option | Default |');
    expect(result.output).toContain('| `--json` | off |');
    expect(result.output).toMatch(/```js\nconst a = 1;\n```/);
    expect(result.output).toContain(`[the guide](${page('/docs/guide.html')})`);
    expect(result.output).toContain(`![logo](${page('/static/logo.png')})`);
    expect(result.output).toContain('[elsewhere](https://example.com/x)');
  });

  test('an HTTP error is a failure naming the status', async () => {
    const result = await run('web_fetch', { url: page('/missing') });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^HTTP 404 from .*\/missing:\nno such page/);
  });

  test('follows a redirect and says where it landed', async () => {
    const result = await run('web_fetch', { url: page('/to-page') });
    expect(result.output).toMatch(
      new RegExp(`^\\[redirected to ${page('/page.html').replace(/\./g, '\\.')}\\]`),
    );
  });

  test('refuses a redirect to a private address, without connecting to it', async () => {
    const result = await run('web_fetch', { url: page('/to-private') });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/internal\.test resolves to 10\.0\.0\.5, a private address/);
    expect(requests.map((r) => r.url)).toEqual(['/to-private']);
  });

  test('refuses a loopback address unless safety.web.allow_private', async () => {
    const url = `http://127.0.0.1:${port}/notes.txt`;
    const refused = await run('web_fetch', { url }, { ctx: { web: { allowPrivate: false } } });
    expect(refused.error).toMatch(/127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address.*allow_private/);
    const allowed = await run('web_fetch', { url }, { ctx: { web: { allowPrivate: true } } });
    expect(allowed.output).toBe('<b>kept</b> as is\n');
  });

  test('stops after five redirects', async () => {
    const result = await run('web_fetch', { url: page('/loop') });
    expect(result.error).toMatch(/more than 5 redirects/);
    expect(requests).toHaveLength(6);
  });

  test('reads a 20 MB page only up to the cap, and says it was cut', async () => {
    const result = await run('web_fetch', { url: page('/huge') });
    expect(result.success).toBe(true);
    expect(result.metadata.bytes).toBe(5 * 1024 * 1024);
    expect(result.metadata.body_truncated).toBe(true);
    expect(result.output).toMatch(/\[page cut: only its first 5 MB were read\]$/);
  });

  test('condensing a page larger than the request takes says the summary covers its start only', async () => {
    const seen: string[] = [];
    const condense = async (text: string) => {
      seen.push(text);
      return 'All x.';
    };
    const result = await run(
      'web_fetch',
      { url: page('/huge'), prompt: 'what is it?' },
      { ctx: { condense } },
    );
    // The test limits' maxOutputSize is 1 MB: the request takes 4 MB of the 5 MB read.
    expect(seen[0]?.length).toBe(4 * 1_048_576);
    expect(result.output).toMatch(
      /^All x\.\n\n\[http:\/\/public\.test:\d+\/huge condensed by the model from its first 4194304 of \d+ bytes for: "what is it\?"/,
    );
  });

  test('refuses URLs other than http(s) before anything is fetched', async () => {
    const result = await run('web_fetch', { url: 'file:///etc/passwd' });
    expect(result.error).toMatch(/refused by policy: web_fetch needs an http\(s\) URL/);
  });

  test('--dry-run reports the URL without fetching it', async () => {
    const result = await run('web_fetch', { url: page('/page.html') }, { held: { dryRun: true } });
    expect(result.output).toMatch(
      /^\[dry run\] not applied: would fetch http:\/\/public\.test:\d+\/page\.html/,
    );
    expect(requests).toHaveLength(0);
  });

  test('restricted mode fetches an allowed domain and refuses a redirect off it', async () => {
    const allowed = await run(
      'web_fetch',
      { url: page('/notes.txt') },
      { mode: 'restricted', domains: ['public.test'] },
    );
    expect(allowed.success).toBe(true);
    const redirected = await run(
      'web_fetch',
      { url: page('/to-other') },
      { mode: 'restricted', domains: ['public.test'] },
    );
    expect(redirected.error).toMatch(
      /redirect to http:\/\/other\.test:\d+\/notes\.txt refused: web_fetch connects to other\.test; to allow it: add the domain to safety\.web\.allow_domains/,
    );
    const other = await run(
      'web_fetch',
      { url: page('/notes.txt') },
      { mode: 'restricted', domains: ['python.org'] },
    );
    expect(other.error).toMatch(/refused by policy: web_fetch connects to public\.test/);
  });

  test('interactive mode asks per domain: a redirect to another domain asks again, "always" covers the domain', async () => {
    const asked: ApprovalRequest[] = [];
    const approvals = new ApprovalMemory();
    const held = {
      approvals,
      approve: async (request: ApprovalRequest) => {
        asked.push(request);
        return { decision: 'always' as const };
      },
    };
    const first = await run('web_fetch', { url: page('/to-other') }, { mode: 'interactive', held });
    expect(first.output).toBe(`[redirected to http://other.test:${port}/notes.txt]\n<b>kept</b> as is\n`);
    expect(asked.map((a) => a.always)).toEqual(['web access to public.test', 'web access to other.test']);
    await run('web_fetch', { url: page('/page.html') }, { mode: 'interactive', held });
    await run('web_fetch', { url: `http://other.test:${port}/notes.txt` }, { mode: 'interactive', held });
    expect(asked).toHaveLength(2);
  });

  test('a redirect within the host the user allowed once is not asked about again', async () => {
    const asked: ApprovalRequest[] = [];
    const approve = async (request: ApprovalRequest) => {
      asked.push(request);
      return { decision: 'once' as const };
    };
    const result = await run(
      'web_fetch',
      { url: page('/to-page') },
      { mode: 'interactive', held: { approve } },
    );
    expect(result.output).toContain('The **new API**');
    expect(asked).toHaveLength(1);
  });

  test('when condensing fails, the page comes back whole with the reason', async () => {
    const condense = async () => {
      throw new Error('HTTP 500 from the model');
    };
    const result = await run('web_fetch', { url: page('/notes.txt'), prompt: 'x' }, { ctx: { condense } });
    expect(result.output).toBe(
      '<b>kept</b> as is\n\n\n[not condensed: the model failed (HTTP 500 from the model)]',
    );
  });

  test('with a prompt, the model condenses the page and the whole page is saved for read_file', async () => {
    const seen: { text: string; prompt: string }[] = [];
    const condense = async (text: string, prompt: string) => {
      seen.push({ text, prompt });
      return 'Use open() instead of connect().';
    };
    const saveOutput = createOutputStore(path.join(ws.base, 'outputs'));
    const result = await run(
      'web_fetch',
      { url: page('/page.html'), prompt: 'what changed?' },
      { held: { saveOutput }, ctx: { condense } },
    );
    expect(seen[0]?.prompt).toBe('what changed?');
    expect(seen[0]?.text).toContain('The **new API**');
    const saved = /saved in (\S+): read it with read_file/.exec(result.output)?.[1];
    expect(result.output).toMatch(
      /^Use open\(\) instead of connect\(\)\.\n\n\[http:\/\/public\.test:\d+\/page\.html condensed by the model for: "what changed\?"/,
    );
    expect(await fs.readFile(saved ?? '', 'utf8')).toContain('# Release notes');
  });
});

describe('web_search', () => {
  const endpoint = (provider: SearchEndpoint['provider'], p: string, key?: string): Partial<ToolContext> => ({
    web: web({ search: { provider, url: `http://127.0.0.1:${port}${p}`, apiKey: async () => key } }),
  });

  test('brave: the key in its header, results with citations listed under the answer', async () => {
    const result = await run(
      'web_search',
      { query: 'node 20', max_results: 3 },
      { ctx: endpoint('brave', '/brave/search', 'bk-123') },
    );
    expect(requests[0]?.url).toBe('/brave/search?q=node+20&count=3');
    expect(requests[0]?.headers['x-subscription-token']).toBe('bk-123');
    expect(result.output).toMatch(
      /^1\. Node 20\n {3}https:\/\/nodejs\.org\/en\/blog\/20\n {3}The release\n2\. Second/,
    );
    expect(result.display).toBe('2 results');
    expect(ws.events.filter((e) => e.type === 'citation')).toEqual([
      { type: 'citation', turn: 1, url: 'https://nodejs.org/en/blog/20', title: 'Node 20' },
      { type: 'citation', turn: 1, url: 'https://b.example/2', title: 'Second' },
    ]);
  });

  test('tavily: a JSON POST with a bearer key', async () => {
    const result = await run(
      'web_search',
      { query: 'q' },
      { ctx: endpoint('tavily', '/tavily/search', 'tv-1') },
    );
    expect(requests[0]).toMatchObject({ method: 'POST', body: '{"query":"q","max_results":5}' });
    expect(requests[0]?.headers.authorization).toBe('Bearer tv-1');
    expect(result.output).toContain('1. Tavily hit\n   https://t.example/1\n   from tavily');
    expect(result.display).toBe('1 result');
  });

  test('searxng: its JSON format at /search, no key needed', async () => {
    const result = await run('web_search', { query: 'q r' }, { ctx: endpoint('searxng', '/searx') });
    expect(requests[0]?.url).toBe('/searx/search?q=q+r&format=json');
    expect(result.output).toMatch(/^1\. Searx hit\n {3}https:\/\/s\.example\/1\n\n/);
  });

  test('without a key, brave says where to put one', async () => {
    const result = await run('web_search', { query: 'q' }, { ctx: endpoint('brave', '/brave/search') });
    expect(result.error).toMatch(/no API key for brave: set BRAVE_API_KEY, run `keel auth login brave`/);
    expect(requests).toHaveLength(0);
  });

  test('restricted mode searches only through an endpoint in safety.web.allow_domains', async () => {
    const ctx = endpoint('searxng', '/searx');
    const refused = await run('web_search', { query: 'q' }, { mode: 'restricted', ctx });
    expect(refused.error).toMatch(/refused by policy: web_search connects to 127\.0\.0\.1/);
    const allowed = await run(
      'web_search',
      { query: 'q' },
      { mode: 'restricted', ctx, domains: ['127.0.0.1'] },
    );
    expect(allowed.success).toBe(true);
  });
});
