// The TypeScript language service behind rename_symbol, find_references, inspect_symbol, get_diagnostics and the
// errors reported after a change, on a fixture project with the shapes that broke name-based renames.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LanguageServices } from '../../../src/code/language/service.js';
import { typeScriptFactory } from '../../../src/code/language/typescript.js';
import { deletePathTool as deleteTool } from '../../../src/tools/delete-path.js';
import { editFileTool } from '../../../src/tools/edit-file.js';
import { findReferencesTool } from '../../../src/tools/find-references.js';
import { getDiagnosticsTool } from '../../../src/tools/get-diagnostics.js';
import { inspectSymbolTool } from '../../../src/tools/inspect-symbol.js';
import { movePathTool as moveFileTool } from '../../../src/tools/move-path.js';
import { renameSymbolTool } from '../../../src/tools/rename-symbol.js';
import type { Tool, ToolContext, ToolResult } from '../../../src/tools/tool.js';
import { writeFileTool } from '../../../src/tools/write-file.js';
import { makeWorkspace, type TestWorkspace } from '../../tools/helpers.js';
import { tsProject } from './ts-fixture.js';

let ws: TestWorkspace;
let ctx: ToolContext;
const signal = new AbortController().signal;

beforeAll(async () => {
  ws = await makeWorkspace();
  for (const [file, content] of Object.entries(tsProject)) await ws.write(file, content);
  ctx = { ...ws.ctx, languages: new LanguageServices(ws.root, [typeScriptFactory]) };
});
afterAll(async () => {
  await ctx.languages?.close();
  await ws.cleanup();
});

const run = (tool: Tool, args: unknown, on: ToolContext = ctx): Promise<ToolResult> =>
  tool.execute(tool.schema.parse(args), on);

/** Writes `files` (workspace-relative path → text) and tells the services they changed. */
async function writeFiles(files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(ws.root, file)), { recursive: true });
    await fs.writeFile(path.join(ws.root, file), text);
  }
  ctx.languages?.changed(Object.keys(files));
}

/** Every error the service sees in the project's files now, as `path: TS1234`. */
async function projectErrors(): Promise<string[]> {
  const service = (await ctx.languages!.forFile('src/app.ts'))!;
  const files = Object.keys(tsProject).filter((f) => f.endsWith('.ts'));
  const found = await service.diagnostics(files, signal);
  return found.filter((d) => d.severity === 'error').map((d) => `${d.path}: ${d.code} ${d.message}`);
}

