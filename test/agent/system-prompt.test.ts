// The system prompt's command rules: the read-only examples and allow rules it names come from the same rules the
// policy enforces, the user's deny and ask rules included, so it never says a command runs that the policy holds back.
import { describe, expect, test } from 'vitest';
import { readOnlyExamples, systemPrompt } from '../../src/agent/system-prompt.js';
import { parseRules, type RuleSources } from '../../src/safety/user-rules.js';

const rules = (sources: Partial<RuleSources>) => parseRules({ allow: [], ask: [], deny: [], ...sources });

describe('the read-only examples the system prompt names', () => {
  test.each([
    // [rules, left out, still named]
    [{}, [], ['ls', 'cat', 'git status/diff/log/show/blame', 'printing sed/awk']],
    [{ deny: ['git log'] }, ['log'], ['git status/diff/show/blame']],
    [{ deny: ['git log *'] }, ['log'], ['git status/diff/show/blame']],
    [{ deny: ['git *'] }, ['git '], ['ls', 'cat']],
    [{ ask: ['git blame *', 'cat *'] }, ['blame', 'cat,'], ['git status/diff/log/show', 'head']],
    [{ deny: ['/usr/bin/ls'] }, [], ['ls,']],
    [{ deny: ['sed *'] }, ['sed'], ['printing awk']],
    // A rule on one form of a command holds back that form only: the program is still named.
    [{ deny: ['git log -p'] }, [], ['git status/diff/log/show/blame']],
  ] as [Partial<RuleSources>, string[], string[]][])('%j', async (sources, out, kept) => {
    const shown = readOnlyExamples(await rules(sources));
    for (const text of out) expect(shown).not.toContain(text);
    for (const text of kept) expect(shown).toContain(text);
  });
});

describe('the command rules of the system prompt', () => {
  test('restricted mode leaves out git log when the user denies it', async () => {
    const prompt = systemPrompt({
      workspace: '/w',
      mode: 'restricted',
      rules: await rules({ deny: ['git log'] }),
    });
    expect(prompt).toContain('git status/diff/show/blame');
    expect(prompt).not.toContain('git log');
  });

  test('names allow rules, but not one a deny or ask rule overrides (deny wins, as in the policy)', async () => {
    const prompt = systemPrompt({
      workspace: '/w',
      mode: 'interactive',
      rules: await rules({ allow: ['npm test', 'git push *', 'make'], deny: ['git push *'], ask: ['make'] }),
    });
    // The parenthesis closes after npm test: neither git push nor make is named.
    expect(prompt).toContain('(also: npm test)');
    expect(prompt).not.toContain('git push');
  });

  test('plan mode, which offers no execute_command, does not name it', async () => {
    const prompt = systemPrompt({
      workspace: '/w',
      mode: 'plan',
      rules: await rules({ allow: ['npm test'] }),
    });
    expect(prompt).toContain('Plan mode: change nothing');
    expect(prompt).not.toContain('execute_command');
  });
});
