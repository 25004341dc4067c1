// The GitHub Action's entry script (action/entry.mjs): its decisions as tables, and one run as a workflow runs it —
// an issue comment mentioning @keel, the scripted model server, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, and a
// fake `gh` on PATH recording the comment it is asked to post.
import { spawn } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();
const entryPath = resolve(import.meta.dirname, '../../action/entry.mjs');

interface Entry {
  mentionedTask(event: unknown, trigger: string): string | undefined;
  mayTrigger(event: unknown, allowed: string): boolean;
  keelArgs(inputs: Record<string, string>, prompt: string): string[];
  outputEntry(name: string, value: string): string;
}
const entry = (await import(entryPath)) as Entry;

const comment = (body: string, association = 'MEMBER') => ({
  issue: { number: 7, title: 'Typo in README', body: 'teh typo', user: { login: 'ann' } },
  comment: { body, author_association: association, user: { login: 'bob' } },
});

describe('action entry decisions', () => {
  it.each([
    ['@keel fix the typo', 'fix the typo'],
    ['thanks!\n@Keel  please look\nat this', 'please look\nat this'],
    ['@keel', 'Handle this issue.'],
    ['no mention here', undefined],
    ['mail me at x@keel.dev', undefined],
    ['@keeling around', undefined],
  ])('reads %j as the task %j', (body, task) => {
    expect(entry.mentionedTask(comment(body), '@keel')).toBe(task);
  });

  it.each([
    ['OWNER', 'OWNER,MEMBER,COLLABORATOR', true],
    ['COLLABORATOR', 'OWNER,MEMBER,COLLABORATOR', true],
    ['NONE', 'OWNER,MEMBER,COLLABORATOR', false],
    ['FIRST_TIME_CONTRIBUTOR', '*', true],
  ])('lets a %s author start it with %s: %s', (association, allowed, may) => {
    expect(entry.mayTrigger(comment('@keel go', association), allowed)).toBe(may);
  });

  it('passes the task as one --prompt= argument, and the provider inputs only when given', () => {
    expect(entry.keelArgs({ mode: '', provider: 'openai', maxTurns: '5' }, '-rf everything')).toEqual([
      'run',
      '--output',
      'json',
      '--mode',
      'auto',
      '--prompt=-rf everything',
      '--provider',
      'openai',
      '--max-turns',
      '5',
    ]);
  });

  it('writes a multi-line output between delimiters the value does not contain', () => {
    const written = entry.outputEntry('answer', 'line 1\nline 2');
    const [first, ...rest] = written.trimEnd().split('\n');
    const delimiter = first!.replace('answer<<', '');
    expect(rest).toEqual(['line 1', 'line 2', delimiter]);
  });
});

function runEntry(env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [entryPath], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stdout += d));
    child.on('close', (code) => done({ code, stdout }));
  });
}

describe('action.yml', () => {
  it('hands every input the entry script reads to it as INPUT_<NAME>', async () => {
    const action = parse(await readFile(resolve(import.meta.dirname, '../../action.yml'), 'utf8'));
    const step = action.runs.steps.find((s: { id?: string }) => s.id === 'keel');
    const script = await readFile(entryPath, 'utf8');
    const read = [...script.matchAll(/env\.(INPUT_[A-Z_]+)/g)].map((m) => m[1]);
    const handed = Object.keys(action.inputs)
      .filter((name) => !['github-token', 'install-sandbox'].includes(name))
      .map((name) => `INPUT_${name.toUpperCase().replace(/-/g, '_')}`);
    expect(new Set(read)).toEqual(new Set(handed));
    for (const name of handed) expect(step.env[name]).toContain('inputs.');
    expect(step.env.GH_TOKEN).toContain('inputs.github-token');
  });
});

describe('action entry script', () => {
  it('answers the mention with the event as context: output, job summary and a comment through gh', async () => {
    const ws = await workspace({ 'README.md': 'teh typo\n' });
    const runner = await workspace({});
    const s = await server([{ text: 'The typo is on line 1: "teh" should be "the".' }]);
    const ghLog = join(runner, 'gh.log');
    await writeFile(
      join(runner, 'gh'),
      `#!/bin/sh\necho "$@" > '${ghLog}'\necho "token=$GH_TOKEN" >> '${ghLog}'\ncat >> '${ghLog}'\n`,
    );
    await chmod(join(runner, 'gh'), 0o755);
    await writeFile(join(runner, 'event.json'), JSON.stringify(comment('@keel where is the typo?')));
    const r = await runEntry({
      PATH: `${runner}:${process.env.PATH}`,
      HOME: runner,
      XDG_CONFIG_HOME: join(runner, 'config'),
      XDG_DATA_HOME: join(runner, 'data'),
      XDG_STATE_HOME: join(runner, 'state'),
      KEEL_KEYRING: 'off',
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_EVENT_PATH: join(runner, 'event.json'),
      GITHUB_REPOSITORY: 'acme/widgets',
      GITHUB_WORKSPACE: ws,
      GITHUB_OUTPUT: join(runner, 'output'),
      GITHUB_STEP_SUMMARY: join(runner, 'summary'),
      GH_TOKEN: 'gh-secret-token',
      INPUT_MODE: 'restricted',
      INPUT_BASE_URL: s.ollamaUrl,
      INPUT_MODEL: 'test-model',
      INPUT_COMMENT: 'true',
    });
    expect(r.code, r.stdout).toBe(0);
    const answer = 'The typo is on line 1: "teh" should be "the".';
    const request = JSON.stringify(s.requests[0]!.body.messages);
    expect(request).toContain('where is the typo?');
    expect(request).toContain('Typo in README');
    expect(request).not.toContain('gh-secret-token');
    const output = await readFile(join(runner, 'output'), 'utf8');
    expect(output).toContain(`\n${answer}\n`);
    expect(output).toMatch(/^skipped<<.*\nfalse\n/);
    expect(await readFile(join(runner, 'summary'), 'utf8')).toContain(
      `**Task:** where is the typo?\n\n${answer}`,
    );
    expect(await readFile(ghLog, 'utf8')).toBe(
      `issue comment 7 --repo acme/widgets --body-file -\ntoken=gh-secret-token\n${answer}`,
    );
  });

  it('skips a mention by an author outside allowed-associations without starting Keel', async () => {
    const runner = await workspace({});
    await writeFile(join(runner, 'event.json'), JSON.stringify(comment('@keel delete everything', 'NONE')));
    const r = await runEntry({
      PATH: process.env.PATH!,
      GITHUB_EVENT_PATH: join(runner, 'event.json'),
      GITHUB_OUTPUT: join(runner, 'output'),
      KEEL_BIN: join(runner, 'absent.js'),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('not one of OWNER,MEMBER,COLLABORATOR');
    expect(await readFile(join(runner, 'output'), 'utf8')).toMatch(/^answer<<.*\n\n.*\nskipped<<.*\ntrue\n/);
  });
});
