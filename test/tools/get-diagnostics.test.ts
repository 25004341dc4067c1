// get_diagnostics where no language server reads the files: Go through `go vet` when the go command is here (as
// the check after a change does), saying which check ran; otherwise saying what to install.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { LanguageServices } from '../../src/code/language/service.js';
import { findOnPath } from '../../src/exec/probe-cache.js';
import { getDiagnosticsTool } from '../../src/tools/get-diagnostics.js';
import type { ToolContext } from '../../src/tools/tool.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

let ws: TestWorkspace;
let ctx: ToolContext;
beforeAll(async () => {
  ws = await makeWorkspace({ limits: { commandTimeoutMs: 60_000 } });
  // No language server at all: gopls is not installed.
  const none = { forFile: async () => undefined, changedFiles: () => [] } as unknown as LanguageServices;
  ctx = { ...ws.ctx, languages: none };
  await ws.write('mod/go.mod', 'module example.com/mod\n\ngo 1.19\n');
  await ws.write('mod/a.go', 'package mod\n\nfunc Use() int { return Helper() }\n');
  await ws.write('mod/b.go', 'package mod\n\nfunc Other() int { return 1 }\n');
  await ws.write('loose/c.go', 'package loose\n');
});
afterAll(() => ws.cleanup());

const diagnostics = (paths: string[], on = ctx) =>
  getDiagnosticsTool.execute(getDiagnosticsTool.schema.parse({ paths }), on);

const go = findOnPath('go', process.env.PATH);
test.skipIf(!go)(
  'Go files are checked with go vet when no gopls is on PATH, and the result says so',
  async () => {
    const result = await diagnostics(['mod', 'loose/c.go']);
    const lines = result.output.split('\n');
    expect(lines[0]).toBe('1 errors, 0 warnings in 2 files');
    // Go 1.19's vet says "undeclared name: Helper", later ones "undefined: Helper".
    expect(lines[1]).toMatch(/mod\/a\.go:3:\d+.*(undefined|undeclared name): Helper/);
    expect(lines).toContain('(checked with go vet, as gopls is not on PATH: mod/a.go, mod/b.go)');
    expect(lines).toContain('(not checked, no go.mod above it in the workspace: loose/c.go)');
    expect(result.metadata).toMatchObject({ errors: 1, files: 2 });
    // Asked about one file, it says what vet found in the module's others.
    const other = (await diagnostics(['mod/b.go'])).output.split('\n');
    expect(other[0]).toBe('0 errors, 0 warnings in 1 file');
    expect(other.at(-1)).toMatch(
      /^\(go vet also reports 1 finding in other files of the module, first mod\/a\.go:3:.*Helper; give/,
    );
  },
);

test('without gopls or the go command, Go files are named with what to install', async () => {
  const saved = process.env.PATH;
  process.env.PATH = '';
  try {
    const result = await diagnostics(['mod/a.go']);
    expect(result.output).toBe(
      '0 errors, 0 warnings in 0 files\n(no language service for mod/a.go: install gopls, or the go command for go vet)',
    );
  } finally {
    process.env.PATH = saved;
  }
});
