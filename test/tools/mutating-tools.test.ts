// Every built-in tool that can change the workspace, enumerated from the registry: each goes through the policy
// (with the files it writes named, so the jail applies), takes a checkpoint before it changes anything, and is
// watched by the tripwire. A new tool that writes fails here until it is listed with a call that shows it.
import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { PolicyRequest } from '../../src/safety/policy.js';
import { createTripwire } from '../../src/safety/tripwire.js';
import { builtinTools, projectToolLoaders } from '../../src/tools/builtins.js';
import { executeToolCall } from '../../src/tools/executor.js';
import { createRegistry, defaultTools } from '../../src/tools/registry.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

/** A call that changes `changes` (relative to the workspace), after `files` are written. */
interface WritingCall {
  input: Record<string, unknown>;
  changes: string;
  files?: Record<string, string>;
}

const TS = {
  'package.json': '{"name":"p","type":"module"}\n',
  'tsconfig.json': '{"compilerOptions":{"strict":true,"module":"nodenext"}}\n',
  'src/a.ts': 'export function foo(): number {\n  return 1;\n}\n',
  'src/b.ts':
    "import { foo } from './a.js';\nimport { readFileSync } from 'node:fs';\nexport const x = foo();\n",
};

/** One call per tool that writes. */
const WRITERS: Record<string, WritingCall> = {
  write_file: { input: { path: 'new.txt', content: 'x\n' }, changes: 'new.txt' },
  append_file: { input: { path: 'a.txt', content: 'more\n' }, changes: 'a.txt' },
  edit_file: { input: { path: 'a.txt', old_string: 'old', new_string: 'new' }, changes: 'a.txt' },
  create_directory: { input: { path: 'made' }, changes: 'made' },
  delete_path: { input: { path: 'a.txt' }, changes: 'a.txt' },
  move_path: { input: { source: 'a.txt', destination: 'moved.txt' }, changes: 'a.txt' },
  copy_path: { input: { source: 'a.txt', destination: 'copied.txt' }, changes: 'copied.txt' },
  execute_command: { input: { command: 'echo x > out.txt' }, changes: 'out.txt' },
  rename_symbol: {
    input: { name: 'foo', path: 'src/a.ts', new_name: 'bar' },
    changes: 'src/a.ts',
    files: TS,
  },
  organize_imports: { input: { path: 'src/b.ts' }, changes: 'src/b.ts', files: TS },
  create_barrel: { input: { dir: 'src' }, changes: 'src/index.ts', files: TS },
};

/** Tools not declared read-only that change nothing in the workspace. */
const NON_WORKSPACE = ['web_fetch', 'web_search'];

const every = { ...builtinTools, ...projectToolLoaders };

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await makeWorkspace({ mode: 'full' });
});

afterEach(async () => {
  await ws.cleanup();
});

/** The file's content hash, a folder's listing, or absent. */
async function stateOf(rel: string): Promise<string> {
  const p = path.join(ws.root, rel);
  if (!existsSync(p)) return 'absent';
  const stat = await fs.stat(p);
  if (stat.isDirectory()) return `dir:${(await fs.readdir(p)).join(',')}`;
  return createHash('sha256')
    .update(await fs.readFile(p))
    .digest('hex');
}

test('every tool that is not declared read-only is listed here with a call that writes (or as not writing)', () => {
  const registry = createRegistry(defaultTools());
  for (const [name, load] of Object.entries(every)) {
    const tool = registry.get(name) ?? load();
    const listed = name in WRITERS || NON_WORKSPACE.includes(name);
    expect(listed, `${name} (${tool.safety}) is not listed`).toBe(tool.safety !== 'safe');
  }
  for (const name of Object.keys(WRITERS)) expect(every, name).toHaveProperty(name);
});

describe.each(Object.entries(WRITERS))('%s', (name, sample) => {
  test('asks the policy naming what it writes, checkpoints before the change, and is watched by the tripwire', async () => {
    await ws.write('a.txt', 'old\n');
    for (const [rel, content] of Object.entries(sample.files ?? {})) await ws.write(rel, content);
    const decided: PolicyRequest[] = [];
    const policy = ws.held.policy;
    const order: string[] = [];
    let atCheckpoint: string | undefined;
    const before = await stateOf(sample.changes);
    const tripwire = createTripwire({ root: ws.root, globs: [], env: process.env });
    const armed = tripwire.arm.bind(tripwire);
    const result = await executeToolCall(
      { id: 'call-1', name, input: JSON.stringify(sample.input) },
      1,
      {
        registry: createRegistry(defaultTools()),
        policy: {
          ...policy,
          decide: async (request) => {
            decided.push(request);
            order.push('policy');
            return policy.decide(request);
          },
        },
        tripwire: Object.assign(tripwire, {
          arm: (writes: readonly string[]) => {
            order.push('tripwire');
            return armed(writes);
          },
        }),
        beforeChange: async () => {
          order.push('checkpoint');
          atCheckpoint = await stateOf(sample.changes);
          return undefined;
        },
      },
      ws.ctx,
    );
    expect(result.success, result.error ?? result.output).toBe(true);
    expect(await stateOf(sample.changes), 'the call changed nothing').not.toBe(before);
    expect(order).toEqual(['policy', 'checkpoint', 'tripwire']);
    expect(atCheckpoint, 'the checkpoint came after the change').toBe(before);
    const request = decided[0] as PolicyRequest;
    expect(request.tool).toBe(name);
    // A file tool names what it writes, so the policy's path rules see it; a command is judged by its text.
    if (request.preview.command === undefined) {
      expect(request.preview.writes).toContain(path.join(ws.root, sample.changes));
    } else {
      expect(request.preview.command).toBe(sample.input.command);
    }
  });
});