describe('rename_symbol through the TypeScript service', () => {
  test('an exported function renamed through its barrel renames the importers, inside and outside the tsconfig', async () => {
    const result = await run(renameSymbolTool, { name: 'greet', new_name: 'welcome', path: 'src/greet.ts' });
    expect(result.success, result.error).toBe(true);
    expect(await ws.read('src/index.ts')).toContain("export { welcome } from './greet';");
    expect(await ws.read('src/app.ts')).toContain("import { welcome } from './index';");
    expect(await ws.read('src/app.ts')).toContain("welcome('you')");
    expect(await ws.read('test/app.test.ts')).toContain("welcome('test')");
    // The local that shadows the import is another binding.
    const shadow = await ws.read('src/shadow.ts');
    expect(shadow).toContain('const greet = 2;\n  return greet;');
    expect(shadow).toContain("welcome('x')");
    expect(await projectErrors()).toEqual([]);
  });

  test('keep_alias keeps the old public name in the barrel, and exports the new one beside it (ky’s HTTPError)', async () => {
    const result = await run(renameSymbolTool, {
      name: 'welcome',
      new_name: 'salute',
      path: 'src/greet.ts',
      keep_alias: true,
    });
    expect(result.success, result.error).toBe(true);
    expect(await ws.read('src/index.ts')).toContain('export { salute as welcome, salute }');
    expect(await ws.read('src/app.ts')).toContain("welcome('you')");
    expect(await projectErrors()).toEqual([]);
    // The new name is the package's too.
    const service = (await ctx.languages!.forFile('src/app.ts'))!;
    const user = "import { salute, welcome } from './index';\nsalute('a');\nwelcome('b');\n";
    const overlay = new Map([['src/new-name.ts', user]]);
    expect(await service.diagnostics(['src/new-name.ts'], signal, overlay)).toEqual([]);
  });

  test("keep_alias of a declaration its module exports itself, through `export *` barrels (zustand's createStore, StoreApi): the module exports the old name beside the new", async () => {
    await writeFiles({
      'src/store.ts':
        'export interface StoreApi {\n  get(): number;\n}\nexport const createStore = (): StoreApi => ({ get: () => 1 });\n',
      'src/all.ts': "export * from './store';\n",
      'src/store-user.ts':
        "import { createStore, type StoreApi } from './all';\nexport const api: StoreApi = createStore();\n",
    });
    const files = ['src/store.ts', 'src/all.ts', 'src/store-user.ts'];
    const service = (await ctx.languages!.forFile('src/store.ts'))!;
    for (const [name, new_name] of [
      ['createStore', 'makeStore'],
      ['StoreApi', 'Store'],
    ] as const) {
      const result = await run(renameSymbolTool, { name, new_name, path: 'src/store.ts', keep_alias: true });
      expect(result.success, result.error).toBe(true);
    }
    expect(await ws.read('src/store.ts')).toBe(
      'export interface Store {\n  get(): number;\n}\nexport const makeStore = (): Store => ({ get: () => 1 });\n' +
        'export { makeStore as createStore };\nexport type { Store as StoreApi };\n',
    );
    expect(await ws.read('src/store-user.ts')).toContain('import { makeStore, type Store }');
    // Both names are importable through the barrel.
    const user =
      "import { createStore, makeStore, type Store, type StoreApi } from './all';\nexport const a: StoreApi = createStore();\nexport const b: Store = makeStore();\n";
    const overlay = new Map([['src/both-names.ts', user]]);
    expect(await service.diagnostics([...files, 'src/both-names.ts'], signal, overlay)).toEqual([]);
  });

  test('keep_alias in a module written without semicolons writes its alias without one', async () => {
    await writeFiles({
      'src/plain.ts':
        "const join = (a: string, b: string) => [a, b].join('/')\nexport const joined = join('a', 'b')\n",
      'src/plain-user.ts': "import { joined } from './plain'\nexport const again = joined\n",
    });
    const result = await run(renameSymbolTool, {
      name: 'joined',
      new_name: 'combined',
      path: 'src/plain.ts',
      keep_alias: true,
    });
    expect(result.success, result.error).toBe(true);
    expect(await ws.read('src/plain.ts')).toBe(
      "const join = (a: string, b: string) => [a, b].join('/')\nexport const combined = join('a', 'b')\nexport { combined as joined }\n",
    );
  });

  test("a function's local is renamed in its function, and the result names no other binding of its name (starlette's `response`)", async () => {
    await writeFiles({
      'src/local-a.ts':
        'export function handle(): number {\n  const response = 1;\n  return response;\n}\nexport const response = 2;\n',
      'src/local-b.ts': "import { response } from './local-a';\nexport const twice = response * 2;\n",
    });
    const result = await run(renameSymbolTool, {
      name: 'response',
      new_name: 'result',
      path: 'src/local-a.ts',
      line: 2,
    });
    expect(result.success, result.error).toBe(true);
    expect(result.output).toBe('renamed response to result: 2 occurrences in 1 files\n  src/local-a.ts (2)');
    expect(await ws.read('src/local-a.ts')).toContain(
      '  const result = 1;\n  return result;\n}\nexport const response = 2;',
    );
  });

  test("a static method create is renamed without an unrelated object's create", async () => {
    const result = await run(renameSymbolTool, {
      name: 'create',
      new_name: 'build',
      path: 'src/shapes.ts',
      line: 2,
    });
    expect(result.success, result.error).toBe(true);
    const uses = await ws.read('src/use-shapes.ts');
    expect(uses).toContain('Shape.build()');
    expect(uses).toContain('factory.create()');
    expect(await ws.read('src/shapes.ts')).toContain('  create(): number {');
    expect(await projectErrors()).toEqual([]);
  });

  test('a #private member is renamed with its #', async () => {
    const result = await run(renameSymbolTool, { name: 'count', new_name: 'total', path: 'src/counter.ts' });
    expect(result.success, result.error).toBe(true);
    const text = await ws.read('src/counter.ts');
    expect(text.match(/#total/g)).toHaveLength(3);
    expect(text).not.toContain('#count');
  });

  test('a parameter picked by occurrence is renamed in its function only', async () => {
    const result = await run(renameSymbolTool, {
      name: 'factor',
      new_name: 'times',
      path: 'src/scale.ts',
      occurrence: 2,
    });
    expect(result.success, result.error).toBe(true);
    expect(await ws.read('src/scale.ts')).toContain('(value: number, times: number)');
    expect(await ws.read('src/scale.ts')).toContain('value * times');
  });

  test('a default export is renamed with the default imports of the same name', async () => {
    const result = await run(renameSymbolTool, {
      name: 'makeThing',
      new_name: 'buildThing',
      path: 'src/make.ts',
    });
    expect(result.success, result.error).toBe(true);
    expect(await ws.read('src/make.ts')).toContain('export default function buildThing()');
    expect(await ws.read('src/use-make.ts')).toContain("import buildThing from './make';");
    expect(await projectErrors()).toEqual([]);
  });

  test('a rename of a symbol a dependency declares is refused and nothing is written', async () => {
    await ws.write('node_modules/dep/package.json', JSON.stringify({ name: 'dep', types: 'index.d.ts' }));
    await ws.write('node_modules/dep/index.d.ts', 'export declare function helper(): number;\n');
    await ws.write('src/use-dep.ts', "import { helper } from 'dep';\n\nexport const h = helper();\n");
    ctx.languages!.changed(['src/use-dep.ts']);
    const result = await run(renameSymbolTool, {
      name: 'helper',
      new_name: 'aid',
      path: 'src/use-dep.ts',
      line: 3,
    });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/node_modules/);
    expect(await ws.read('src/use-dep.ts')).toContain('helper()');
    expect(await ws.read('node_modules/dep/index.d.ts')).toContain('helper');
  });

  test('a rename that would introduce an error is refused and nothing is written', async () => {
    const before = await ws.read('src/scale.ts');
    const result = await run(renameSymbolTool, { name: 'value', new_name: 'times', path: 'src/scale.ts' });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/would introduce \d+ errors; nothing was written/);
    expect(result.error).toContain('src/scale.ts:1:');
    // It says what to do instead.
    expect(result.error).toContain(
      '(what to do: if times is already taken where these errors are, pick another name;',
    );
    expect(await ws.read('src/scale.ts')).toBe(before);
  });
});

