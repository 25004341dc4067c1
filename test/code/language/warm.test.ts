// A run that edits loads a file's language service when a tool reads the file (LanguageServices.warm): once per
// service, in the background, ended by close; a read-only run, and a run that does not check its changes, load
// nothing on a read.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type LanguageService, LanguageServices } from '../../../src/code/language/service.js';
import { runLanguages } from '../../../src/runtime/tool-context.js';
import { readFileTool } from '../../../src/tools/read-file.js';
import { makeWorkspace, type TestWorkspace } from '../../tools/helpers.js';

function fakeFactory() {
  const prepared: { paths: string[]; signal: AbortSignal }[] = [];
  const service = {
    id: 'fake',
    prepare: async (paths: string[], signal: AbortSignal) => {
      prepared.push({ paths, signal });
    },
    changed: () => {},
    close: async () => {},
  } as unknown as LanguageService;
  const factory = { id: 'fake', handles: (f: string) => f.endsWith('.ts'), start: async () => service };
  return { prepared, factory };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

test('warm prepares the first file read per service, in the background, and close ends it', async () => {
  const { prepared, factory } = fakeFactory();
  const languages = new LanguageServices('/ws', async () => [factory]);
  languages.warm('a.ts');
  await settle();
  expect(prepared).toEqual([]);
  languages.warmOnRead();
  languages.warm('notes.md');
  languages.warm('../elsewhere/b.ts');
  languages.warm('/abs/c.ts');
  languages.warm('src/a.ts');
  languages.warm('src/b.ts');
  await settle();
  expect(prepared.map((p) => p.paths)).toEqual([['src/a.ts']]);
  expect(prepared[0]!.signal.aborted).toBe(false);
  await languages.close();
  expect(prepared[0]!.signal.aborted).toBe(true);
});

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace({});
  await ws.write('a.ts', 'export const a = 1;\n');
});
afterAll(() => ws.cleanup());

test.each([
  ['a run offering edit_file that checks its changes', ['read_file', 'edit_file'], true, true],
  ['a read-only run', ['read_file', 'grep'], true, false],
  ['a run with code.diagnostics off', ['read_file', 'edit_file'], false, false],
])('%s: warms on read %s', async (_, tools, diagnostics, warms) => {
  const registry = { list: () => tools.map((name) => ({ name })) } as never;
  const languages = runLanguages(ws.root, { code: { diagnostics } } as never, registry);
  expect(languages.warmsOnRead).toBe(warms);
  await languages.close();
});

test('read_file hands the file it read to the warm-up', async () => {
  const languages = new LanguageServices(ws.root, async () => []);
  const read: string[] = [];
  languages.warm = (p: string) => {
    read.push(p);
  };
  await readFileTool.execute({ path: 'a.ts' }, { ...ws.ctx, languages });
  expect(read).toEqual(['a.ts']);
});
