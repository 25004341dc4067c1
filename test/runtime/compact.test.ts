// `/compact [focus]` as the chat calls it: Run.compact from assembleRun against the scripted model server, with
// the session saved; the focus steers the summary, the conversation continues from it, and the session file
// replays to exactly the compacted list.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assembleRun, type Run } from '../../src/runtime/assemble.js';
import { readSession, sessionMessages } from '../../src/session/session-file.js';
import { homeEnv, useE2E } from '../support/e2e.js';
import type { ReceivedRequest } from '../support/model-server.js';

const { server, workspace } = useE2E();

const saved = { ...process.env };
beforeEach(async () => {
  const home = await workspace();
  Object.assign(process.env, homeEnv(home));
});
afterEach(() => {
  process.env = { ...saved };
});

const SUMMARY = '## Goal\nRename foo.\n## Open\nUpdate the callers.';
const isSummaryRequest = (r: ReceivedRequest) => r.rawBody.includes('You summarise a coding agent');
const messagesOf = (r: ReceivedRequest) =>
  (r.body as { messages: { role: string; content: string }[] }).messages;

describe('Run.compact (/compact [focus])', () => {
  it('summarises with the focus, continues from the summary and the todo list, and saves the compacted session', async () => {
    const ws = await workspace({ 'a.ts': 'export const foo = 1;\n', 'AGENTS.md': 'Use tabs.\n' });
    const todos = [
      { id: '1', content: 'find foo', status: 'done' },
      { id: '2', content: 'rename foo to bar', status: 'pending' },
    ];
    const s = await server([
      { toolCalls: [{ name: 'todo_write', args: { todos } }] },
      { toolCalls: [{ name: 'read_file', args: { path: 'a.ts' } }] },
      { text: 'foo is 1.' },
      { text: SUMMARY },
      { text: 'Renaming next.' },
    ]);
    let agent: Run | undefined;
    try {
      agent = await assembleRun({
        cwd: ws,
        flags: { provider: 'ollama', baseUrl: s.ollamaUrl, model: 'test-model' },
        mode: () => 'restricted',
        session: { save: true },
      });
      const signal = new AbortController().signal;
      agent.conversation.push({ role: 'user', content: 'what is foo?' });
      expect((await agent.run(signal)).reason).toBe('done');

      await agent.compact!('the rename', signal);
      const request = s.requests[3]!;
      expect(isSummaryRequest(request)).toBe(true);
      expect(request.rawBody).toContain('The user asks the summary to focus on: the rename');
      expect(request.body.tools ?? []).toEqual([]);
      // The answered request is not sent again; the system prompt (with AGENTS.md) and the summary are.
      const compacted = agent.conversation.messages;
      expect(compacted.map((m) => m.role)).toEqual(['system', 'user']);
      expect(compacted[0]!.content).toContain('Use tabs.');
      expect(compacted[1]!.content).toContain(SUMMARY);
      expect(compacted[1]!.content).toContain('- [x] 1: find foo\n- [ ] 2: rename foo to bar');
      const record = await readSession(agent.session!.file);
      expect(sessionMessages(record!)).toEqual(compacted);
      expect(record!.events.find((e) => e.type === 'compaction')).toMatchObject({ trigger: 'manual' });

      agent.conversation.push({ role: 'user', content: 'rename it to bar' });
      await agent.run(signal);
      expect(messagesOf(s.requests[4]!)).toEqual([
        { role: 'system', content: compacted[0]!.content },
        { role: 'user', content: compacted[1]!.content },
        // The message as typed, plus the loop's notes (its intent; the tools its refactoring offers anew).
        { role: 'user', content: expect.stringMatching(/^rename it to bar(\n\n\[Keel: [^\n]*\])*$/) },
      ]);
    } finally {
      await agent?.close();
    }
  });

  it('after an interrupted turn, compacts its request into the summary and does not send it again', async () => {
    const ws = await workspace({ 'a.ts': 'export const foo = 1;\n' });
    const s = await server([
      { text: 'foo is 1.' },
      { text: 'Starting the rena', stall: true },
      { text: SUMMARY },
      { text: 'Tests run.' },
    ]);
    let agent: Run | undefined;
    try {
      agent = await assembleRun({
        cwd: ws,
        flags: { provider: 'ollama', baseUrl: s.ollamaUrl, model: 'test-model' },
        mode: () => 'restricted',
        session: { save: true },
      });
      const signal = new AbortController().signal;
      agent.conversation.push({ role: 'user', content: 'what is foo?' });
      await agent.run(signal);
      agent.conversation.push({ role: 'user', content: 'rename foo everywhere' });
      const stop = new AbortController();
      const interrupted = agent.run(stop.signal);
      while (s.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      stop.abort();
      expect((await interrupted).reason).toBe('interrupted');

      await agent.compact!(undefined, signal);
      expect(messagesOf(s.requests[2]!)[1]!.content).toContain('rename foo everywhere');
      expect(agent.conversation.messages.map((m) => m.role)).toEqual(['system', 'user']);

      agent.conversation.push({ role: 'user', content: 'run the tests' });
      await agent.run(signal);
      const next = messagesOf(s.requests[3]!);
      expect(next.map((m) => m.role)).toEqual(['system', 'user', 'user']);
      expect(next[1]!.content).toContain(SUMMARY);
      expect(next[2]!.content).toMatch(/^run the tests/);
      expect(JSON.stringify(next)).not.toContain('rename foo everywhere');
    } finally {
      await agent?.close();
    }
  });
});