describe('find_references and inspect_symbol through the TypeScript service', () => {
  test("find_references lists exactly the service's references, definitions marked", async () => {
    const service = (await ctx.languages!.forFile('src/shapes.ts'))!;
    const expected = await service.references({ path: 'src/shapes.ts', line: 2, column: 10 }, signal);
    const result = await run(findReferencesTool, { name: 'build', path: 'src/shapes.ts', line: 2 });
    const listed = result.output.split('\n').map((l) => l.split(': ')[0]);
    expect(listed).toEqual(
      expected.map((l) => `${l.path}:${l.line}:${l.column}${l.definition ? ' (definition)' : ''}`),
    );
    expect(listed).toEqual(['src/shapes.ts:2:10 (definition)', 'src/use-shapes.ts:3:28']);
    expect(result.output).not.toContain('name-based');
  });

  test('find_references of a name a function and a class member share takes the function and names the member', async () => {
    await writeFiles({
      'src/cells.ts': 'export function cellLen(text: string): number {\n  return text.length;\n}\n',
      'src/text.ts':
        "import { cellLen } from './cells';\n\nexport class Text {\n  cellLen(): number {\n    return cellLen('x');\n  }\n}\n",
    });
    try {
      const result = await run(findReferencesTool, { name: 'cellLen' });
      expect(result.success, result.error).toBe(true);
      expect(result.output).toContain('src/cells.ts:1:17');
      expect(result.output).toContain('src/text.ts:5:12');
      expect(result.output).not.toMatch(/^src\/text\.ts:4:/m);
      expect(result.output).toContain(
        '(the module-level cellLen of src/cells.ts; also Text.cellLen at src/text.ts:4: give path and line for those)',
      );
    } finally {
      for (const file of ['src/cells.ts', 'src/text.ts']) await fs.rm(path.join(ws.root, file));
      ctx.languages?.changed(['src/cells.ts', 'src/text.ts']);
    }
  });

  test("find_references of a CommonJS module.exports key follows the names destructured from require to their uses (undici's symbols)", async () => {
    const files = {
      'lib/symbols.js':
        "module.exports = {\n  kConnect: Symbol('connect'),\n  kClose: Symbol('close'),\n};\n",
      'lib/client.js':
        "'use strict';\nconst {\n  kClose,\n  kConnect,\n} = require('./symbols');\n\nclass Client {\n  [kConnect](cb) { return cb(kClose); }\n}\nmodule.exports = Client;\n",
      'test/client.js':
        "const { kConnect } = require('../lib/symbols');\nconst Client = require('../lib/client');\nnew Client()[kConnect](() => {});\n",
    };
    await writeFiles(files);
    try {
      const result = await run(findReferencesTool, { name: 'kConnect' });
      expect(result.success, result.error).toBe(true);
      const lines = result.output.split('\n').map((line) => line.split(': ')[0]);
      expect(lines).toEqual([
        'lib/client.js:4:3 (definition)',
        'lib/client.js:8:4',
        'lib/symbols.js:2:3 (definition)',
        'test/client.js:1:9 (definition)',
        'test/client.js:3:14',
      ]);
    } finally {
      for (const file of Object.keys(files)) await fs.rm(path.join(ws.root, file));
      ctx.languages?.changed(Object.keys(files));
    }
  });

  test("Class.member names that class's member in find_references and rename_symbol, as in inspect_symbol (zod's ZodType.superRefine, _refinement)", async () => {
    const files = {
      'src/zod.ts':
        'export class ZodType {\n  _refinement(check: () => boolean) {\n    return check;\n  }\n  superRefine(check: () => boolean) {\n    return this._refinement(check);\n  }\n}\nexport class ZodEffects {\n  superRefine() {\n    return 1;\n  }\n}\n',
      'src/use-zod.ts':
        "import { ZodEffects, ZodType } from './zod';\n\nexport const a = new ZodType().superRefine(() => true);\nexport const b = new ZodEffects().superRefine();\n",
    };
    await writeFiles(files);
    try {
      const refinement = await run(findReferencesTool, { name: 'ZodType._refinement' });
      expect(refinement.success, refinement.error).toBe(true);
      expect(refinement.output.split('\n').map((l) => l.split(': ')[0])).toEqual([
        'src/zod.ts:2:3 (definition)',
        'src/zod.ts:6:17',
      ]);
      const inspected = await run(inspectSymbolTool, { name: 'ZodType.superRefine' });
      expect(inspected.output.split('\n')[0]).toBe('method superRefine (in ZodType) at src/zod.ts:5-7');
      expect(inspected.output).toContain('references: 1 in 1 files');
      const found = await run(findReferencesTool, { name: 'ZodType.superRefine' });
      expect(found.output.split('\n').map((l) => l.split(': ')[0])).toEqual([
        'src/use-zod.ts:3:32',
        'src/zod.ts:5:3 (definition)',
      ]);
      const renamed = await run(renameSymbolTool, { name: 'ZodType.superRefine', new_name: 'refineWith' });
      expect(renamed.success, renamed.error).toBe(true);
      expect(await ws.read('src/use-zod.ts')).toBe(
        "import { ZodEffects, ZodType } from './zod';\n\nexport const a = new ZodType().refineWith(() => true);\nexport const b = new ZodEffects().superRefine();\n",
      );
      expect(await ws.read('src/zod.ts')).toContain('  refineWith(check: () => boolean) {');
      expect(await ws.read('src/zod.ts')).toContain('export class ZodEffects {\n  superRefine() {');
    } finally {
      for (const file of Object.keys(files)) await fs.rm(path.join(ws.root, file));
      ctx.languages?.changed(Object.keys(files));
    }
  });

  test("rename_symbol of an exported interface's property renames it as a key (`Pick<StoreApi<T>, 'subscribe'>`) and in an object literal given as that interface through a variable (zustand's StoreApi.subscribe)", async () => {
    const files = {
      'src/vanilla.ts': [
        'export interface StoreApi<T> {',
        '  getState: () => T;',
        '  subscribe: (listener: (state: T) => void) => () => void;',
        '}',
        "export type ReadonlyStoreApi<T> = Pick<StoreApi<T>, 'getState' | 'subscribe'>;",
        "export type Unsubscribed<T> = Omit<StoreApi<T>, 'subscribe'>;",
        'export function createStore<T>(state: T, init: (api: StoreApi<T>) => void): ReadonlyStoreApi<T> {',
        '  const getState = () => state;',
        "  const subscribe: StoreApi<T>['subscribe'] = () => () => undefined;",
        '  const api = { getState, subscribe };',
        '  init(api);',
        '  return api;',
        '}',
        '',
      ].join('\n'),
      'src/use-store.ts':
        "import { createStore } from './vanilla';\n\nexport const stop = createStore(1, () => undefined).subscribe(() => undefined);\n",
    };
    await writeFiles(files);
    try {
      const renamed = await run(renameSymbolTool, { name: 'StoreApi.subscribe', new_name: 'listen' });
      expect(renamed.success, renamed.error).toBe(true);
      const vanilla = await ws.read('src/vanilla.ts');
      expect(vanilla).toContain('  listen: (listener: (state: T) => void) => () => void;');
      expect(vanilla).toContain("Pick<StoreApi<T>, 'getState' | 'listen'>");
      expect(vanilla).toContain("const subscribe: StoreApi<T>['listen']");
      expect(vanilla).toContain('  const api = { getState, listen: subscribe };');
      expect(vanilla).toContain("Omit<StoreApi<T>, 'listen'>");
      expect(await ws.read('src/use-store.ts')).toContain('.listen(() => undefined)');
      const service = (await ctx.languages!.forFile('src/vanilla.ts'))!;
      expect(await service.diagnostics(Object.keys(files), signal)).toEqual([]);
    } finally {
      for (const file of Object.keys(files)) await fs.rm(path.join(ws.root, file));
      ctx.languages?.changed(Object.keys(files));
    }
  });

  test('inspect_symbol counts the uses the service finds', async () => {
    const result = await run(inspectSymbolTool, { name: 'buildThing', path: 'src/make.ts' });
    // The default import and the call; `factory.create` and same-named strings would not count.
    expect(result.output).toContain('references: 2 in 1 files');
  });
});

