// The pure decisions of commits, reviews and forks: a model's reply as a commit message, the attribution trailer,
// severities and findings read from an answer, their printed form, /review's arguments and where a fork cuts.
import { describe, expect, it } from 'vitest';
import { approveCommit } from '../../src/cli/commit-command.js';
import { forkPoint } from '../../src/cli/fork-command.js';
import { parseReviewArgs } from '../../src/cli/review-command.js';
import type { Message } from '../../src/core/messages.js';
import { cleanMessage, withAttribution } from '../../src/git/commit-message.js';
import type { CommitDraft } from '../../src/runtime/git-work.js';
import { findingsInText, severityOf } from '../../src/tools/report-finding.js';
import { findingsSummary, formatFindings } from '../../src/ui/review-report.js';

describe('cleanMessage', () => {
  it.each([
    ['feat: add x', 'feat: add x'],
    ['```\nfix: y\n\nbody\n```', 'fix: y\n\nbody'],
    ['```text\nfix: y\n```', 'fix: y'],
    ['<think>hmm</think>\nAdd z', 'Add z'],
    ['Commit message:\nAdd z', 'Add z'],
    ['"Add z"', 'Add z'],
    ['Add z   \n\n\n\nbody  ', 'Add z\n\nbody'],
  ])('%j → %j', (reply, message) => {
    expect(cleanMessage(reply)).toBe(message);
  });
});

describe('withAttribution', () => {
  it.each([
    ['Add x', 'Add x\n\nAssisted-by: Keel (ollama/m)'],
    ['Add x\n\nbody', 'Add x\n\nbody\n\nAssisted-by: Keel (ollama/m)'],
    ['Add x\n\nSigned-off-by: A <a@b>', 'Add x\n\nSigned-off-by: A <a@b>\nAssisted-by: Keel (ollama/m)'],
    ['Add x\n\nAssisted-by: Keel (ollama/m)', 'Add x\n\nAssisted-by: Keel (ollama/m)'],
  ])('%j → %j', (message, expected) => {
    expect(withAttribution(message, 'ollama/m')).toBe(expected);
  });

  it('leaves the message alone when attribution is off', () => {
    expect(withAttribution('Add x', undefined)).toBe('Add x');
  });
});

describe('severityOf', () => {
  it.each([
    ['HIGH', 'high'],
    ['minor', 'low'],
    ['warning', 'medium'],
    ['major', 'high'],
    ['blocker', 'critical'],
    ['nit', 'info'],
    ['severe', undefined],
    [3, undefined],
  ])('%j → %j', (word, severity) => {
    expect(severityOf(word)).toBe(severity);
  });
});

describe('findingsInText', () => {
  it('reads JSON lines among prose, and counts the ones that are not findings', () => {
    const text = [
      'Two problems:',
      '{"path":"a.ts","line":3,"severity":"major","message":"off by one"}',
      '{"path":"b.ts","line":"7","severity":"low","message":"name"},',
      '{"path":"c.ts"}',
      '{not json',
    ].join('\n');
    expect(findingsInText(text)).toEqual({
      findings: [
        { path: 'a.ts', line: 3, severity: 'high', message: 'off by one' },
        { path: 'b.ts', line: 7, severity: 'low', message: 'name' },
      ],
      unreadable: 2,
    });
  });

  it('reads one fenced JSON array', () => {
    const text = '```json\n[{"path":"a.ts","line":1,"severity":"info","message":"m"}]\n```';
    expect(findingsInText(text).findings).toEqual([
      { path: 'a.ts', line: 1, severity: 'info', message: 'm' },
    ]);
  });

  it('finds nothing in a plain answer', () => {
    expect(findingsInText('Looks good.')).toEqual({ findings: [], unreadable: 0 });
  });
});

describe('formatFindings', () => {
  const findings = [
    { path: 'b.ts', line: 9, severity: 'low' as const, message: 'late' },
    { path: 'a.ts', line: 5, severity: 'high' as const, message: 'two\nlines' },
    { path: 'b.ts', line: 2, severity: 'critical' as const, message: 'early' },
    { path: 'a.ts', line: 5, severity: 'high' as const, message: 'two\nlines' },
  ];

  it('groups by file, orders by line, keeps a repeated finding once', () => {
    expect(formatFindings(findings)).toBe(
      'a.ts:5 high two lines\n\nb.ts:2 critical early\nb.ts:9 low late\n',
    );
    expect(findingsSummary(findings)).toBe('3 findings: 1 critical, 1 high, 1 low');
    expect(findingsSummary([])).toBe('no findings');
  });
});

describe('parseReviewArgs', () => {
  it.each([
    ['', { paths: [] }],
    ['src a.ts', { paths: ['src', 'a.ts'] }],
    ['--base main src', { paths: ['src'], base: 'main' }],
    ['--base=origin/main', { paths: [], base: 'origin/main' }],
    ['--base', undefined],
    ['--fail-on high', undefined],
  ])('%j → %j', (args, parsed) => {
    expect(parseReviewArgs(args)).toEqual(parsed);
  });
});

describe('forkPoint', () => {
  const messages: Message[] = [
    { role: 'system', content: 's' },
    { role: 'user', content: 'one' },
    { role: 'assistant', content: 'a1' },
    { role: 'user', content: '[Keel: a note]' },
    { role: 'assistant', content: 'a1b' },
    { role: 'user', content: 'two' },
    { role: 'assistant', content: 'a2' },
  ];

  it.each([
    [1, 5],
    [2, 7],
    [undefined, 7],
  ])('at %j keeps %j messages (Keel notes are not your messages)', (at, keep) => {
    expect(forkPoint(messages, at).keep).toBe(keep);
  });

  it.each([0, 3])('refuses message %j', (at) => {
    expect(() => forkPoint(messages, at)).toThrow(/no message/);
  });
});

describe('approveCommit', () => {
  /** A draft that records what was committed or discarded. */
  function draft() {
    const done: string[] = [];
    const value = {
      git: {} as CommitDraft['git'],
      changes: { files: ['a.txt'], source: 'paths' as const, stat: '', diff: '' },
      message: 'Add a',
      commit: async (message: string) => {
        done.push(`commit ${message}`);
        return { hash: 'abc1234', subject: message.split('\n')[0]! };
      },
      discard: async () => void done.push('discard'),
    };
    return { value, done };
  }
  const out = { print: () => {}, notice: () => {} };
  const answers =
    (...said: string[]) =>
    async () =>
      said.shift() ?? null;

  it('commits after y, and puts the index back after n', async () => {
    const yes = draft();
    await approveCommit(yes.value, { out, yes: false, env: {}, ask: answers('y') });
    expect(yes.done).toEqual(['commit Add a']);
    const no = draft();
    expect(await approveCommit(no.value, { out, yes: false, env: {}, ask: answers('n') })).toBeUndefined();
    expect(no.done).toEqual(['discard']);
  });

  it('commits the message as edited in $EDITOR after e', async () => {
    const d = draft();
    const env = { ...process.env, EDITOR: 'sed -i s/Add/Edit/' };
    await approveCommit(d.value, { out, yes: false, env, ask: answers('e', 'y') });
    expect(d.done).toEqual(['commit Edit a']);
  });

  it('refuses without --yes when nobody can be asked, leaving the index as it was', async () => {
    const d = draft();
    await expect(approveCommit(d.value, { out, yes: false, env: {} })).rejects.toThrow(
      /pass --yes|not a terminal/,
    );
    expect(d.done).toEqual(['discard']);
  });
});
