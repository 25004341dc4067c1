// Sessions saved by keel run, resumed after kill -9 at several points with the model getting the same history, a
// cut-off last line ignored, the crash note of the next chat, and keel sessions list/show/export/rm. The command
// line runs in process (test/support/cli-in-process.ts); the built binary only for the runs that are killed.
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionDir } from '../../src/session/session-list.js';
import { runKeel } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';
import { runOllama, useE2E } from '../support/e2e.js';
import type { ReceivedRequest } from '../support/model-server.js';

const { server, workspace } = useE2E();

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });
const secret = 'sk-live-9f8e7d6c5b4a39281706';

/** Temp XDG data and state dirs shared by several keel invocations (each run has its own HOME). */
async function dirs() {
  const data = await workspace();
  const state = await workspace();
  return { env: { XDG_DATA_HOME: data, XDG_STATE_HOME: state }, data };
}

/** The one sessions directory of the one workspace used, and its session files. */
async function sessionFiles(data: string): Promise<{ dir: string; files: string[] }> {
  const root = join(data, 'keel', 'sessions');
  const keys = await readdir(root);
  expect(keys).toHaveLength(1);
  const dir = join(root, keys[0]!);
  return { dir, files: (await readdir(dir)).filter((f) => f.endsWith('.jsonl')) };
}

/** `keel run --base-url <s's Ollama URL> --cwd ws …args` in process. */
const run = (s: { ollamaUrl: string }, ws: string, args: string[], env: Record<string, string>) =>
  runCli(['run', '--base-url', s.ollamaUrl, '--cwd', ws, ...args], { env });

const messagesOf = (r: ReceivedRequest) =>
  (r.body as { messages: { role: string; content: string }[] }).messages;