describe('diagnostics after a change', () => {
  test('an edit that breaks a type reports the new error with its line', async () => {
    const result = await run(editFileTool, {
      path: 'src/scale.ts',
      old_string: 'return value * times;',
      new_string: "return 'value';",
    });
    expect(result.success).toBe(true);
    expect(result.output).toContain('1 new error after this change:');
    expect(result.output).toMatch(
      /src\/scale\.ts:2:\d+: TS2322 Type 'string' is not assignable to type 'number'/,
    );
  });

  test('an edit leaving an old error in place reports no new one', async () => {
    const result = await run(editFileTool, {
      path: 'src/scale.ts',
      old_string: 'number {',
      new_string: 'number  {',
    });
    expect(result.output).not.toContain('new error');
  });

  test('get_diagnostics lists the current errors of the files changed in this run', async () => {
    const result = await run(getDiagnosticsTool, {});
    expect(result.success).toBe(true);
    expect(result.output).toMatch(/^1 errors, 0 warnings in \d+ files/);
    expect(result.output).toContain('src/scale.ts:2:');
    const named = await run(getDiagnosticsTool, { paths: ['src/app.ts'] });
    expect(named.output).toBe('0 errors, 0 warnings in 1 file');
    const folder = await run(getDiagnosticsTool, { paths: ['src'] });
    expect(folder.output).toMatch(/^1 errors, 0 warnings in 1\d files\n {2}src\/scale\.ts:2:/);
  });

  test('code.diagnostics false reports nothing after a change', async () => {
    const quiet = { ...ctx, diagnostics: false };
    const result = await run(
      writeFileTool,
      { path: 'src/broken.ts', content: 'export const n: number = "x";\n' },
      quiet,
    );
    expect(result.success).toBe(true);
    expect(result.output).toBe('created src/broken.ts (30 bytes)');
    const listed = await run(getDiagnosticsTool, { paths: ['src/broken.ts'] });
    expect(listed.output).toContain('TS2322');
  });

  test('an edit that takes an export away reports the errors of the files importing it', async () => {
    const files = {
      'src/units.ts': 'export function toMetres(feet: number): number {\n  return feet * 0.3048;\n}\n',
      'src/units-index.ts': "export { toMetres } from './units';\n",
      'src/height.ts': "import { toMetres } from './units';\n\nexport const height = toMetres(6);\n",
      'src/area.ts': "import * as units from './units';\n\nexport const side = units.toMetres(2);\n",
      'src/lazy.ts':
        "export async function side() {\n  const units = await import('./units');\n  return units.toMetres(2);\n}\n",
    };
    await writeFiles(files);
    const result = await run(editFileTool, {
      path: 'src/units.ts',
      old_string: 'export function toMetres(',
      new_string: 'export function feetToMetres(',
    });
    for (const file of Object.keys(files)) await fs.rm(path.join(ws.root, file));
    ctx.languages?.changed(Object.keys(files));
    // The barrel re-exporting it and modules importing it, none of them touched by the edit.
    expect(result.output).toMatch(/\n4 new errors after this change:\n/);
    // The module loaded at run time: the type checker's word.
    expect(result.output).toMatch(/\n {2}src\/lazy\.ts:3:(1[0-9]): TS(2339|2551) /);
    // The module imported whole, read from its uses.
    expect(result.output).toContain(
      "\n  src/area.ts:3:27: './units' (src/units.ts) no longer exports toMetres; it exports feetToMetres now",
    );
    // Read from the imports themselves: no type check is needed to know these are broken.
    expect(result.output).toContain(
      "\n  src/height.ts:1:10: './units' (src/units.ts) no longer exports toMetres; it exports feetToMetres now",
    );
    expect(result.output).toContain(
      "\n  src/units-index.ts:1:10: './units' (src/units.ts) no longer exports toMetres; it exports feetToMetres now",
    );
  });

  test("deleting or moving a module reports what broke: its importers, and the moved file's own imports", async () => {
    const files = {
      'src/feet.ts': 'export const FOOT = 0.3048;\n',
      'src/length.ts':
        "import { FOOT } from './feet';\n\nexport const length = (feet: number) => feet * FOOT;\n",
      'src/uses-length.ts': "import { length } from './length';\n\nexport const six = length(6);\n",
    };
    await writeFiles(files);
    const moved = await run(moveFileTool, { source: 'src/length.ts', destination: 'src/lib/length.ts' });
    expect(moved.output).toMatch(/\n2 new errors after this change:\n/);
    // Its importer lost it; it lost './feet' where it went.
    expect(moved.output).toMatch(/\n {2}src\/uses-length\.ts:1:24: TS2307 /);
    expect(moved.output).toMatch(/\n {2}src\/lib\/length\.ts:1:22: TS2307 /);
    // Deleting what the moved file imports breaks nothing more: it lost it already.
    expect((await run(deleteTool, { path: 'src/feet.ts' })).output).toBe('deleted src/feet.ts');
    await writeFiles({
      'src/feet.ts': files['src/feet.ts'],
      'src/lib/feet-user.ts': "import { FOOT } from '../feet';\n\nexport const f = FOOT;\n",
    });
    const deleted = await run(deleteTool, { path: 'src/feet.ts' });
    expect(deleted.output).toMatch(
      /^deleted src\/feet\.ts\n1 new error after this change:\n {2}src\/lib\/feet-user\.ts:1:22: TS2307 /,
    );
    for (const file of ['src/lib/length.ts', 'src/lib/feet-user.ts', 'src/uses-length.ts'])
      await fs.rm(path.join(ws.root, file));
    ctx.languages?.changed([]);
  });

  test('deleting a folder of modules reports the importers it broke', async () => {
    const files = {
      'src/angles/index.ts': "export { toRadians } from './convert';\n",
      'src/angles/convert.ts': 'export const toRadians = (d: number) => (d * Math.PI) / 180;\n',
      'src/turn.ts': "import { toRadians } from './angles';\n\nexport const right = toRadians(90);\n",
    };
    await writeFiles(files);
    const deleted = await run(deleteTool, { path: 'src/angles', recursive: true });
    await fs.rm(path.join(ws.root, 'src/turn.ts'));
    ctx.languages?.changed(['src/turn.ts']);
    expect(deleted.output).toMatch(
      /^deleted directory src\/angles\n1 new error after this change:\n {2}src\/turn\.ts:1:27: TS2307 /,
    );
  });

  test('a new file with an error reports it', async () => {
    await fs.rm(path.join(ws.root, 'src/broken.ts'));
    const result = await run(writeFileTool, {
      path: 'src/other.ts',
      content: 'export const n: number = "x";\n',
    });
    expect(result.output).toMatch(/1 new error after this change:\n {2}src\/other\.ts:1:14: TS2322/);
  });
});

