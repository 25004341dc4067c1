// A run long enough to be pruned, through each wire format with its rules checked by the scripted server, in-process
// through runCommand: the pruning note reaches the model in a form every provider accepts and the run ends normally.
import { describe, expect, it } from 'vitest';
import { useE2E, type WireProvider, wireProviders } from '../support/e2e.js';
import type { ScriptStep } from '../support/model-server.js';
import { providerRun } from '../support/run-in-process.js';

const { server, workspace } = useE2E();

interface Case extends WireProvider {
  /** The conversation of a request body: messages, or Gemini contents (whose system prompt is apart). */
  history(body: Record<string, unknown>): unknown[];
  /** The roles that conversation may hold, in the format's own words. */
  roles: string[];
}

const chatRoles = ['system', 'user', 'assistant', 'tool'];
const cases: Case[] = wireProviders.map((p) =>
  p.provider === 'gemini'
    ? { ...p, history: (b) => b.contents as unknown[], roles: ['user', 'model'] }
    : {
        ...p,
        history: (b) => b.messages as unknown[],
        roles: p.provider === 'anthropic' ? ['user', 'assistant'] : chatRoles,
      },
);

// Each file is about 400 tokens against a 1,000-token budget pruned at 80%: reading the second one starts pruning.
const files = {
  'a.txt': 'alpha '.repeat(270),
  'b.txt': 'bravo '.repeat(270),
  'c.txt': 'charlie '.repeat(200),
};
const config =
  'agent:\n  conversation:\n    max_tokens: 1000\n    min_retain_turns: 1\n    auto_compact: false\n';

const script: ScriptStep[] = [
  { text: 'Reading a.', toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
  { toolCalls: [{ name: 'read_file', args: { path: 'b.txt' } }] },
  { toolCalls: [{ name: 'read_file', args: { path: 'c.txt' } }] },
  { text: 'The three files hold alpha, bravo and charlie.' },
];

const notePrefix = '[Keel: to fit the context window, ';

describe.each(cases)('keel run --provider $provider prunes a long run', (c) => {
  it('sends the pruning note as a user-role message the format accepts, and finishes (exit 0)', async () => {
    const s = await server({ script, openrouter: c.provider === 'openrouter' });
    const ws = await workspace({ ...files, '.keel.yaml': config });
    const r = await providerRun(c, s, ws, {}, { stdin: 'What do the three files hold?' });
    expect(s.rejections, 'requests refused by the wire rules').toEqual([]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('The three files hold alpha, bravo and charlie.');
    expect(r.stderr).toContain('conversation pruned to fit the context');
    expect(s.requests).toHaveLength(4);

    // The third request is the first after pruning: the note stands where a.txt's exchange was, as user text.
    const third = c.history(s.requests[2]!.body);
    const text = JSON.stringify(third);
    expect(text).toContain(notePrefix);
    expect(text).toContain('2 earlier messages with 1 tool call (read_file) were removed');
    expect(text).not.toContain('alpha alpha');
    expect(text).toContain('bravo bravo');
    const noteAt = third.findIndex((m) => JSON.stringify(m).includes(notePrefix));
    expect((third[noteAt] as { role: string }).role).toBe('user');
    for (const m of third) expect(c.roles).toContain((m as { role: string }).role);
    // Only a leading system message, where the format has one in its messages at all.
    const systems = third.filter((m) => (m as { role: string }).role === 'system');
    expect(systems.length).toBeLessThanOrEqual(1);
    if (systems.length === 1) expect((third[0] as { role: string }).role).toBe('system');

    // Pruning again folds the first note into a cumulative one.
    const fourth = JSON.stringify(c.history(s.requests[3]!.body));
    expect(fourth.split(notePrefix)).toHaveLength(2);
    expect(fourth).toContain('4 earlier messages with 2 tool calls (read_file) were removed');
    expect(fourth).toContain('charlie charlie');
  });
});
