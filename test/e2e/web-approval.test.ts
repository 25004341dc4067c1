// End to end in a real terminal (tmux): in interactive mode the chat asks about web access once per domain; "a"
// covers every later fetch from that domain, and another domain is asked about again.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolMessages, useE2E } from '../support/e2e.js';
import { listenLoopback } from '../support/http.js';
import { hasTmux, startTerminal } from '../support/tmux.js';

const { server, workspace, track } = useE2E();

const fetch = (url: string) => ({ toolCalls: [{ name: 'web_fetch', args: { url } }] });

describe.skipIf(!hasTmux())('web access in the chat', () => {
  it('asks once per domain, and "always" lets the same domain through without asking', async () => {
    const web = await listenLoopback((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`page ${req.url}`);
    });
    track(() => web.close());
    const port = new URL(web.url).port;
    const s = await server([
      fetch(`${web.url}/a`),
      fetch(`${web.url}/b`),
      fetch(`http://localhost:${port}/c`),
      { text: 'All fetched.' },
    ]);
    const ws = await workspace();
    const config = await workspace();
    await mkdir(join(config, 'keel'));
    // The page is on loopback, which web tools reach only with allow_private.
    await writeFile(join(config, 'keel', 'config.yaml'), 'safety:\n  web:\n    allow_private: true\n');
    const term = await startTerminal(
      ['chat', '--mode', 'interactive', '--base-url', s.ollamaUrl, '--cwd', ws],
      {
        cwd: ws,
        env: { XDG_CONFIG_HOME: config },
      },
    );
    track(term.close);
    await term.waitFor('› ');
    await term.type('read the pages at the web server');
    await term.keys('Enter');
    await term.waitFor('always this session (web access to 127.0.0.1)');
    await term.type('a');
    await term.keys('Enter');
    await term.waitFor('always this session (web access to localhost)');
    await term.type('n');
    await term.keys('Enter');
    const screen = await term.waitFor('All fetched.');
    if (process.env.SHOW_SCREEN) console.log(screen);
    expect(screen.split('web access to 127.0.0.1')).toHaveLength(2);
    const results = toolMessages(s.requests[3]!.body);
    expect(results.slice(0, 2)).toEqual(['page /a', 'page /b']);
    expect(results[2]).toMatch(/^Error: the user declined this web_fetch call/);
  });
});