test('a file a command rewrote is read again once the services hear that anything may have changed', async () => {
  await ws.write(
    'src/app.ts',
    "import { welcome } from './index';\n\nexport const message: number = welcome('you');\n",
  );
  ctx.languages!.changed([]);
  const result = await run(getDiagnosticsTool, { paths: ['src/app.ts'] });
  expect(result.output).toMatch(/^1 errors, 0 warnings in 1 file\n {2}src\/app\.ts:3:14: TS2322/);
});

describe('a monorepo of many projects', () => {
  test("references cross a pnpm workspace's packages that are neither installed nor built (TanStack Query)", async () => {
    const mono = await makeWorkspace();
    const files: Record<string, string> = {
      'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
      'package.json': JSON.stringify({ private: true }),
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, moduleResolution: 'Bundler', module: 'ESNext' },
      }),
      'packages/core/package.json': JSON.stringify({
        name: '@acme/core',
        exports: { '.': { types: './build/index.d.ts', default: './build/index.js' } },
      }),
      'packages/core/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.json', include: ['src'] }),
      'packages/core/src/index.ts': "export { notify } from './notify';\n",
      'packages/core/src/notify.ts': 'export function notify(n: number): number {\n  return n;\n}\n',
      'packages/react/package.json': JSON.stringify({
        name: '@acme/react',
        dependencies: { '@acme/core': 'workspace:*' },
      }),
      'packages/react/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.json', include: ['src'] }),
      'packages/react/src/use.ts': "import { notify } from '@acme/core';\n\nexport const used = notify(1);\n",
    };
    for (const [file, content] of Object.entries(files)) await mono.write(file, content);
    const languages = new LanguageServices(mono.root, [typeScriptFactory]);
    try {
      const result = await run(
        findReferencesTool,
        { name: 'notify', path: 'packages/core/src/notify.ts' },
        { ...mono.ctx, languages },
      );
      expect(result.success, result.error).toBe(true);
      expect(result.output).toContain("packages/react/src/use.ts:1:10: import { notify } from '@acme/core';");
      expect(result.output).toContain('packages/react/src/use.ts:3:21: export const used = notify(1);');
    } finally {
      await languages.close();
      await mono.cleanup();
    }
  });

  test("a rename reaches the packages importing through paths, past dozens of examples' projects", async () => {
    const mono = await makeWorkspace();
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, baseUrl: '.', paths: { '@acme/core': ['./packages/core/src'] } },
        include: ['packages'],
      }),
      'packages/core/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.json', include: ['src'] }),
      'packages/core/src/index.ts': 'export function helper(n: number): number {\n  return n + 1;\n}\n',
      'packages/zapp/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.json', include: ['src'] }),
      'packages/zapp/src/main.ts': "import { helper } from '@acme/core';\n\nexport const two = helper(1);\n",
    };
    // More example projects than a search consults, none of them naming the symbol.
    for (let i = 0; i < 30; i++) {
      files[`examples/e${i}/tsconfig.json`] = JSON.stringify({ include: ['.'] });
      files[`examples/e${i}/index.ts`] = `export const e${i} = ${i};\n`;
    }
    for (const [file, content] of Object.entries(files)) await mono.write(file, content);
    const languages = new LanguageServices(mono.root, [typeScriptFactory]);
    try {
      const result = await run(
        renameSymbolTool,
        { name: 'helper', new_name: 'increment', path: 'packages/core/src/index.ts' },
        { ...mono.ctx, languages },
      );
      expect(result.success, result.error).toBe(true);
      expect(await mono.read('packages/zapp/src/main.ts')).toBe(
        "import { increment } from '@acme/core';\n\nexport const two = increment(1);\n",
      );
    } finally {
      await languages.close();
      await mono.cleanup();
    }
  });
});

test("an ES module under NodeNext resolves its imports as ESM: an import without its extension is the error tsc reports (ofetch's `./fetch` for `./fetch.ts`)", async () => {
  const esm = await makeWorkspace();
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ type: 'module' }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        allowImportingTsExtensions: true,
        noEmit: true,
      },
      include: ['src'],
    }),
    'src/fetch.ts': 'export const fetcher = 1;\n',
    'src/base.ts': 'export * from "./fetch.ts";\n',
  };
  for (const [file, content] of Object.entries(files)) await esm.write(file, content);
  const languages = new LanguageServices(esm.root, [typeScriptFactory]);
  try {
    const on = { ...esm.ctx, languages };
    const clean = await run(getDiagnosticsTool, { paths: ['src/base.ts'] }, on);
    expect(clean.output).not.toContain('TS');
    const edited = await run(
      editFileTool,
      { path: 'src/base.ts', old_string: '"./fetch.ts"', new_string: '"./fetch"' },
      on,
    );
    expect(edited.output).toMatch(/1 new error after this change:\n {2}src\/base\.ts:1:15: TS2835 /);
  } finally {
    await languages.close();
    await esm.cleanup();
  }
});
