// Tools defined in config (tools.custom) in runs assembled in-process as keel run assembles them, against the
// scripted model server. Values arrive as inert argv elements (a script prints its argv as JSON), or are refused as
// tool errors the model reads; the command policy still judges what runs.
import { access, chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeelError } from '../../src/core/errors.js';
import { runInProcess, useTempHome } from '../support/assemble-in-process.js';
import { toolMessages, useE2E } from '../support/e2e.js';

const { server, workspace, removeLater } = useE2E();
useTempHome();

// Prints each argument as <length>:<text> on a line of its own (a length, so an argument holding newlines reads back
// whole). A shell script: a node one cost ~0.5 s a call here, and the first test alone makes six.
// biome-ignore lint/suspicious/noTemplateCurlyInString: ${#a} is the shell's length of $a
const ARGV_SCRIPT = '#!/bin/sh\nfor a in "$@"; do printf \'%s:%s\\n\' "${#a}" "$a"; done\n';

const CONFIG = `
tools:
  custom:
    show_args:
      description: Print the arguments it gets.
      parameters:
        text: { type: string, description: any text }
        out: { type: path, required: false }
        level: { type: enum, values: [low, high], required: false }
        count: { type: number, required: false }
        flag: { type: boolean, required: false }
        tag: { type: string, pattern: "[a-z]+", max_length: 5, required: false }
      command: sh argv.sh --text {{text}} "--out={{out}}" {{level}} {{count}} {{flag}} {{tag}}
    script_args:
      description: The same, as a script beside the config file.
      parameters:
        first: { type: string }
        second: { type: string, required: false, allow_dash: true }
      script: tools/argv.sh
      template_validations:
        first: { max_length: 10 }
    open_up:
      description: Make a directory writable by all.
      parameters:
        dir: { type: path }
      command: chmod -R 777 {{dir}}
`;

