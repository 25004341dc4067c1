// The HTML export of a session opened in headless Chromium (Debian's `chromium`): the page loads as one
// self-contained file, its DOM holds the messages, folded tool calls and a coloured diff, and a screenshot is kept
// as a test artifact under test-artifacts/. Skipped, saying why, where Chromium is not installed. The run and the
// export are made in-process (as keel run and keel sessions export make them); one Chromium start dumps the DOM and
// takes the screenshot.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionsExportCommand, sessionsListCommand } from '../../src/cli/sessions-command.js';
import { captureOutput, runAgent, withEnv } from '../support/agent-in-process.js';
import { useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();

const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const artifacts = join(import.meta.dirname, '..', '..', 'test-artifacts');

/** Chromium as the machine allows it here: no sandbox (root), no background connections (closed network). */
function headless(profile: string, ...args: string[]) {
  return spawnSync(
    chromium!,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      `--user-data-dir=${profile}`,
      ...args,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
}

describe.skipIf(!chromium)('session export in a browser', () => {
  it('renders the HTML export in headless Chromium: messages, folded tool calls, a coloured diff', async () => {
    const ws = await workspace({ 'notes.txt': 'buy milk\ncall bob\n' });
    const data = await workspace();
    const env = { XDG_DATA_HOME: data };
    const s = await server([
      { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
      {
        toolCalls: [
          {
            name: 'edit_file',
            args: { path: 'notes.txt', old_string: 'call bob', new_string: 'call alice' },
          },
        ],
      },
      {
        text:
          '## Done\n\nI replaced **bob** with `alice` in notes.txt.\n\n| file | change |\n| --- | --- |\n| notes.txt | 1 line |\n\n' +
          '<script>alert(1)</script> [click](javascript:alert(1)) ![img](https://example.com/x.png)',
      },
    ]);
    const run = await runAgent(s, ws, 'replace bob with alice in notes.txt', {
      mode: 'full',
      session: { save: true },
      env,
    });
    expect(run.result.reason).toBe('done');
    const page = join(await workspace(), 'session.html');
    await withEnv(env, async () => {
      const list = captureOutput();
      expect(await sessionsListCommand({ output: 'json', cwd: ws }, list)).toBe(0);
      const [session] = JSON.parse(list.out) as { id: string }[];
      expect(
        await sessionsExportCommand(session!.id, { output: 'text', cwd: ws, format: 'html', out: page }),
      ).toBe(0);
    });

    // The DOM after Chromium parsed and laid out the page: what a reader sees; the same start takes the screenshot.
    await mkdir(artifacts, { recursive: true });
    const shot = join(artifacts, 'session-export.png');
    // An earlier run's screenshot must not pass for this one's.
    await rm(shot, { force: true });
    const dom = headless(
      await workspace(),
      '--dump-dom',
      `--screenshot=${shot}`,
      '--window-size=1000,1400',
      `file://${page}`,
    );
    expect(dom.status, dom.stderr).toBe(0);
    expect(dom.stdout).toContain('replace bob with alice in notes.txt');
    expect(dom.stdout.match(/<details/g)?.length).toBeGreaterThanOrEqual(2);
    expect(dom.stdout).toContain('read_file');
    expect(dom.stdout).toContain('edit_file');
    expect(dom.stdout).toMatch(/class="[^"]*\badd\b[^"]*"[^>]*>\+call alice/);
    expect(dom.stdout).toMatch(/class="[^"]*\bdel\b[^"]*"[^>]*>-call bob/);

    // The answer's Markdown is rendered; what the model wrote as HTML or script stays text.
    expect(dom.stdout).toContain('<h2>Done</h2>');
    expect(dom.stdout).toContain('<strong>bob</strong>');
    expect(dom.stdout).toContain('<table>');
    expect(dom.stdout).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(dom.stdout).not.toMatch(/<script|href="javascript|<img/i);

    const png = await readFile(shot);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // A blank page compresses to almost nothing; text, colours and folds do not.
    expect((await stat(shot)).size).toBeGreaterThan(20_000);
    expect(await readdir(artifacts)).toContain('session-export.png');
    // A Chromium start is allowed 60 s: on a busy machine it outlasts the usual 30 s.
  }, 90_000);
});
