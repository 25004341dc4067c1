// End to end: web_search through a configured SearXNG endpoint and web_fetch of a page, from the built CLI with
// --output json: the results reach the model, the sources are listed as citations, both calls are in the audit log.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runOllama, toolMessages, useE2E } from '../support/e2e.js';
import { listenLoopback, sendJson } from '../support/http.js';

const { server, workspace, track } = useE2E();

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });

describe('web tools', () => {
  it('searches, fetches a page as Markdown and lists the sources in the JSON output', async () => {
    const web = await listenLoopback((req, res) => {
      if (req.url?.startsWith('/search?'))
        return sendJson(res, 200, {
          results: [
            {
              title: 'Widget 2.0 released',
              url: 'https://widgets.example/2.0',
              content: 'open() replaces connect()',
            },
          ],
        });
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<html><head><title>Widget</title></head><body><article><h1>Changes</h1><p>Use <code>open()</code> now.</p></article></body></html>',
      );
    });
    track(() => web.close());
    const ws = await workspace({});
    const home = await workspace({});
    await mkdir(join(home, 'config', 'keel'), { recursive: true });
    // Loopback is a private address: this test's page is reachable only with allow_private.
    await writeFile(
      join(home, 'config', 'keel', 'config.yaml'),
      `safety:\n  web:\n    allow_private: true\nweb:\n  search:\n    provider: searxng\n    url: ${web.url}\n`,
    );
    const s = await server([
      call('web_search', { query: 'widget 2.0 changelog' }),
      call('web_fetch', { url: `${web.url}/changes.html` }),
      { text: 'Call open() instead of connect().' },
    ]);
    const env = { XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') };
    const r = await runOllama(
      s,
      ws,
      ['--mode', 'auto', '--output', 'json', '--prompt', 'what changed in widget 2.0?'],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.answer).toBe('Call open() instead of connect().');
    expect(out.tool_calls.map((c: { name: string; success: boolean }) => [c.name, c.success])).toEqual([
      ['web_search', true],
      ['web_fetch', true],
    ]);
    expect(out.citations).toEqual([{ url: 'https://widgets.example/2.0', title: 'Widget 2.0 released' }]);
    const [searched, fetched] = toolMessages(s.requests[2]!.body);
    expect(searched).toContain(
      '1. Widget 2.0 released\n   https://widgets.example/2.0\n   open() replaces connect()',
    );
    expect(fetched).toBe('# Widget\n\n## Changes\n\nUse `open()` now.');
    const audit = await readFile(join(home, 'state', 'keel', 'audit.log'), 'utf8');
    expect(audit).toMatch(/\| web_search \{"query":"widget 2\.0 changelog"\} \| exit:0 \|/);
    expect(audit).toMatch(/\| web_fetch http:\/\/127\.0\.0\.1:\d+\/changes\.html \| exit:0 \|/);
  });
});