/** A workspace with argv.sh, and a config file (with tools/argv.sh beside it) outside it; returns both paths. */
async function setup(): Promise<{ ws: string; config: string }> {
  const ws = await workspace({ 'argv.sh': ARGV_SCRIPT, 'sub/keep.txt': 'x\n' });
  const configDir = `${ws}-config`;
  removeLater(configDir);
  await mkdir(join(configDir, 'tools'), { recursive: true });
  await writeFile(join(configDir, 'tools', 'argv.sh'), ARGV_SCRIPT);
  await chmod(join(configDir, 'tools', 'argv.sh'), 0o755);
  const config = join(configDir, 'config.yaml');
  await writeFile(config, CONFIG);
  return { ws, config };
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The argv a show_args result printed (its stdout section, read back as ARGV_SCRIPT writes it). */
function printedArgv(result: string): string[] {
  let rest = result.split('stdout:\n')[1];
  if (rest === undefined) throw new Error(`no stdout in: ${result}`);
  const argv: string[] = [];
  while (rest !== '') {
    const length = /^(\d+):/.exec(rest);
    if (!length) throw new Error(`not an argument printed by the script: ${rest}`);
    const start = length[0].length;
    argv.push(rest.slice(start, start + Number(length[1])));
    // Each argument's line ends with a newline, which the last may have lost to the output's trimming.
    rest = rest.slice(start + Number(length[1])).replace(/^\n/, '');
  }
  return argv;
}

const injections = [
  '; rm -rf x',
  '$(touch pwned)',
  '`id`',
  'a && touch pwned2',
  'line one\nline two "quoted" \'single\' $HOME',
  '| cat /etc/passwd > leak',
];

describe('tools defined in config', () => {
  it('passes every injection attempt as one inert argv element', async () => {
    const { ws, config } = await setup();
    const s = await server([
      { toolCalls: injections.map((text) => ({ name: 'show_args', args: { text } })) },
      { text: 'done' },
    ]);
    const r = await runInProcess(s, ws, 'show', { config, mode: 'full' });
    expect(r.result.reason).toBe('done');
    const results = toolMessages(s.requests[1]!.body);
    expect(results.map(printedArgv)).toEqual(injections.map((text) => ['--text', text]));
    for (const file of ['pwned', 'pwned2', 'leak', 'x']) expect(await exists(join(ws, file))).toBe(false);
  });

  it('offers the parameters as JSON Schema and fills optional slots, a path as its jailed absolute path', async () => {
    const { ws, config } = await setup();
    const s = await server([
      {
        toolCalls: [
          {
            name: 'show_args',
            args: { text: 'hi', out: 'sub/f.txt', level: 'high', count: 3, flag: true, tag: 'abc' },
          },
        ],
      },
      { text: 'done' },
    ]);
    const r = await runInProcess(s, ws, 'show', { config, mode: 'full' });
    expect(r.result.reason).toBe('done');
    const spec = (s.requests[0]!.body.tools as { function: { name: string; parameters: unknown } }[]).find(
      (t) => t.function.name === 'show_args',
    );
    expect(spec?.function.parameters).toMatchObject({
      properties: { level: { enum: ['low', 'high'] }, tag: { pattern: '^(?:[a-z]+)$', maxLength: 5 } },
      required: ['text'],
    });
    const real = await import('node:fs/promises').then((fs) => fs.realpath(ws));
    expect(printedArgv(toolMessages(s.requests[1]!.body)[0]!)).toEqual([
      '--text',
      'hi',
      `--out=${join(real, 'sub/f.txt')}`,
      'high',
      '3',
      'true',
      'abc',
    ]);
  });

  it('refuses option-like values, paths out of the workspace and invalid values as tool errors', async () => {
    const { ws, config } = await setup();
    const calls = [
      { text: '--output=/etc/x' },
      { text: 'ok', out: '../../etc/passwd' },
      { text: 'ok', out: '/etc/passwd' },
      { text: 'ok', level: 'medium' },
      { text: 'ok', count: 'five' },
      { text: 'ok', flag: 'yes' },
      { text: 'ok', tag: 'ABC' },
      { text: 'ok', tag: 'abcdefg' },
      { text: 'ok', extra: 1 },
      {},
    ];
    const s = await server([
      { toolCalls: calls.map((args) => ({ name: 'show_args', args })) },
      { text: 'done' },
    ]);
    const r = await runInProcess(s, ws, 'show', { config, mode: 'full' });
    expect(r.result.reason).toBe('done');
    const results = toolMessages(s.requests[1]!.body);
    expect(results).toHaveLength(calls.length);
    for (const result of results) expect(result).toMatch(/^Error: /);
    expect(results[0]).toContain('text may not start with "-"');
    expect(results[1]).toMatch(/outside the workspace/);
    expect(results[2]).toMatch(/outside the workspace/);
    expect(results[3]).toMatch(/level/);
    expect(results[4]).toMatch(/count/);
    expect(results[5]).toMatch(/flag/);
    expect(results[6]).toMatch(/tag/);
    expect(results[7]).toMatch(/tag/);
    expect(results[8]).toMatch(/extra/);
    expect(results[9]).toMatch(/text/);
  });

  // --no-sandbox: the sandbox shows the workspace and system folders only, not the config file's folder.
  it('runs a script found beside the config file with the parameters as argv, in order', async () => {
    const { ws, config } = await setup();
    const s = await server([
      {
        toolCalls: [
          { name: 'script_args', args: { first: '$(id)', second: '-n' } },
          { name: 'script_args', args: { first: 'only' } },
          { name: 'script_args', args: { first: '-rf' } },
          { name: 'script_args', args: { first: 'eleven char' } },
        ],
      },
      { text: 'done' },
    ]);
    const r = await runInProcess(s, ws, 'show', { config, mode: 'full', sandbox: false });
    expect(r.result.reason).toBe('done');
    const results = toolMessages(s.requests[1]!.body);
    expect(printedArgv(results[0]!)).toEqual(['$(id)', '-n']);
    expect(printedArgv(results[1]!)).toEqual(['only', '']);
    expect(results[2]).toContain('first may not start with "-"');
    expect(results[3]).toMatch(/^Error: .*first/);
  });

  it('is judged by the command policy: a denylisted command is refused in full mode and never runs', async () => {
    const { ws, config } = await setup();
    const before = (await stat(join(ws, 'sub'))).mode;
    const s = await server([{ toolCalls: [{ name: 'open_up', args: { dir: 'sub' } }] }, { text: 'refused' }]);
    const r = await runInProcess(s, ws, 'open it', { config, mode: 'full' });
    expect(r.result.reason).toBe('done');
    expect(toolMessages(s.requests[1]!.body)[0]).toMatch(
      /^Error: refused by policy: .*chmod -R 777 opens every file to everyone/,
    );
    expect((await stat(join(ws, 'sub'))).mode).toBe(before);
  });

  it('is refused in a restricted run like any command outside the read-only set', async () => {
    const { ws, config } = await setup();
    const s = await server([{ toolCalls: [{ name: 'show_args', args: { text: 'x' } }] }, { text: 'no' }]);
    const r = await runInProcess(s, ws, 'show', { config, mode: 'restricted' });
    expect(r.result.reason).toBe('done');
    expect(toolMessages(s.requests[1]!.body)[0]).toMatch(/^Error: refused by policy: `sh argv.sh --text x`/);
  });

  it('runs the README example read-only in a restricted run', async () => {
    const ws = await workspace({
      'src/a.ts': '// TODO: cache results\n// TODO: other\n',
      'b.ts': '// TODO: cache b\n',
    });
    const config = `${ws}-readme.yaml`;
    removeLater(config);
    await writeFile(
      config,
      `tools:
  custom:
    find_todos:
      description: Find TODO comments that mention a word.
      parameters:
        word: { type: string, description: the word, pattern: "[A-Za-z0-9_]+", max_length: 40 }
        dir: { type: path, description: folder to search (default the workspace), required: false }
      command: grep -rn "TODO.*{{word}}" {{dir}}
`,
    );
    const s = await server([
      { toolCalls: [{ name: 'find_todos', args: { word: 'cache', dir: 'src' } }] },
      { toolCalls: [{ name: 'find_todos', args: { word: 'cache; id' } }] },
      { text: 'found' },
    ]);
    const r = await runInProcess(s, ws, 'find', { config });
    expect(r.result.reason).toBe('done');
    const first = toolMessages(s.requests[1]!.body)[0]!;
    expect(first).toMatch(/^exit code: 0\nstdout:\n.*src\/a\.ts:1:\/\/ TODO: cache results$/);
    expect(toolMessages(s.requests[2]!.body)[1]).toMatch(/^Error: invalid arguments for find_todos: word/);
  });

  it('refuses a template with shell syntax when the config loads', async () => {
    const { ws } = await setup();
    const config = join(`${ws}-config`, 'bad.yaml');
    await writeFile(
      config,
      'tools:\n  custom:\n    bad:\n      description: x\n      parameters: { a: { type: string } }\n      command: "echo {{a}} | sh"\n',
    );
    const s = await server([{ text: 'never' }]);
    const refused = await runInProcess(s, ws, 'x', { config }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(KeelError);
    expect((refused as KeelError).exitCode).toBe(2);
    // The file that defines it is named, and the hint points at the README's section.
    expect((refused as KeelError).message).toBe(
      `tools.custom.bad.command in ${config}: it must be one plain command (no ;, &&, |)`,
    );
    expect((refused as KeelError).hint).toBe('see "Custom tools" in the README');
    expect(s.requests).toHaveLength(0);
  });
});
