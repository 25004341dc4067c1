// `keel ask` and `keel run -p` with piped stdin, against the scripted model server: the command line in process
// (test/support/cli-in-process.ts), and the built binary once, for a real pipe into keel ask.
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type KeelRunOptions, runKeel } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';
import { useE2E } from '../support/e2e.js';
import type { ModelServer, ReceivedRequest } from '../support/model-server.js';

const { server, workspace, removeLater } = useE2E();

type AskOptions = KeelRunOptions & { data?: string; binary?: boolean };

/** `keel ask --base-url <ollama> --cwd ws …args` (in process unless `binary`), the ask history in `data` if given. */
function ask(s: ModelServer, ws: string, args: string[], options: AskOptions = {}) {
  const env = { ...options.env, ...(options.data ? { XDG_DATA_HOME: options.data } : {}) };
  const argv = ['ask', '--base-url', s.ollamaUrl, '--cwd', ws, ...args];
  return options.binary ? runKeel(argv, { ...options, env }) : runCli(argv, { ...options, env });
}

/** The last user message of an Ollama chat request. */
function lastUser(request: ReceivedRequest): string {
  const messages = request.body.messages as { role: string; content: string }[];
  return messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
}

function toolNames(request: ReceivedRequest): string[] {
  const tools = (request.body.tools ?? []) as { function: { name: string } }[];
  return tools.map((t) => t.function.name).sort();
}

