// The chat's command table: parsing a line, every built-in listed in /help, suggestions for typos, and handlers
// acting through the chat context.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHAT_COMMANDS,
  type ChatContext,
  helpText,
  parseCommand,
  suggestCommand,
} from '../../src/cli/chat-commands.js';

const names = CHAT_COMMANDS.map((c) => c.name);

/** A chat context recording what the commands did. */
function fakeChat(overrides: Partial<ChatContext> = {}) {
  const said: string[] = [];
  const calls: string[] = [];
  const record = (name: string) => {
    calls.push(name);
    return 0;
  };
  const chat: ChatContext = {
    note: (t) => void said.push(t),
    print: (t) => void said.push(t),
    busy: (label, work) => {
      calls.push(`busy ${label}`);
      return work(new AbortController().signal);
    },
    send: async (m) => void calls.push(`send ${m}`),
    restart: async (change) => void calls.push(`restart ${JSON.stringify(change)}`),
    exit: () => void calls.push('exit'),
    help: () => 'HELP',
    cost: () => 'COST',
    lastOutput: () => undefined,
    modelName: () => 'ollama/qwen3',
    sessionFile: () => undefined,
    undo: async () => void record('undo'),
    rewind: async (args) => void record(`rewind ${args}`),
    wroteForUser: async (file) => void record(`wrote ${file}`),
    subcommand: {
      undo: async () => record('undo'),
      init: async () => record('init'),
      sessions: async () => record('sessions'),
      models: async () => record('models'),
    },
    ...overrides,
  };
  const run = (line: string) => {
    const parsed = parseCommand(line)!;
    return CHAT_COMMANDS.find((c) => c.name === parsed.name)!.run(parsed.args, chat);
  };
  return { chat, said, calls, run };
}

describe('parseCommand', () => {
  it('splits a command line into name and arguments; a path or plain text is a message', () => {
    expect(parseCommand('/resume  abc123 ')).toEqual({ name: 'resume', args: 'abc123' });
    expect(parseCommand('/compact keep the API design')).toEqual({
      name: 'compact',
      args: 'keep the API design',
    });
    expect(parseCommand('/help')).toEqual({ name: 'help', args: '' });
    expect(parseCommand('/usr/bin/env is missing')).toBeUndefined();
    expect(parseCommand('hello /help')).toBeUndefined();
  });
});

describe('the command table', () => {
  it('holds every command of the chat, each listed in /help with its arguments', () => {
    expect(names).toEqual(
      expect.arrayContaining([
        'help',
        'clear',
        'sessions',
        'resume',
        'compact',
        'model',
        'cost',
        'save',
        'undo',
        'init',
        'exit',
        'output',
      ]),
    );
    const help = helpText([
      { name: 'review', description: 'review the diff', source: 'project', expand: async () => '' },
    ]);
    for (const c of CHAT_COMMANDS) expect(help).toContain(`/${c.name}${c.args ? ` ${c.args}` : ''}`);
    expect(help).toContain('/review');
    expect(help).toContain('review the diff (project)');
    expect(help).toContain('Ctrl-C');
  });

  it('suggests the command a typo meant, and nothing for a word far from any', () => {
    expect(suggestCommand('hlep', names)).toBe('help');
    expect(suggestCommand('comapct', names)).toBe('compact');
    expect(suggestCommand('res', names)).toBe('resume');
    expect(suggestCommand('zzzzzz', names)).toBeUndefined();
  });

  it('/compact calls the agent with its focus, or says compaction is unavailable', async () => {
    const focus: (string | undefined)[] = [];
    const withCompact = fakeChat({ compact: async (f) => void focus.push(f) });
    await withCompact.run('/compact the parser');
    await withCompact.run('/compact');
    expect(focus).toEqual(['the parser', undefined]);
    expect(withCompact.calls).toContain('busy compacting');
    const without = fakeChat();
    await without.run('/compact');
    expect(without.said.join('')).toContain('compaction is unavailable');
  });

  it('/model lists without a name and switches with one; /resume needs an id; /clear restarts fresh', async () => {
    const { run, calls, said } = fakeChat();
    await run('/model');
    await run('/model llama3.2');
    await run('/resume');
    await run('/resume abc');
    await run('/clear');
    expect(said.join('')).toContain('current model: ollama/qwen3');
    expect(said.join('')).toContain('usage: /resume <id>');
    expect(calls).toEqual([
      'models',
      'restart {"model":"llama3.2"}',
      'restart {"resume":"abc"}',
      'restart {}',
    ]);
  });

  it('/save exports the session in the format of the extension', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keel-save-'));
    try {
      const file = join(dir, 'session.jsonl');
      await writeFile(
        file,
        `${JSON.stringify({ type: 'session', version: 1, id: 's1', workspace: dir, provider: 'ollama', model: 'qwen3', started: new Date().toISOString() })}\n${JSON.stringify({ type: 'message', role: 'user', content: 'hello there', time: new Date().toISOString() })}\n`,
      );
      const { run, said } = fakeChat({ sessionFile: () => file });
      await run(`/save ${join(dir, 'out.html')}`);
      await run(`/save ${join(dir, 'out.md')}`);
      expect(await readFile(join(dir, 'out.html'), 'utf8')).toMatch(/<html[\s\S]*hello there/);
      expect(await readFile(join(dir, 'out.md'), 'utf8')).toContain('hello there');
      expect(said.join('')).toContain('(html)');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('/exit, /undo, /init and /sessions do what their keel subcommands do', async () => {
    const { run, calls } = fakeChat();
    for (const line of ['/undo', '/init', '/sessions', '/exit']) await run(line);
    expect(calls).toEqual(['undo', 'init', 'sessions', 'exit']);
  });
});
