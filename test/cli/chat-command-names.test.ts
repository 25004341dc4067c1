// What a `/name` means in the chat: a built-in, a prompt command beside them (one named like a built-in reached as
// `/<source>:<name>`), or a suggestion for a typo; and /help listing them.
import { describe, expect, it } from 'vitest';
import { commandNames, findCommand, helpText, suggestCommand } from '../../src/cli/chat-command-names.js';
import { CHAT_COMMANDS } from '../../src/cli/chat-commands.js';
import type { PromptCommand } from '../../src/core/prompt-command.js';

const prompt = (name: string, source: string, description = `the ${source} ${name}`): PromptCommand => ({
  name,
  description,
  source,
  expand: async () => '',
});

/** A project's review.md (named like the built-in /review), its check.md, a user command, an MCP prompt. */
const prompts = [
  prompt('review', 'project', 'review a file for one concern'),
  prompt('check', 'project'),
  prompt('undo', 'user'),
  prompt('aud__greet', 'mcp:aud'),
];

describe('findCommand', () => {
  it.each([
    ['review', { builtin: 'review' }],
    ['project:review', { prompt: 'project review' }],
    ['undo', { builtin: 'undo' }],
    ['user:undo', { prompt: 'user undo' }],
    ['check', { prompt: 'project check' }],
    ['aud__greet', { prompt: 'mcp:aud aud__greet' }],
    // Any prompt command answers to <source>:<name> too, as with keel run --command.
    ['project:check', { prompt: 'project check' }],
    ['chek', { guess: 'check' }],
    ['zzzzzz', {}],
  ])('/%s → %j', (name, expected) => {
    const found = findCommand(name, prompts);
    expect({
      ...(found.builtin ? { builtin: found.builtin.name } : {}),
      ...(found.prompt ? { prompt: `${found.prompt.source} ${found.prompt.name}` } : {}),
      ...(found.guess ? { guess: found.guess } : {}),
    }).toEqual(expected);
  });

  it('completes every name once: a shadowed command by its chat name', () => {
    const names = commandNames(prompts);
    expect(names.filter((n) => n === 'review')).toHaveLength(1);
    expect(names).toEqual(expect.arrayContaining(['project:review', 'user:undo', 'check', 'aud__greet']));
  });
});

describe('/help', () => {
  it('lists every built-in with its arguments, each prompt command once, and the keys', () => {
    const help = helpText(prompts);
    for (const c of CHAT_COMMANDS) expect(help).toContain(`/${c.name}${c.args ? ` ${c.args}` : ''}`);
    expect(help).toContain('the project check (project)');
    expect(help).toContain('Ctrl-C');
  });

  it("shows a prompt command's arguments after its name (argument-hint, an MCP prompt's arguments)", () => {
    const hinted = [
      { ...prompt('check', 'project', 'Review a file'), argumentHint: '<file> <concern>' },
      { ...prompt('ev__weather', 'mcp:ev', 'the weather'), argumentHint: '<city> [state]' },
    ];
    const lines = helpText(hinted).split('\n');
    expect(lines.find((l) => l.includes('/check'))).toMatch(
      /\/check <file> <concern>\s+Review a file \(project\)/,
    );
    expect(lines.find((l) => l.includes('/ev__weather'))).toMatch(
      /\/ev__weather <city> \[state\]\s+the weather/,
    );
  });

  it('names a command hidden by a built-in by the name that runs it, and says why', () => {
    const lines = helpText(prompts).split('\n');
    expect(lines.filter((l) => /^\s+\/review\b/.test(l))).toHaveLength(1);
    expect(lines.find((l) => l.includes('/project:review'))).toMatch(
      /\/project:review\s+review a file for one concern \(project; \/review stays the built-in command\)/,
    );
    expect(lines.find((l) => l.includes('/user:undo'))).toContain('(user; /undo stays the built-in command)');
  });
});

describe('/help at a terminal', () => {
  it('wraps each description at word boundaries at 60 columns, under its column', () => {
    const help = helpText([], 60);
    const lines = help.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(60);
    const words = new Set(helpText([]).split(/\s+/));
    for (const word of help.split(/\s+/)) expect(words.has(word)).toBe(true);
    // Continuation lines start under the descriptions: /help's description begins where they do.
    const column = (lines[1] ?? '').indexOf('list commands');
    const continued = lines.slice(0, lines.indexOf('keys:')).filter((l) => /^ {5,}\S/.test(l));
    expect(continued.length).toBeGreaterThan(0);
    for (const line of continued) expect(line.search(/\S/)).toBe(column);
  });
});

describe('suggestCommand', () => {
  it('suggests the command a typo meant, and nothing for a word far from any', () => {
    const names = CHAT_COMMANDS.map((c) => c.name);
    expect(suggestCommand('hlep', names)).toBe('help');
    expect(suggestCommand('comapct', names)).toBe('compact');
    expect(suggestCommand('res', names)).toBe('resume');
    expect(suggestCommand('zzzzzz', names)).toBeUndefined();
  });
});