describe('sessions', () => {
  it('saves a run with its metadata, redacts secrets, and lists, shows, exports and removes it', async () => {
    const ws = await workspace({ 'a.txt': 'A\n' });
    const { env, data } = await dirs();
    const s = await server([call('read_file', { path: 'a.txt' }), { text: `done with ${secret}` }]);
    const r = await run(s, ws, ['--prompt', `read a.txt, my key is ${secret}`], env);
    expect(r.code).toBe(0);
    const { dir, files } = await sessionFiles(data);
    expect(files).toHaveLength(1);
    const file = join(dir, files[0]!);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED]');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    // A clean exit leaves no active marker.
    expect((await readdir(dir)).filter((f) => f.endsWith('.active'))).toEqual([]);
    const meta = JSON.parse(text.split('\n')[0]!);
    expect(meta).toMatchObject({ type: 'session', workspace: ws, provider: 'ollama' });

    const list = await runCli(['sessions', 'list', '--output', 'json', '--cwd', ws], { env });
    expect(list.code).toBe(0);
    const sessions = JSON.parse(list.stdout);
    expect(sessions).toEqual([
      expect.objectContaining({
        id: meta.id,
        title: 'read a.txt, my key is sk-[REDACTED]',
        workspace: ws,
        updated: expect.any(String),
        // Model turns: the tool call and the answer.
        turns: 2,
        input_tokens: 20,
        output_tokens: 10,
      }),
    ]);
    const textList = await runCli(['sessions', 'list', '--cwd', ws], { env });
    expect(textList.stdout).toContain(meta.id);
    expect(textList.stdout).toContain('2 turns');

    const show = await runCli(['sessions', 'show', meta.id.slice(0, 12), '--cwd', ws], { env });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('## User');
    expect(show.stdout).toContain('read_file');
    expect(show.stdout).toContain('done with sk-[REDACTED]');

    const json = await runCli(['sessions', 'export', meta.id, '--format', 'json', '--cwd', ws], { env });
    const exported = JSON.parse(json.stdout);
    expect(exported.messages.map((m: { role: string }) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    const html = await runCli(['sessions', 'export', meta.id, '--format', 'html', '--cwd', ws], { env });
    expect(html.stdout).toMatch(/^<!doctype html>/);
    expect(html.stdout).toContain('<details');
    expect(html.stdout).not.toMatch(/<script|<link|src="http/);
    const byExtension = join(ws, 'export.html');
    expect(
      (await runCli(['sessions', 'export', meta.id, '--out', byExtension, '--cwd', ws], { env })).code,
    ).toBe(0);
    expect(await readFile(byExtension, 'utf8')).toMatch(/^<!doctype html>/);
    for (const [out, why] of [
      [join(ws, 'no-such-dir', 'x.html'), 'its directory does not exist'],
      [ws, 'it is a directory'],
    ]) {
      const r = await runCli(
        ['sessions', 'export', meta.id, '--format', 'html', '--out', out!, '--cwd', ws],
        {
          env,
        },
      );
      expect(r.code, out).toBe(2);
      expect(r.stderr, out).toContain(`cannot write the export to ${out}: ${why}`);
      expect(r.stderr, out).not.toContain('internal error');
    }

    const rm = await runCli(['sessions', 'rm', meta.id, '--cwd', ws], { env });
    expect(rm.code).toBe(0);
    expect((await sessionFiles(data)).files).toEqual([]);
    const missing = await runCli(['sessions', 'show', meta.id, '--cwd', ws], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no session');

    // A session cut short before its first record (or damaged) cannot be shown, and can still be removed.
    await writeFile(join(dir, '20260101-000000-1.jsonl'), '{"type":"sess');
    const unreadable = await runCli(['sessions', 'show', '20260101', '--cwd', ws], { env });
    expect(unreadable.code).toBe(1);
    expect(unreadable.stderr).toContain('keel sessions rm 20260101-000000-1 removes it');
    expect((await runCli(['sessions', 'rm', '20260101', '--cwd', ws], { env })).code).toBe(0);
    expect((await sessionFiles(data)).files).toEqual([]);
  });

  it('an empty session id is a usage error for show, export, rm, fork and --resume', async () => {
    const ws = await workspace();
    const { env } = await dirs();
    const s = await server([{ text: 'one' }, { text: 'two' }]);
    // Two sessions, of which "" is a prefix.
    for (const goal of ['first', 'second']) expect((await run(s, ws, ['-p', goal], env)).code).toBe(0);
    for (const args of [
      ['sessions', 'show', ''],
      ['sessions', 'export', '', '--format', 'md'],
      ['sessions', 'rm', ''],
      ['sessions', 'fork', ''],
      ['run', '--base-url', s.ollamaUrl, '--resume', '', '-p', 'go on'],
    ]) {
      const r = await runCli([...args, '--cwd', ws], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain('a session id is needed, and the one given is empty');
    }
    expect(s.requests).toHaveLength(2);
    expect(
      JSON.parse((await runCli(['sessions', 'list', '--output', 'json', '--cwd', ws], { env })).stdout),
    ).toHaveLength(2);
  });

  it('the built binary lists sessions as the full CLI does, from sidecars or from the files', async () => {
    const ws = await workspace();
    const { env, data } = await dirs();
    const dir = sessionDir(join(data, 'keel'), await realpath(ws));
    await mkdir(dir, { recursive: true });
    const line = (event: object, minute: number) =>
      `${JSON.stringify({ ...event, time: `2026-01-0${minute}T10:0${minute}:00.000Z` })}\n`;
    const price = { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3 };
    for (const [n, title] of ['fix the \u001b[31mbug', 'add a test', 'explain the loop'].entries()) {
      const id = `2026010${n + 1}-100000-${n}`;
      const meta = { type: 'session', version: 1, id, workspace: ws, provider: 'anthropic', model: 'm' };
      await writeFile(
        join(dir, `${id}.jsonl`),
        `${JSON.stringify({ ...meta, started: '2026-01-01T00:00:00.000Z', ...(n === 1 ? { price } : {}) })}\n` +
          line({ type: 'message', role: 'user', content: title }, n + 1) +
          line(
            { type: 'usage', turn: 1, input_tokens: 1500 * n, output_tokens: 10, cache_read_tokens: 900 * n },
            n + 1,
          ) +
          line({ type: 'message', role: 'assistant', content: 'done' }, n + 1),
      );
    }
    const text = ['sessions', 'list', '--cwd', ws];
    const json = ['--output', 'json', 'sessions', 'list', '--cwd', ws];
    // In process, the full CLI also writes the sidecars the binary's own small bundle then reads.
    const expected = { text: await runCli(text, { env }), json: await runCli(json, { env }) };
    expect(expected.text.stdout.split('\n')).toHaveLength(4);
    expect(expected.text.stdout).toContain('\\x1b[31mbug');
    expect(await runKeel(text, { env })).toEqual(expected.text);
    expect(await runKeel(json, { env })).toEqual(expected.json);
    // A session that grew after its sidecar: the binary hands the listing to the full CLI, which reads the file.
    await appendFile(
      join(dir, '20260102-100000-1.jsonl'),
      line({ type: 'message', role: 'assistant', content: 'more' }, 4),
    );
    const grown = await runKeel(text, { env });
    expect(grown).toEqual(await runCli(text, { env }));
    expect(grown.stdout).toContain('2 turns');
  });

  it("costs each run's requests at its own model's price when resumed on another provider: the list adds up the runs", async () => {
    const ws = await workspace();
    const { env: dirsEnv } = await dirs();
    const env = { ...dirsEnv, ANTHROPIC_API_KEY: 'sk-scripted-test' };
    const s = await server([
      { text: 'one', usage: { input: 10_000, output: 200, cacheRead: 6_000, cacheWrite: 2_000 } },
      { text: 'two', usage: { input: 40_000, output: 1_000, cacheRead: 20_000 } },
      { text: 'three', usage: { input: 50_000, output: 500 } },
    ]);
    const on = (provider: string, url: string, model: string) => [
      '--provider',
      provider,
      '--base-url',
      url,
      '--model',
      model,
    ];
    const runs = [
      // claude-sonnet-4-5: $3 in, $0.30 cache read, $3.75 cache write, $15 out per million tokens.
      {
        model: on('anthropic', s.anthropicUrl, 'claude-sonnet-4-5'),
        cost: (2_000 * 3 + 6_000 * 0.3 + 2_000 * 3.75 + 200 * 15) / 1e6,
      },
      // gpt-4o-mini: $0.15 in, $0.075 cache read, $0.60 out.
      {
        model: on('openai-compatible', s.openaiUrl, 'gpt-4o-mini'),
        cost: (20_000 * 0.15 + 20_000 * 0.075 + 1_000 * 0.6) / 1e6,
      },
      // No price known for a local model.
      { model: on('ollama', s.ollamaUrl, 'qwen3'), cost: undefined },
    ];
    const listed = async () => {
      const list = await runCli(['sessions', 'list', '--output', 'json', '--cwd', ws], { env });
      expect(list.code, list.stderr).toBe(0);
      return JSON.parse(list.stdout) as { cost?: number; cost_partial?: boolean; input_tokens: number }[];
    };
    let total = 0;
    for (const [i, { model, cost }] of runs.entries()) {
      const resume = i === 0 ? [] : ['--continue'];
      const r = await runCli(
        ['run', ...model, '--cwd', ws, ...resume, '--output', 'json', '--prompt', `step ${i}`],
        { env },
      );
      expect(r.code, r.stderr).toBe(0);
      // The run's own summary prices it at its model's price.
      const usd = JSON.parse(r.stdout).usage.cost_usd;
      if (cost === undefined) expect(usd).toBeUndefined();
      else expect(usd).toBeCloseTo(cost, 9);
      total += usd ?? 0;
      const sessions = await listed();
      expect(sessions).toHaveLength(1);
      expect(sessions[0]!.cost, `after run ${i + 1}`).toBeCloseTo(total, 9);
      // The last run's model had no price: the known part stays, marked partial.
      expect(sessions[0]!.cost_partial).toBe(cost === undefined ? true : undefined);
    }
    const text = await runCli(['sessions', 'list', '--cwd', ws], { env });
    expect(text.stdout).toContain(' $0.02+ ');
  });

  it('writes nothing under --no-session', async () => {
    const ws = await workspace();
    const { env, data } = await dirs();
    const s = await server([{ text: 'ok' }]);
    const r = await run(s, ws, ['--no-session', '--prompt', 'hi'], env);
    expect(r.code).toBe(0);
    expect(existsSync(join(data, 'keel'))).toBe(false);
  });

  it('after kill -9 while the model server holds a reply, --continue sends the same history plus the new message', async () => {
    const ws = await workspace({ 'a.txt': 'A\n' });
    const { env } = await dirs();
    let kill = () => {};
    const first = await server([
      call('read_file', { path: 'a.txt' }),
      () => {
        kill();
        return { hang: true };
      },
    ]);
    const killed = await runOllama(first, ws, ['--prompt', 'read a.txt'], {
      env,
      onSpawn: (child) => {
        kill = () => child.kill('SIGKILL');
      },
    });
    expect(killed.code).toBe(null);
    const held = first.requests[1]!;

    const second = await server([{ text: 'finished' }]);
    const resumed = await run(second, ws, ['--continue', '--prompt', 'go on'], env);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('resuming session');
    expect(messagesOf(second.requests[0]!)).toEqual([
      ...messagesOf(held),
      { role: 'user', content: 'go on' },
    ]);
  });

  it('a chat ended by its terminal closing (SIGHUP) while it waits for the next message is no crash', async () => {
    const ws = await workspace();
    const { env, data } = await dirs();
    const s = await server([{ text: 'hello there' }]);
    const hung = await runKeel(['chat', '--base-url', s.ollamaUrl, '--cwd', ws], {
      env,
      openStdin: true,
      onSpawn: (child) => {
        child.stdin?.write('hi\n');
        let printed = '';
        child.stdout?.on('data', (d: Buffer) => {
          printed += d.toString();
          // Answered, and back to waiting for the next line: the terminal closes.
          if (printed.includes('hello there')) setTimeout(() => child.kill('SIGHUP'), 300);
        });
      },
    });
    expect(hung.code).toBe(129);
    const { dir } = await sessionFiles(data);
    expect((await readdir(dir)).filter((f) => f.endsWith('.active'))).toEqual([]);
  });

  it('offers only a crashed session it can resume, naming --resume when a later session is the latest', async () => {
    const ws = await workspace();
    const { env, data } = await dirs();
    const s = await server([{ text: 'one' }, { text: 'two' }]);
    expect((await run(s, ws, ['--prompt', 'first'], env)).code).toBe(0);
    const { dir, files } = await sessionFiles(data);
    const older = files[0]!.slice(0, -'.jsonl'.length);
    expect((await run(s, ws, ['--prompt', 'second'], env)).code).toBe(0);
    // The older one's process died; so did one that was cut short before its first record.
    const dead = '999999999\n';
    await writeFile(join(dir, `${older}.active`), dead);
    await writeFile(join(dir, '20990101-000000-1.jsonl'), '{"type":"sess');
    await writeFile(join(dir, '20990101-000000-1.active'), dead);
    const chat = await runCli(['chat', '--base-url', s.ollamaUrl, '--cwd', ws], { env, input: 'exit\n' });
    expect(chat.stderr).toContain(
      `the last session ended unexpectedly; resume it with keel chat --resume ${older}\n`,
    );
    expect(chat.stderr).not.toContain('20990101');
  });

  it('after kill -9 while a command runs, the unanswered call gets a result and nothing before is lost', async () => {
    const ws = await workspace();
    const { env, data } = await dirs();
    const command = 'touch started; while [ ! -e stop ]; do sleep 0.1; done';
    const first = await server([call('execute_command', { command }), { text: 'never' }]);
    const killed = await runOllama(first, ws, ['--allow-dangerous', '--no-sandbox', '--prompt', 'wait'], {
      env,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (!existsSync(join(ws, 'started'))) return;
          clearInterval(poll);
          child.kill('SIGKILL');
        }, 20);
      },
    });
    // The orphaned command ends once the file appears.
    await writeFile(join(ws, 'stop'), '');
    expect(killed.code).toBe(null);
    // The crash left the marker; a half-written line is ignored and later lines still start on their own.
    const { dir, files } = await sessionFiles(data);
    expect((await readdir(dir)).filter((f) => f.endsWith('.active'))).toHaveLength(1);
    await appendFile(join(dir, files[0]!), '{"type":"message","role":"user","content":"half');

    const chat = await runCli(['chat', '--base-url', first.ollamaUrl, '--cwd', ws], {
      env,
      input: 'exit\n',
    });
    expect(chat.stderr).toContain('the last session ended unexpectedly; resume it with keel chat --continue');
    const again = await runCli(['chat', '--base-url', first.ollamaUrl, '--cwd', ws], {
      env,
      input: 'exit\n',
    });
    expect(again.stderr).not.toContain('ended unexpectedly');

    const second = await server([{ text: 'finished' }, { text: 'and again' }]);
    const id = files[0]!.slice(0, 10);
    const resumed = await run(second, ws, ['--resume', id, '--prompt', 'go on'], env);
    expect(resumed.code).toBe(0);
    const sent = messagesOf(second.requests[0]!);
    const before = messagesOf(first.requests[0]!);
    expect(sent.slice(0, before.length)).toEqual(before);
    expect(sent.slice(before.length).map((m) => m.role)).toEqual(['assistant', 'tool', 'user']);
    expect(JSON.stringify(sent)).toContain('execute_command');
    expect(sent[before.length + 1]!.content).toContain('interrupted');
    expect(sent[before.length + 2]!.content).toBe('go on');
    expect(JSON.stringify(sent)).not.toContain('half');

    // The resumed run appended to the same file: a further resume sends all of it again.
    const more = await run(second, ws, ['--continue', '--prompt', 'more'], env);
    expect(more.code).toBe(0);
    expect(messagesOf(second.requests[1]!)).toEqual([
      ...sent,
      { role: 'assistant', content: 'finished' },
      { role: 'user', content: 'more' },
    ]);
    expect((await sessionFiles(data)).files).toHaveLength(1);
  });
});
