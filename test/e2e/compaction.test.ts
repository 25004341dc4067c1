// Automatic compaction near the context limit, in-process through runCommand against the scripted server through every wire format (the summary request, the
// next request continuing from the summary with the context file read again, the `compaction` event), a long
// session under a small window staying in budget, a compacted session resumed exactly, and the budget's order:
// old tool output cut to head and tail before any turn is pruned.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E, wireProviders } from '../support/e2e.js';
import type { ReceivedRequest, ScriptedReply, ScriptStep } from '../support/model-server.js';
import { ollamaRun, providerRun } from '../support/run-in-process.js';

const { server, workspace } = useE2E();

const SUMMARY =
  '## Goal\nReport what the files hold.\n## Instructions\nNone.\n## Discoveries\nEach file repeats one word.\n## Done\nRead the first files.\n## Open\nRead the rest.\n## Files touched\nf0.txt';
const FINAL = 'Every file repeats its own word.';
const TASK = 'Read the files f0.txt to f9.txt one by one and say what they hold.';

/** The summary request is the one whose system prompt asks for a summary (and offers no tools). */
const isSummaryRequest = (r: ReceivedRequest) => r.rawBody.includes('You summarise a coding agent');

/**
 * A script that answers summary requests with SUMMARY (running `onSummary` first) whenever they come, and every
 * other request with the next of `replies`: the test does not depend on the exact turn compaction happens at.
 */
function scriptWithSummaries(replies: ScriptedReply[], onSummary?: () => Promise<void>): ScriptStep[] {
  const queue = [...replies];
  const step: ScriptStep = async (r) => {
    if (!isSummaryRequest(r)) return queue.shift() ?? { text: 'script exhausted' };
    await onSummary?.();
    return { text: SUMMARY, usage: { input: 900, output: 60 } };
  };
  return Array.from({ length: replies.length + 10 }, () => step);
}

/** Reads of f0.txt … f(n-1).txt, then the final answer. */
const reads = (n: number): ScriptedReply[] => [
  ...Array.from({ length: n }, (_, i) => ({
    toolCalls: [{ name: 'read_file', args: { path: `f${i}.txt` } }],
  })),
  { text: FINAL },
];

