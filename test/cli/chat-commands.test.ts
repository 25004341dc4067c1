// The chat's command table: parsing a line, the commands it holds, and handlers acting through the chat context
// (/help and the names a `/name` means: chat-command-names.test.ts).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAT_COMMANDS, type ChatContext, parseCommand } from '../../src/cli/chat-commands.js';

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
    checkModel: async () => '',
    mode: () => 'auto',
    sandboxed: () => true,
    status: () => void calls.push('status'),
    kept: () => undefined,
    sessionFile: () => undefined,
    undo: async () => void record('undo'),
    rewind: async (args) => void record(`rewind ${args}`),
    wroteForUser: async (file) => void record(`wrote ${file}`),
    gitContext: () => undefined,
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
  it('holds every command of the chat', () => {
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
  });

  it('/compact calls the agent with its focus, or says compaction is unavailable', async () => {
    const focus: (string | undefined)[] = [];
    const withCompact = fakeChat({ compact: async (f) => focus.push(f) > 0 });
    await withCompact.run('/compact the parser');
    await withCompact.run('/compact');
    expect(focus).toEqual(['the parser', undefined]);
    expect(withCompact.calls).toContain('busy compacting');
    expect(withCompact.said).toEqual([]);
    const without = fakeChat();
    await without.run('/compact');
    expect(without.said.join('')).toContain('compaction is unavailable');
  });

  it('/compact on an empty conversation says plainly there is nothing to compact', async () => {
    const chat = fakeChat({ compact: async () => false });
    await chat.run('/compact');
    expect(chat.said).toEqual(['nothing to compact yet: the conversation is empty\n']);
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

  it('/model stays on the current model when its check refuses the switch, and says what the check adds', async () => {
    const refused = fakeChat({ checkModel: async () => undefined });
    await refused.run('/model nosuch');
    expect(refused.calls).toEqual([]);
    const unchecked = fakeChat({ checkModel: async () => ' (the name is not checked: why)' });
    await unchecked.run('/model other');
    expect(unchecked.calls).toEqual(['restart {"model":"other"}']);
    expect(unchecked.said).toEqual(['model: ollama/qwen3 (the name is not checked: why)\n']);
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
      said.length = 0;
      await run(`/save ${join(dir, 'out.pdf')}`);
      expect(said.join('')).toContain('name a .md, .html or .json file');
      await expect(readFile(join(dir, 'out.pdf'))).rejects.toThrow();
      const missing = join(dir, 'no-such-dir', 'out.html');
      await expect(run(`/save ${missing}`)).rejects.toThrow(
        `cannot write the export to ${missing}: its directory does not exist`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('/exit, /undo, /init and /sessions do what their keel subcommands do', async () => {
    const { run, calls } = fakeChat();
    for (const line of ['/undo', '/init', '/sessions', '/exit']) await run(line);
    expect(calls).toEqual(['undo', 'init', 'sessions', 'exit']);
  });

  it('/fork says so when the chat is not saved', async () => {
    const { run, said } = fakeChat({
      gitContext: () => ({
        agent: {} as never,
        options: { output: 'text' },
        screen: { notice: (t: string) => void said.push(t) } as never,
        busy: (_, work) => work(new AbortController().signal),
        interactive: false,
      }),
    });
    await run('/fork 2');
    expect(said.join('')).toContain('nothing to fork: this chat is not saved');
  });
});

describe('/mode', () => {
  it('without a name shows the mode, every mode with what it does, and the Shift+Tab cycle', async () => {
    const { said, calls, run } = fakeChat();
    await run('/mode');
    const text = said.join('');
    expect(text).toMatch(/^mode: auto\n/);
    expect(text).toMatch(/\* auto +edits run; other commands run in the sandbox/);
    for (const mode of ['interactive', 'restricted', 'full']) expect(text).toContain(`  ${mode}`);
    expect(text).toContain('Shift+Tab cycles plan → interactive → restricted → auto');
    expect(calls).toEqual([]);
  });

  it('says so when auto has no sandbox here', async () => {
    const { said, run } = fakeChat({ sandboxed: () => false });
    await run('/mode');
    expect(said.join('')).toMatch(/^mode: auto \(no sandbox here: commands are asked about\)/);
  });

  it('switches with a name, keeping the conversation (a restart with the mode), then shows the status line', async () => {
    const { calls, run } = fakeChat();
    await run('/mode interactive');
    expect(calls).toEqual(['restart {"mode":"interactive"}', 'status']);
  });

  it('refuses an unknown mode and does nothing for the current one', async () => {
    const { said, calls, run } = fakeChat();
    await run('/mode yolo');
    await run('/mode auto');
    expect(said).toEqual([
      'unknown mode yolo: one of plan, interactive, restricted, auto, full\n',
      'already in auto mode\n',
    ]);
    expect(calls).toEqual([]);
  });
});

describe('/permissions', () => {
  it('lists the kept approvals, numbered, and removes one by its number', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keel-permissions-'));
    try {
      const { KeptApprovals } = await import('../../src/safety/kept-approvals.js');
      const kept = new KeptApprovals(join(dir, 'approvals', 'ws.json'), '/work/ws');
      await kept.keep({ key: 'k1', scope: 'this exact command' }, 'execute_command', 'npm test');
      await kept.keep({ key: 'k2', scope: 'this exact command' }, 'execute_command', 'make');
      const { said, run } = fakeChat({ kept: () => kept });
      await run('/permissions');
      expect(said.at(-1)).toMatch(
        /^approvals kept for this workspace:\n {2}1\. execute_command: npm test \(this exact command; kept \d{4}-\d\d-\d\d\)\n {2}2\. execute_command: make/,
      );
      await run('/permissions rm 1');
      expect(said.at(-1)).toBe('removed: execute_command npm test\n');
      expect((await kept.list()).map((a) => a.what)).toEqual(['make']);
      await run('/permissions rm 7');
      expect(said.at(-1)).toBe('no kept approval number 7 (/permissions lists them)\n');
      await run('/permissions drop');
      expect(said.at(-1)).toBe('usage: /permissions, or /permissions rm <n>\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says how to keep one when there is none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keel-permissions-'));
    try {
      const { KeptApprovals } = await import('../../src/safety/kept-approvals.js');
      const { said, run } = fakeChat({ kept: () => new KeptApprovals(join(dir, 'none.json'), '/w') });
      await run('/permissions');
      expect(said).toEqual(['no approvals kept for this workspace (answer A at an approval to keep one)\n']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
