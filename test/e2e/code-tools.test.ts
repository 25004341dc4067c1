// End to end: the built keel runs get_codebase_map, rename_symbol (through the TypeScript service and pyright, which
// it loads from outside the bundle) and an edit reporting the error it introduced, against the scripted model server.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projects } from '../code/fixtures.js';
import { runOllama, toolMessages, useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();

describe('code tools from the built CLI', () => {
  // One run for both languages: the TypeScript compiler and pyright each load from outside the bundle.
  it('maps the codebase, renames a symbol across files in TypeScript and a Python function across modules (not the shadowing parameter), and an edit reports its new error', async () => {
    const ws = await workspace({ ...projects.typescript!.files, ...projects.python!.files });
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
      { text: 'Renamed.' },
    ]);
    // Loading the compiler and pyright and checking the renames cold takes seconds on a busy machine.
    const r = await runOllama(s, ws, ['--prompt', 'rename computeTotal and compute_total'], {
      timeoutMs: 90_000,
    });
    expect(r.code).toBe(0);
    const map = toolMessages(s.requests[1]!.body)[0]!;
    expect(map.split('\n')[0]).toBe('src/math.ts:');
    expect(map).toContain('export function computeTotal(prices: number[]): number');
    const renamed = toolMessages(s.requests[2]!.body).at(-1)!;
    expect(renamed).toContain('renamed computeTotal to sumPrices');
    expect(await readFile(join(ws, 'src/math.ts'), 'utf8')).toContain('export function sumPrices(');
    const app = await readFile(join(ws, 'src/app.ts'), 'utf8');
    expect(app).toContain("import { sumPrices } from './math.js';");
    expect(app).toContain("const label = 'computeTotal';");
    expect(app).toContain('return computeTotal + 1;');
    // Within the 2 s budget on a warm service, or skipped with a note: either way the model is told.
    const edited = toolMessages(s.requests[3]!.body).at(-1)!;
    expect(edited).toMatch(/src\/math\.ts:3:\d+: TS2322|diagnostics skipped/);

    expect(toolMessages(s.requests[4]!.body).at(-1)).toContain('2 files');
    expect(await readFile(join(ws, 'pkg/math.py'), 'utf8')).toContain('def sum_prices(prices):');
    const pyApp = await readFile(join(ws, 'pkg/app.py'), 'utf8');
    expect(pyApp).toContain('from .math import sum_prices');
    expect(pyApp).toContain('def run(compute_total):');
  });
});
