// `keel sessions list`'s own bundle: which command lines it answers alone (the rest go to the full CLI), and that
// it answers only from sidecars that cover their session files.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatList, listArgs, printList, sidecarSessions } from '../../src/cli/sessions-list.js';
import { sessionDir, sidecarOf } from '../../src/session/session-list.js';
import type { SessionSummary } from '../../src/session/session-summary.js';

describe('listArgs', () => {
  it.each([
    [['sessions', 'list'], { output: 'text' }],
    [['sessions', 'list', '--cwd', '/w'], { cwd: '/w', output: 'text' }],
    [['--cwd=/w', 'sessions', 'list', '--output=json'], { cwd: '/w', output: 'json' }],
    [['sessions', '--output', 'stream-json', 'list', '--debug'], { output: 'stream-json' }],
    // commander keeps the last of a repeated option.
    [['sessions', 'list', '--cwd', '/a', '--cwd', '/b'], { cwd: '/b', output: 'text' }],
    [['sessions', 'list', '--cwd='], { cwd: '', output: 'text' }],
  ])('%j is a listing with %j', (args, options) => {
    expect(listArgs(args)).toEqual(options);
  });

  it.each([
    [['sessions']],
    [['sessions', 'show', 'list']],
    [['list', 'sessions']],
    [['sessions', 'list', 'extra']],
    [['sessions', 'list', '--help']],
    [['sessions', 'list', '-h']],
    [['sessions', 'list', '--output', 'yaml']],
    [['sessions', 'list', '--cwd']],
    [['sessions', 'list', '--cwd', '--debug']],
    [['sessions', 'list', '--model', 'm']],
    [['sessions', 'list', '--debug=1']],
    [['sessions', 'list', '--']],
    [['run', '-p', 'sessions', 'list']],
  ])('%j goes to the full CLI', (args) => {
    expect(listArgs(args)).toBeUndefined();
  });
});

describe('sidecarSessions', () => {
  let home: string;
  let ws: string;
  let dir: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'keel-list-'));
    ws = join(home, 'ws');
    await mkdir(ws);
    dir = sessionDir(join(home, 'data', 'keel'), await realpath(ws));
    await mkdir(dir, { recursive: true });
    vi.stubEnv('XDG_DATA_HOME', join(home, 'data'));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await rm(home, { recursive: true, force: true });
  });

  const summary = (id: string, updated: string) => ({
    id,
    title: id,
    workspace: ws,
    provider: 'ollama',
    model: 'm',
    started: updated,
    updated,
    turns: 1,
    input_tokens: 10,
    output_tokens: 1,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
  });
  const writeSession = async (id: string, updated: string, bytes = 3) => {
    const file = join(dir, `${id}.jsonl`);
    await writeFile(file, 'abc');
    await writeFile(sidecarOf(file), JSON.stringify({ bytes, summary: summary(id, updated) }));
  };

  it('lists the sessions newest first when every sidecar covers its file', async () => {
    await writeSession('a', '2026-01-01T00:00:00.000Z');
    await writeSession('b', '2026-01-02T00:00:00.000Z');
    expect(sidecarSessions(ws)?.map((s) => s.id)).toEqual(['b', 'a']);
  });

  it('hands the listing over when a sidecar is outdated', async () => {
    await writeSession('c', '2026-01-03T00:00:00.000Z', 2);
    expect(sidecarSessions(ws)).toBeUndefined();
  });

  it('hands the listing over when the workspace is missing or a file', async () => {
    expect(sidecarSessions(join(home, 'nowhere'))).toBeUndefined();
    await writeFile(join(home, 'file'), '');
    expect(sidecarSessions(join(home, 'file'))).toBeUndefined();
  });
});

describe('printList', () => {
  const session = (id: string, cost: Partial<SessionSummary>): SessionSummary => ({
    id,
    title: `title ${id}`,
    workspace: '/w',
    provider: 'p',
    model: 'm',
    started: '2026-01-01T00:00:00.000Z',
    updated: '2026-01-01T00:00:00.000Z',
    turns: 2,
    input_tokens: 1000,
    output_tokens: 10,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    ...cost,
  });
  const printed = (sessions: SessionSummary[], output: 'text' | 'json') => {
    let text = '';
    printList(sessions, output, { print: (t) => (text += t), notice: () => {} });
    return text;
  };

  it.each<[string, Partial<SessionSummary>, string]>([
    ['a cost under a cent, as the run summary shows it', { cost: 0.0032 }, '$0.0032'],
    ['a cost of dollars', { cost: 4.5 }, '$4.50'],
    ['the known part of a partly priced session, marked', { cost: 4.5, cost_partial: true }, '$4.50+'],
    ['no known price', {}, '-'],
  ])('shows %s', (_, cost, shown) => {
    const columns = printed([session('a', cost)], 'text')
      .trimEnd()
      .split(/ {2,}/);
    expect(columns.at(-2)).toBe(shown);
  });

  it('on a terminal, cuts each title to what is left of its line, so no row wraps', () => {
    const long = session('20261128-101010-1', {
      title: 'Read the notes and write a summary of every one of them '.repeat(3),
    });
    const [row] = formatList([long], 80).split('\n');
    expect(row).toHaveLength(80);
    expect(row!.endsWith('…')).toBe(true);
    expect(formatList([long], 20).split('\n')[0]).toMatch(/ {2}Read the no…$/);
    expect(formatList([long]).split('\n')[0]).toContain(long.title);
  });

  it('--output json carries the same numbers', () => {
    const sessions = [session('a', { cost: 4.5, cost_partial: true }), session('b', {})];
    expect(JSON.parse(printed(sessions, 'json'))).toEqual(sessions);
  });
});
