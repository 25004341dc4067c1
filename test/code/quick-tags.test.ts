// A large repository's first map ranks from a lexical scan: the scan's imports and top-level definitions agree with
// the parse's, the ranking of library-shaped fixtures keeps their core first, and the files shown are parsed.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadCodeIndex } from '../../src/code/code-index.js';
import { languageOf } from '../../src/code/languages.js';
import { loadRepoMap } from '../../src/code/map-cache.js';
import { quickTags } from '../../src/code/quick-tags.js';
import { rankFiles } from '../../src/code/rank.js';
import { extractTags } from '../../src/code/tags.js';
import { pyLibrary, tsLibrary } from './rank-fixtures.js';

const TS = [
  "import client, { get as fetchIt, type Options } from './client.js';",
  "import * as util from '../util/index.js';",
  "import type { Hooks } from './hooks.js';",
  "import './polyfill.js';",
  'export {',
  '  HTTPError,',
  '  TimeoutError as Timeout,',
  "} from './errors.js';",
  "export * from './types.js';",
  '',
  '// function commented(): not a definition',
  'export function request(url: string): Promise<Response> {',
  '  const local = fetchIt(url);',
  '  return util.wrap(local, client);',
  '}',
  'export default class Ky {',
  '  static create(options: Options) {}',
  '}',
  'const internal = 1;',
  'export interface Shape { a: number }',
  'export type Id = string;',
  'enum Color { Red }',
].join('\n');

const PY = [
  'import os.path as osp, sys',
  'from . import sessions',
  'from .models import (  # noqa: F401',
  '    Request,',
  '    Response as Resp,  # for old callers',
  ')',
  'from .utils import merge_setting, \\',
  '    to_key',
  '',
  'DEFAULT_TIMEOUT = 30',
  '_cache: dict = {}',
  '',
  '',
  'class Session:',
  '    def request(self, method):',
  '        return sessions.send(Request(method))',
  '',
  '    def _private(self):',
  '        x = 1',
  '',
  '',
  'async def fetch(url):',
  '    def inner():',
  '        pass',
  '    return merge_setting(to_key(url))',
].join('\n');

const comparable = (imports: { module: string; bindings: unknown; alias?: string; reexport: boolean }[]) =>
  imports.map(({ module, bindings, alias, reexport }) => ({ module, bindings, alias, reexport }));

describe('a scan agrees with the parse', () => {
  test.each([
    ['a.ts', TS],
    ['a.py', PY],
  ])('%s: the same imports, bindings and aliases', (file, source) => {
    const lang = languageOf(file)!;
    expect(comparable(quickTags(lang, source)!.imports)).toEqual(
      comparable(extractTags(lang, source).imports),
    );
  });

  test.each([
    ['a.ts', TS],
    ['a.py', PY],
  ])('%s: every top-level definition, with its kind and whether it is exported', (file, source) => {
    const lang = languageOf(file)!;
    const lines = source.split('\n');
    const pick = (
      defs: { name: string; kind: string; exported: boolean; container?: string; line: number }[],
    ) =>
      defs
        // Top-level: a one-line interface's property (`export interface Shape { a: number }`) is its member.
        .filter((d) => d.container === undefined && /^\S/.test(lines[d.line - 1]!))
        .map(({ name, kind, exported, line }) => ({ name, kind, exported, line }));
    expect(pick(quickTags(lang, source)!.definitions)).toEqual(pick(extractTags(lang, source).definitions));
  });

  test.each([
    ['a.ts', TS],
    ['a.py', PY],
  ])('%s: names are counted as the parse counts them (none from import statements)', (file, source) => {
    const lang = languageOf(file)!;
    expect(quickTags(lang, source)!.references).toEqual(extractTags(lang, source).references);
  });

  test('a module required into a name is bound to it, as the parse binds it; a required member or call is not', () => {
    const lang = languageOf('a.js')!;
    const source = [
      "const babel = require('../lib/index.js');",
      "var sign = require('cookie-signature').sign;",
      "const debug = require('debug')('app');",
      "require('./polyfill.js');",
    ].join('\n');
    const scanned = comparable(quickTags(lang, source)!.imports);
    expect(scanned[0]).toEqual({
      module: '../lib/index.js',
      bindings: [{ name: '*', alias: 'babel' }],
      alias: 'babel',
      reexport: false,
    });
    expect(scanned.slice(1).map((imp) => imp.alias)).toEqual([undefined, undefined, undefined]);
    expect(scanned[0]).toEqual(comparable(extractTags(lang, source).imports)[0]);
  });

  test('Python methods belong to their class; names bound inside functions are no definitions', () => {
    const defs = quickTags(languageOf('a.py')!, PY)!.definitions;
    expect(defs.filter((d) => d.kind === 'method').map((d) => [d.container, d.name, d.exported])).toEqual([
      ['Session', 'request', true],
      ['Session', '_private', false],
    ]);
    expect(defs.map((d) => d.name)).not.toContain('x');
  });

  test('languages the scan does not read are left to the parser', () => {
    expect(quickTags(languageOf('a.go')!, 'package main\nfunc main() {}\n')).toBeUndefined();
  });
});

describe('ranking from a scan', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'keel-quick-'));
    for (const [name, files] of Object.entries({ ts: tsLibrary, py: pyLibrary }))
      for (const [file, content] of Object.entries(files)) {
        await mkdir(path.join(dir, name, path.dirname(file)), { recursive: true });
        await writeFile(path.join(dir, name, file), content);
      }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('keeps the core of library-shaped projects first and tests last', async () => {
    const ts = rankFiles(await loadCodeIndex(path.join(dir, 'ts'), { quickAbove: 0 })).map((r) => r.path);
    expect(ts[0]).toBe('source/index.ts');
    const core = ts.indexOf('source/core/Client.ts');
    for (const helper of ts.filter((p) => /source\/(utils|errors)\//.test(p)))
      expect(core).toBeLessThan(ts.indexOf(helper));
    const py = rankFiles(await loadCodeIndex(path.join(dir, 'py'), { quickAbove: 0 })).map((r) => r.path);
    for (const file of ['sessions.py', 'api.py', 'models.py'])
      expect(py.slice(0, 5)).toContain(`src/shop/${file}`);
    expect(py.at(-1)).toMatch(/^tests\//);
  });

  test('the map says it ranked from a scan and parses the files it shows', async () => {
    const cacheDir = path.join(dir, 'cache');
    const root = path.join(dir, 'ts');
    const first = await loadRepoMap(root, { cacheDir, quickAbove: 0 }, 2000, '');
    expect(first.scanned).toBeGreaterThan(0);
    // Methods come only from the syntax tree.
    expect(first.map.text).toMatch(/source\/core\/Client\.ts:\n.*export class Client\n.*static create/);
    const warm = await loadRepoMap(root, { cacheDir }, 2000, '');
    expect(warm.map.text).toBe(first.map.text);
    // Other code tools never use a scan's tags: the cached ones are parsed again.
    const index = await loadCodeIndex(root, { cacheDir });
    expect(index.stats.quick).toBe(0);
    expect(index.stats.parsed).toBe(index.stats.files);
  });
});