describe('keel ask', () => {
  it('answers on stdout with the piped input attached to the question, and offers no tools', async () => {
    const s = await server([{ text: 'big.iso is the big one.' }]);
    const ws = await workspace();
    const r = await ask(s, ws, ['what is big here?'], {
      input: '-rw-r--r-- 1 me me 4294967296 big.iso\n',
      binary: true,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('big.iso is the big one.\n');
    const user = lastUser(s.requests[0]!);
    expect(user).toContain('what is big here?');
    expect(user).toContain('<stdin>\n-rw-r--r-- 1 me me 4294967296 big.iso\n</stdin>');
    expect(toolNames(s.requests[0]!)).toEqual([]);
    // Piped input is budgeted by the model's context length, which /api/show tells first.
    expect(s.routes).toEqual(['POST /api/show', 'POST /api/chat']);
    // The short ask prompt, not the coding agent's rules.
    const system = s.requests[0]!.body.messages[0].content as string;
    expect(system).toContain('answering one question');
    expect(system.length).toBeLessThan(1000);
  });

  it('takes an unquoted question of several words', async () => {
    const s = await server([{ text: 'ok' }]);
    const ws = await workspace();
    const r = await ask(s, ws, ['how', 'do', 'I', 'list', 'ports?']);
    expect(r.code).toBe(0);
    expect(lastUser(s.requests[0]!)).toBe('how do I list ports?');
    // A question alone needs nothing /api/show tells: the chat request is the only one.
    expect(s.routes).toEqual(['POST /api/chat']);
  });

  it('prints one JSON object with the answer and usage under --output json', async () => {
    const s = await server([{ text: 'The diff renames foo.', usage: { input: 42, output: 7 } }]);
    const ws = await workspace();
    const r = await ask(s, ws, ['--output', 'json', 'review this'], { input: '-foo\n+bar\n' });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { answer: string; usage: { input_tokens: number }; reason: string };
    expect(out.answer).toBe('The diff renames foo.');
    expect(out.reason).toBe('done');
    expect(out.usage.input_tokens).toBe(42);
    const user = lastUser(s.requests[0]!);
    expect(user).toContain('review this');
    expect(user).toContain('-foo\n+bar');
  });

  it('caps a 2 MB piped input to head and tail with a note, never sending it whole', async () => {
    const s = await server([{ text: 'a long log' }]);
    const ws = await workspace();
    const lines = Array.from(
      { length: 40_000 },
      (_, i) => `line ${String(i).padStart(6, '0')} ${'x'.repeat(40)}`,
    );
    const input = `${lines.join('\n')}\n`;
    expect(input.length).toBeGreaterThan(2_000_000);
    const r = await ask(s, ws, ['summarise this log'], { input });
    expect(r.code).toBe(0);
    expect(s.requests[0]!.rawBody.length).toBeLessThan(300_000);
    const user = lastUser(s.requests[0]!);
    expect(user).toContain('the piped input was capped');
    expect(user).toContain('line 000000');
    expect(user).toContain('line 039999');
    expect(user).toMatch(/\[… [\d,]+ bytes left out …\]/);
    expect(r.stderr).toContain('the piped input was capped');
  });

  it('describes binary stdin (an ELF file) instead of sending its bytes, and warns on stderr', async () => {
    const s = await server([{ text: 'an executable' }, { text: 'same' }]);
    const ws = await workspace();
    const input = `\x7fELF\x02\x01\x01\x00${'\x00\x01'.repeat(500)}`;
    const r = await ask(s, ws, ['what is this'], { input });
    expect(r.code, r.stderr).toBe(0);
    expect(lastUser(s.requests[0]!)).toBe(
      'what is this\n\nInput piped to keel on stdin: an ELF executable or library, 1,008 bytes, not shown.',
    );
    expect(s.requests[0]!.rawBody).not.toMatch(/\\u0000|\uFFFD/);
    expect(r.stderr).toContain('stdin holds binary input (an ELF executable or library, 1,008 bytes)');
    // keel run -p takes stdin the same way.
    const run = await runCli(['run', '--base-url', s.ollamaUrl, '--cwd', ws, '-p', 'what is this'], {
      input,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(lastUser(s.requests[1]!)).toContain('Input piped to keel on stdin: an ELF executable or library');
    expect(run.stderr).toContain('stdin holds binary input');
  });

  it('continues the last exchange with --continue, and forgets it after --clear', async () => {
    const data = await mkdtemp(join(tmpdir(), 'keel-data-'));
    removeLater(data);
    const s = await server([{ text: 'Use lsof -i.' }, { text: 'Add -P.' }, { text: 'What command?' }]);
    const ws = await workspace();
    expect((await ask(s, ws, ['how do I list open ports?'], { data })).code).toBe(0);
    expect((await ask(s, ws, ['--continue', 'and without name lookups?'], { data })).code).toBe(0);
    const second = s.requests[1]!.body.messages as { role: string; content: string }[];
    expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(second[1]!.content).toBe('how do I list open ports?');
    expect(second[2]!.content).toBe('Use lsof -i.');
    const cleared = await ask(s, ws, ['--clear'], { data });
    expect(cleared.code).toBe(0);
    expect(cleared.stderr).toContain('cleared');
    expect((await ask(s, ws, ['--continue', 'and numeric?'], { data })).code).toBe(0);
    const third = s.requests[2]!.body.messages as { role: string }[];
    expect(third.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('starts afresh without --continue', async () => {
    const data = await mkdtemp(join(tmpdir(), 'keel-data-'));
    removeLater(data);
    const s = await server([{ text: 'one' }, { text: 'two' }]);
    const ws = await workspace();
    await ask(s, ws, ['first'], { data });
    await ask(s, ws, ['second'], { data });
    expect((s.requests[1]!.body.messages as unknown[]).length).toBe(2);
  });

  it('offers only the read-only tools under --tools, and reads a file with them', async () => {
    const s = await server([
      { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
      { text: 'The notes say hello.' },
    ]);
    const ws = await workspace({ 'notes.txt': 'hello\n' });
    const state = await mkdtemp(join(tmpdir(), 'keel-ask-state-'));
    removeLater(state);
    const r = await ask(s, ws, ['--tools', 'what do the notes say?'], {
      env: { XDG_STATE_HOME: state },
      checkpoints: true,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('The notes say hello.\n');
    // No tool it offers changes a file: no checkpoint store is made (hashing a big tree would hold up its exit).
    expect((await readdir(state, { recursive: true })).filter((p) => p.includes('checkpoints'))).toEqual([]);
    // The read-only code-intelligence tools ride in one `code` tool (agent/code-tool.ts).
    expect(toolNames(s.requests[0]!)).toEqual([
      'code',
      'diff_files',
      'glob',
      'grep',
      'list_files',
      'read_file',
    ]);
    const code = s.requests[0]!.body.tools.find(
      (t: { function: { name: string } }) => t.function.name === 'code',
    );
    expect(code.function.parameters.properties.action.enum.sort()).toEqual([
      'build_dependency_graph',
      'find_references',
      'get_codebase_map',
      'get_diagnostics',
      'get_imports_exports',
      'inspect_symbol',
      'search_code',
    ]);
    const system = s.requests[0]!.body.messages[0].content as string;
    expect(system).toContain('read-only tools');
  });

  it('lists the cited sources under the answer', async () => {
    const s = await server([
      { text: 'Node 20 is LTS.', citations: [{ url: 'https://nodejs.org/releases', title: 'Releases' }] },
    ]);
    const ws = await workspace();
    const r = await runCli(
      [
        'ask',
        '--provider',
        'openrouter',
        '--base-url',
        s.openaiUrl,
        '--model',
        'm',
        '--cwd',
        ws,
        'is 20 lts?',
      ],
      { env: { OPENROUTER_API_KEY: 'sk-scripted-test' } },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Node 20 is LTS.\n\nSources:\n[1] Releases — https://nodejs.org/releases\n');
  });

  it('says to quote an unquoted question whose word starts with a dash (read as an option)', async () => {
    const s = await server([]);
    const ws = await workspace();
    const r = await ask(s, ws, ['what', 'does', 'ls', '-la', 'show?']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '-la'");
    expect(r.stderr).toContain('hint: quote it: keel ask "');
    expect(s.requests).toHaveLength(0);
  });

  it('refuses to run without a question or piped input', async () => {
    const s = await server([]);
    const ws = await workspace();
    const r = await ask(s, ws, []);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no question given');
    expect(s.requests).toHaveLength(0);
  });
});

describe('keel run -p with piped stdin', () => {
  it('attaches the piped input to the prompt as context', async () => {
    const s = await server([{ text: 'reviewed' }]);
    const ws = await workspace();
    const r = await runCli(['run', '--base-url', s.ollamaUrl, '--cwd', ws, '-p', 'review this diff'], {
      input: '+const a = 1;\n',
    });
    expect(r.code).toBe(0);
    const user = lastUser(s.requests[0]!);
    expect(user).toContain('review this diff');
    expect(user).toContain('<stdin>\n+const a = 1;\n</stdin>');
  });

  it('still takes the goal itself from stdin without -p', async () => {
    const s = await server([{ text: 'done' }]);
    const ws = await workspace();
    const r = await runCli(['run', '--base-url', s.ollamaUrl, '--cwd', ws], { input: 'say done' });
    expect(r.code).toBe(0);
    expect(lastUser(s.requests[0]!)).toBe('say done');
  });
});