/** Files of about 250 tokens each: under the size at which old outputs are cut, so only compaction helps. */
const files = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}.txt`, `word${i} `.repeat(150)]));

const config = (maxTokens: number, extra = '') =>
  `agent:\n  conversation:\n    max_tokens: ${maxTokens}\n    min_retain_turns: 1\n${extra}`;

/** Events of a stream-json run. */
const eventsOf = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe.each(wireProviders)('keel run --provider $provider compacts near the context limit', (p) => {
  it('asks for the summary without tools and continues from it with the context file read again', async () => {
    const ws = await workspace({
      ...files(10),
      'AGENTS.md': 'Context marker: CTX-FIRST.\n',
      '.keel.yaml': config(2500),
    });
    // The user edits AGENTS.md while the summary is written: the compacted request carries the new text.
    const s = await server({
      script: scriptWithSummaries(reads(10), () =>
        writeFile(join(ws, 'AGENTS.md'), 'Context marker: CTX-SECOND.\n'),
      ),
      openrouter: p.provider === 'openrouter',
    });
    const r = await providerRun(p, s, ws, { output: 'stream-json' }, { stdin: TASK });
    expect(s.rejections, 'requests refused by the wire rules').toEqual([]);
    expect(r.code, r.stderr).toBe(0);

    const at = s.requests.findIndex(isSummaryRequest);
    expect(at, 'no summary request').toBeGreaterThan(0);
    const summaryRequest = s.requests[at]!;
    expect(summaryRequest.body.tools ?? []).toEqual([]);
    expect(summaryRequest.rawBody).toContain('## Files touched');
    expect(summaryRequest.rawBody).toContain('read_file');
    expect(summaryRequest.rawBody).toMatch(/word\d word\d/);

    const before = s.requests[at - 1]!.rawBody;
    expect(before).toContain('CTX-FIRST');
    const next = s.requests[at + 1]!.rawBody;
    expect(next).toContain('[Keel: summary of earlier work.');
    expect(next).toContain('Each file repeats one word.');
    expect(next).toContain('CTX-SECOND');
    expect(next).not.toContain('CTX-FIRST');
    // The task still being worked on is sent again; the old tool results are gone.
    expect(next).toContain('Read the files f0.txt to f9.txt one by one');
    expect(next).not.toContain('word0 word0');
    expect(next.length).toBeLessThan(before.length);

    const events = eventsOf(r.stdout);
    const compaction = events.find((e) => e.type === 'compaction');
    expect(compaction).toMatchObject({ type: 'compaction', trigger: 'auto', summary: SUMMARY });
    expect(compaction!.tokens_before as number).toBeGreaterThan(compaction!.tokens_after as number);
    // The summary call's usage counts in the run's.
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: 'run_end', reason: 'done', answer: FINAL });
    expect((end.usage as { input_tokens: number }).input_tokens).toBeGreaterThanOrEqual(900);
  });
});

/** The request's estimated size in tokens, as Keel estimates it: about four characters a token. */
const estimate = (r: ReceivedRequest) =>
  Math.ceil(
    (r.body.messages as { content: string }[]).reduce((n, m) => n + String(m.content ?? '').length + 8, 0) /
      4,
  );

describe('a long session under a small window', () => {
  it('stays within the budget, compacting as often as needed, and later requests carry the summary', async () => {
    const maxTokens = 2000;
    const ws = await workspace({ ...files(16), '.keel.yaml': config(maxTokens) });
    const s = await server(scriptWithSummaries(reads(16)));
    const r = await ollamaRun(s, ws, { maxTurns: 40 }, { stdin: 'Read all sixteen files.' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(FINAL);
    const summaries = s.requests.filter(isSummaryRequest);
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    const first = s.requests.findIndex(isSummaryRequest);
    for (const [i, request] of s.requests.entries()) {
      expect(estimate(request), `request ${i} over budget`).toBeLessThanOrEqual(maxTokens);
      if (i > first && !isSummaryRequest(request))
        expect(request.rawBody, `request ${i} lacks the summary`).toContain(
          '[Keel: summary of earlier work.',
        );
    }
    // A later summary request summarises the earlier summary along with what came after.
    expect(summaries.at(-1)!.rawBody).toContain('Each file repeats one word.');
    // The user sees each compaction with the tokens before and after.
    expect(r.stderr).toMatch(
      /compacted: the context was nearly full; the conversation is now a summary: \d+ → \d+ tokens/,
    );
    expect(r.stderr).not.toContain('conversation pruned');
  });
});

describe('the token estimate', () => {
  it("compacts on the provider's reported input tokens when the bytes alone look small", async () => {
    const ws = await workspace({ ...files(1), '.keel.yaml': config(2500) });
    // The provider counts 2,400 tokens for a request of well under 1,000 by bytes: the next one is near the limit.
    const [read, final] = reads(1);
    const s = await server(scriptWithSummaries([{ ...read, usage: { input: 2400, output: 5 } }, final!]));
    const r = await ollamaRun(s, ws, {}, { stdin: 'Read f0.txt.' });
    expect(r.code, r.stderr).toBe(0);
    expect(s.requests.map(isSummaryRequest)).toEqual([false, true, false]);
  });
});

const messagesOf = (r: ReceivedRequest) =>
  (r.body as { messages: { role: string; content: string }[] }).messages;

describe('a compacted session resumed', () => {
  it('sends exactly the compacted history with keel run --continue', async () => {
    const ws = await workspace({ ...files(10), '.keel.yaml': config(2500) });
    const env = { XDG_DATA_HOME: await workspace(), XDG_STATE_HOME: await workspace() };
    const first = await server(scriptWithSummaries(reads(10)));
    const r = await ollamaRun(first, ws, {}, { stdin: TASK, env });
    expect(r.code, r.stderr).toBe(0);
    expect(first.requests.some(isSummaryRequest)).toBe(true);
    const last = messagesOf(first.requests.at(-1)!);
    expect(JSON.stringify(last)).toContain('[Keel: summary of earlier work.');

    const second = await server([{ text: 'Nothing else.' }]);
    const resumed = await ollamaRun(second, ws, { continue: true, prompt: 'anything else?' }, { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(messagesOf(second.requests[0]!)).toEqual([
      ...last,
      { role: 'assistant', content: FINAL },
      { role: 'user', content: 'anything else?' },
    ]);
  });
});

describe('the context budget by priority', () => {
  it('cuts old tool output to head and tail before any turn is pruned', async () => {
    // Files of about 750 tokens: long enough to be cut once their turn is old.
    const big = (word: string) => `${word}-head ${'filler '.repeat(420)}${word}-tail`;
    const ws = await workspace({
      'f0.txt': big('w0'),
      'f1.txt': big('w1'),
      'f2.txt': big('w2'),
      'f3.txt': big('w3'),
      'f4.txt': big('w4'),
      '.keel.yaml': config(2000, '    auto_compact: false\n'),
    });
    const s = await server(reads(5));
    const r = await ollamaRun(s, ws, {}, { stdin: 'Read the five files.' });
    expect(r.code, r.stderr).toBe(0);
    const cutNote = 'characters of this old result were cut to fit the context window';
    const pruneNote = '[Keel: to fit the context window, ';
    const firstCut = s.requests.findIndex((q) => q.rawBody.includes(cutNote));
    const firstPrune = s.requests.findIndex((q) => q.rawBody.includes(pruneNote));
    expect(firstCut, 'no old output was cut').toBeGreaterThan(0);
    expect(firstPrune, 'no turn was pruned').toBeGreaterThan(firstCut);
    // When the first output is cut every turn is still there, the cut one keeping its head and tail.
    const cut = messagesOf(s.requests[firstCut]!);
    expect(cut.filter((m) => m.role === 'tool')).toHaveLength(firstCut);
    const f0 = cut.find((m) => m.role === 'tool')!.content;
    expect(f0).toContain('w0-head');
    expect(f0).toContain(cutNote);
    expect(f0).toContain('w0-tail');
    expect(r.stderr).toContain('old tool output cut to head and tail');
  });
});
