// End to end: the coding tools (edit_file, grep, glob) from the built keel binary, driven by the scripted model.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runOllama, toolMessages, useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();

describe('keel run with the coding tools', () => {
  it('greps for a function, edits it with edit_file, and the file ends up right', async () => {
    const ws = await workspace({
      'src/math.ts': 'export function add(a: number, b: number) {\r\n  return a - b;\r\n}\r\n',
      'src/main.ts': "import { add } from './math.js';\nconsole.log(add(1, 2));\n",
      'node_modules/dep/index.ts': 'export function add() {}\n',
      '.gitignore': 'node_modules/\n',
    });
    const s = await server([
      { toolCalls: [{ name: 'grep', args: { pattern: 'function add', output: 'files' } }] },
      {
        toolCalls: [
          // A miss first: the model sees the nearest region and retries.
          {
            name: 'edit_file',
            args: { path: 'src/math.ts', old_string: 'return a  -  c;', new_string: 'x' },
          },
          { name: 'glob', args: { pattern: '**/*.ts' } },
        ],
      },
      {
        toolCalls: [
          {
            name: 'edit_file',
            args: { path: 'src/math.ts', old_string: 'return a - b;', new_string: 'return a + b;' },
          },
        ],
      },
      { toolCalls: [{ name: 'grep', args: { pattern: 'a \\+ b', context: 1 } }] },
      // The bundle loads a tool's module at its first call: its zod validation still answers a bad call.
      { toolCalls: [{ name: 'write_file', args: { path: 'src/math.ts' } }] },
      { text: 'Fixed add.' },
    ]);
    const r = await runOllama(s, ws, ['--output', 'stream-json', '--prompt', 'add() subtracts; fix it']);
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(join(ws, 'src/math.ts'), 'utf8')).toBe(
      'export function add(a: number, b: number) {\r\n  return a + b;\r\n}\r\n',
    );
    // The built CLI found the bundled ripgrep (no silent fall back to the JS search).
    const events = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const greps = events.filter((e) => e.type === 'tool_result' && e.name === 'grep');
    expect(greps.map((e) => e.metadata.backend)).toEqual(['rg', 'rg']);
    // The grep honoured .gitignore: the dependency's add was not listed.
    expect(toolMessages(s.requests[1]!.body)[0]).toBe('src/math.ts');
    const [miss, globbed] = toolMessages(s.requests[2]!.body).slice(-2);
    expect(miss).toMatch(/^Error: cannot edit src\/math\.ts: old_string not found/);
    expect(miss).toContain('2|   return a - b;');
    expect(globbed!.split('\n').sort()).toEqual(['src/main.ts', 'src/math.ts']);
    expect(toolMessages(s.requests[3]!.body).at(-1)).toContain('edited src/math.ts (+1 -1)');
    expect(toolMessages(s.requests[4]!.body).at(-1)).toBe(
      'src/math.ts-1-export function add(a: number, b: number) {\nsrc/math.ts:2:  return a + b;\nsrc/math.ts-3-}',
    );
    expect(toolMessages(s.requests[5]!.body).at(-1)).toMatch(
      /^Error: invalid arguments for write_file: missing required field content \(string\) \(fields: path, content/,
    );
  });
});
