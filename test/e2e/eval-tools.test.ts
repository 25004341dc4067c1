// `keel eval tools` runs every tool eval through the executor, and all pass: in process, through the command
// function the CLI calls (the TypeScript service and the lib files it parsed stay loaded between cases); the built
// CLI for the text table with exit 1 on a failure; the command line in process for exit 2 naming an invalid case.
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvalStreams, evalToolsCommand } from '../../src/cli/eval-command.js';
import { runKeel } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';
import { homeEnv, useE2E } from '../support/e2e.js';

const { workspace } = useE2E();
const evals = resolve(import.meta.dirname, '../../evals');

const saved = { ...process.env };
beforeAll(async () => {
  Object.assign(process.env, { ...homeEnv(await workspace()), NO_COLOR: '1' });
});
afterAll(() => {
  process.env = { ...saved };
});

/** `keel eval tools --dir evals` in process: its exit code and what it printed. */
async function evalTools(options: { filter?: string; output: 'text' | 'json' }) {
  const printed = { stdout: '', stderr: '' };
  const streams: EvalStreams = {
    stdout: { write: (t: string) => (printed.stdout += t) },
    stderr: { write: (t: string) => (printed.stderr += t) },
  };
  const code = await evalToolsCommand({ dir: evals, ...options }, streams);
  return { code, ...printed };
}

describe('keel eval tools', () => {
  it('passes every tool eval, at least 150 of them across every default tool', async () => {
    const r = await evalTools({ output: 'json' });
    const report = JSON.parse(r.stdout) as {
      cases: number;
      failed: number;
      results: { tool: string; name: string; passed: boolean; problems: string[]; got: string }[];
    };
    const failures = report.results.filter((x) => !x.passed);
    expect(failures, JSON.stringify(failures, null, 2)).toEqual([]);
    expect(r.code).toBe(0);
    expect(report.cases).toBeGreaterThanOrEqual(150);
    const tools = new Set(report.results.map((x) => x.tool));
    for (const name of [
      'list_files',
      'read_file',
      'write_file',
      'create_directory',
      'delete_path',
      'diff_files',
      'execute_command',
      'command_output',
      'kill_command',
      'edit_file',
      'glob',
      'grep',
      'move_path',
      'copy_path',
      'append_file',
      'get_codebase_map',
      'search_code',
      'inspect_symbol',
      'get_imports_exports',
      'build_dependency_graph',
      'find_references',
      'rename_symbol',
      'get_diagnostics',
      'organize_imports',
      'create_barrel',
      'todo_write',
    ]) {
      expect(tools.has(name), `no eval case for ${name}`).toBe(true);
    }
    // The code-intelligence tools are measured on every supported language.
    for (const lang of ['ts', 'js', 'python', 'rust', 'go', 'java', 'dart']) {
      const names = report.results.filter((x) => x.name.startsWith(`${lang}: `)).map((x) => x.tool);
      expect(new Set(names).size, `code tools on ${lang}`).toBeGreaterThanOrEqual(7);
    }
  }, 600_000);

  it('prints a table per tool, the details of a failure, and exits 1', async () => {
    const dir = await workspace({
      'tools/read.json': JSON.stringify({
        tool: 'read_file',
        fixture: 'one',
        cases: [
          { name: 'reads the file', args: { path: 'a.txt' }, expect: { output: { exact: 'A\n' } } },
          { name: 'expects the wrong text', args: { path: 'a.txt' }, expect: { output: { contains: 'B' } } },
          { name: 'expects an error', args: { path: 'a.txt' }, expect: { error: { contains: 'x' } } },
        ],
      }),
    });
    await mkdir(join(dir, 'fixtures/one'), { recursive: true });
    await writeFile(join(dir, 'fixtures/one/a.txt'), 'A\n');
    const r = await runKeel(['eval', 'tools', '--dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^read_file\s+3\s+1\s+2$/m);
    expect(r.stdout).toContain('✗ read_file: expects the wrong text');
    expect(r.stdout).toContain('expected it to contain "B"');
    expect(r.stdout).toContain('expected an error, got success');
    expect(r.stdout).toContain('2 failed: 1/3');
  });

  it('Ctrl-C reports the cases run before it, leaves out the one it cut short, and exits 130', async () => {
    // The case's workspace is a copy under the run's temp directory: the test finds its marker there.
    const tmp = await workspace();
    const started = () => readdirSync(tmp).some((copy) => existsSync(join(tmp, copy, 'ws/started')));
    const dir = await workspace({
      'tools/run.json': JSON.stringify({
        tool: 'execute_command',
        cases: [
          { name: 'echoes', args: { command: 'echo hi' }, expect: { output: { contains: 'hi' } } },
          {
            name: 'waits',
            args: { command: 'touch started && sleep 30' },
            expect: { output: { contains: 'never' } },
          },
          { name: 'never reached', args: { command: 'echo late' }, expect: { output: { contains: 'late' } } },
        ],
      }),
    });
    const r = await runKeel(['eval', 'tools', '--dir', dir], {
      env: { TMPDIR: tmp },
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (started()) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 50);
        child.once('exit', () => clearInterval(poll));
      },
    });
    expect(r.code, r.stdout + r.stderr).toBe(130);
    expect(r.stderr).toContain('interrupted');
    expect(r.stdout).toMatch(/^execute_command\s+1\s+1\s+0$/m);
    expect(r.stdout).not.toContain('aborted');
  });

  it('runs only the cases the filter names', async () => {
    const r = await evalTools({ filter: 'diff_files', output: 'text' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^diff_files\s+5\s+5\s+0$/m);
    expect(r.stdout).not.toContain('read_file');
  });

  it('names the file and field of an invalid case', async () => {
    const dir = await workspace({
      'tools/bad.json': JSON.stringify({ tool: 'read_file', cases: [{ name: 'x', args: {}, expect: {} }] }),
    });
    const r = await runCli(['eval', 'tools', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.json');
    expect(r.stderr).toContain('give exactly one of output and error');
  });
});
