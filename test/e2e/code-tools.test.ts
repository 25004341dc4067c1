// End to end: the built keel runs the tools that load something from outside the bundle or beside it — the
// TypeScript service and pyright (get_codebase_map, rename_symbol, an edit reporting the error it introduced) and
// the bundled ripgrep (grep, glob) with edit_file — against the scripted model server. One run: each start of the
// binary costs half a second of CPU.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projects } from '../code/fixtures.js';
import { runOllama, toolMessages, useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();

describe('code and coding tools from the built CLI', () => {
  it('maps the codebase, renames a symbol across files in TypeScript and a Python function across modules (not the shadowing parameter), an edit reports its new error; greps with rg, edits with edit_file, and the file ends up right', async () => {
    const ws = await workspace({
      ...projects.typescript!.files,
      ...projects.python!.files,
      'calc/add.ts': 'export function add(a: number, b: number) {\r\n  return a - b;\r\n}\r\n',
      'calc/main.ts': "import { add } from './add.js';\nconsole.log(add(1, 2));\n",
      'node_modules/dep/index.ts': 'export function add() {}\n',
      '.gitignore': 'node_modules/\n',
    });
    const s = await server([
      { toolCalls: [{ name: 'get_codebase_map', args: { focus: 'math.ts' } }] },
      { toolCalls: [{ name: 'rename_symbol', args: { name: 'computeTotal', new_name: 'sumPrices' } }] },
      {
        toolCalls: [
          {
            name: 'edit_file',
            args: {
              path: 'src/math.ts',
              old_string: 'return prices.reduce',
              new_string: "return 'x' || prices.reduce",
            },
          },
        ],
      },
      {
        toolCalls: [
          {
            name: 'rename_symbol',
            args: { name: 'compute_total', new_name: 'sum_prices', path: 'pkg/math.py' },
          },
        ],
      },
      { toolCalls: [{ name: 'grep', args: { pattern: 'function add', output: 'files' } }] },
      {
        toolCalls: [
          // A miss first: the model sees the nearest region and retries.
          {
            name: 'edit_file',
            args: { path: 'calc/add.ts', old_string: 'return a  -  c;', new_string: 'x' },
          },
          { name: 'glob', args: { pattern: '**/*.ts' } },
        ],
      },
      {
        toolCalls: [
          {
            name: 'edit_file',
            args: { path: 'calc/add.ts', old_string: 'return a - b;', new_string: 'return a + b;' },
          },
        ],
      },
      { toolCalls: [{ name: 'grep', args: { pattern: 'return a \\+ b', context: 1 } }] },
      // The bundle loads a tool's module at its first call: its zod validation still answers a bad call.
      { toolCalls: [{ name: 'write_file', args: { path: 'calc/add.ts' } }] },
      { text: 'Renamed and fixed add.' },
    ]);
    // Loading the compiler and pyright and checking the renames cold takes seconds on a busy machine.
    const r = await runOllama(
      s,
      ws,
      [
        '--output',
        'stream-json',
        '--prompt',
        'rename computeTotal and compute_total; add() subtracts, fix it',
      ],
      { timeoutMs: 90_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const result = (request: number) => toolMessages(s.requests[request]!.body).at(-1)!;
    const map = result(1);
    expect(map.split('\n')[0]).toBe('src/math.ts:');
    expect(map).toContain('export function computeTotal(prices: number[]): number');
    expect(result(2)).toContain('renamed computeTotal to sumPrices');
    expect(await readFile(join(ws, 'src/math.ts'), 'utf8')).toContain('export function sumPrices(');
    const app = await readFile(join(ws, 'src/app.ts'), 'utf8');
    expect(app).toContain("import { sumPrices } from './math.js';");
    expect(app).toContain("const label = 'computeTotal';");
    expect(app).toContain('return computeTotal + 1;');
    // Within the 2 s budget on a warm service, or skipped with a note: either way the model is told.
    expect(result(3)).toMatch(/src\/math\.ts:3:\d+: TS2322|diagnostics skipped/);

    expect(result(4)).toContain('2 files');
    expect(await readFile(join(ws, 'pkg/math.py'), 'utf8')).toContain('def sum_prices(prices):');
    const pyApp = await readFile(join(ws, 'pkg/app.py'), 'utf8');
    expect(pyApp).toContain('from .math import sum_prices');
    expect(pyApp).toContain('def run(compute_total):');

    expect(await readFile(join(ws, 'calc/add.ts'), 'utf8')).toBe(
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
    expect(result(5)).toBe('calc/add.ts');
    const [miss, globbed] = toolMessages(s.requests[6]!.body).slice(-2);
    expect(miss).toMatch(/^Error: cannot edit calc\/add\.ts: old_string not found/);
    expect(miss).toContain('2|   return a - b;');
    expect(globbed!.split('\n').sort()).toEqual(['calc/add.ts', 'calc/main.ts', 'src/app.ts', 'src/math.ts']);
    expect(result(7)).toContain('edited calc/add.ts (+1 -1)');
    expect(result(8)).toBe(
      'calc/add.ts-1-export function add(a: number, b: number) {\ncalc/add.ts:2:  return a + b;\ncalc/add.ts-3-}',
    );
    expect(result(9)).toMatch(
      /^Error: invalid arguments for write_file: missing required field content \(string\) \(fields: path, content/,
    );
  });
});
