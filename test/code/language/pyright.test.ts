// Pyright through Keel's LSP client on a Python package written here: binding-exact references and renames
// (a method named like dict.get, a local shadowing a module name, comments in parenthesised imports), and
// diagnostics of a text not on disk. One pyright for the whole file: it is slow to start.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lspFactories, serverDefinitions } from '../../../src/code/language/lsp-servers.js';
import type { LanguageService, SourceLocation } from '../../../src/code/language/service.js';
import { openWorkspace } from '../../../src/safety/workspace.js';
import { pythonOverrides } from '../../../src/tools/python-overrides.js';
import type { ToolContext } from '../../../src/tools/tool.js';

const files: Record<string, string> = {
  'pkg/__init__.py': '',
  'pkg/auth.py': 'def login(user):\n    return user\n\n\nclass Token:\n    pass\n',
  'pkg/store.py': [
    'class Store:',
    '    def __init__(self):',
    '        self.data = {}',
    '',
    '    def get(self, key):',
    '        return self.data.get(key)',
    '',
    '',
    'def lookup(store: Store, options: dict):',
    '    a = store.get("x")',
    '    b = options.get("y")',
    '    return a, b',
    '',
  ].join('\n'),
  'pkg/client.py': [
    'from .auth import (  # noqa: F401',
    '    login,  # login stays for compatibility',
    '    Token,',
    ')',
    'from .store import Store',
    '',
    '',
    'def connect(user):',
    '    auth = login(user)',
    '    return auth',
    '',
    '',
    'def make():',
    '    s = Store()',
    '    return s.get("k")',
    '',
  ].join('\n'),
  'pkg/cli.py': 'from pkg import auth\n\nprint(auth.login("x"))\n',
  // Pyright's program is `include` alone; the tests outside it still call Store.get.
  'pyproject.toml': '[tool.pyright]\ninclude = ["pkg"]\n',
  'tests/test_store.py': 'from pkg.store import Store\n\nStore().get("t")\n',
  // A method overridden down a hierarchy across modules (starlette's BaseRoute.url_path_for), beside an unrelated
  // class's method of the same name.
  'pkg/routes.py': [
    'class BaseRoute:',
    '    def path_for(self, name: str) -> str:',
    '        raise NotImplementedError()',
    '',
    '',
    'class Mid(BaseRoute):',
    '    pass',
    '',
    '',
    'def first(routes: list[BaseRoute]) -> str:',
    '    return routes[0].path_for("x")',
    '',
  ].join('\n'),
  'pkg/route.py': [
    'from . import routes',
    'from .routes import Mid',
    '',
    '',
    'class Route(Mid):',
    '    def path_for(self, name: str) -> str:',
    '        return name',
    '',
    '',
    'class Other:',
    '    def path_for(self, name: str) -> str:',
    '        return ""',
    '',
    '',
    'class Mount(routes.BaseRoute):',
    '    @property',
    '    def x(self) -> int:',
    '        return 1',
    '',
    '    def path_for(self, name: str) -> str:',
    '        return Other().path_for(name)',
    '',
  ].join('\n'),
  // A generic base, subscripted in the subclass's base list (starlette's `MultiDict(ImmutableMultiDict[Any, Any])`).
  'pkg/generic.py':
    'from typing import Generic, TypeVar\n\nT = TypeVar("T")\n\n\nclass Box(Generic[T]):\n    def path_for(self, name: str) -> str:\n        return name\n\n\nclass Boxed(Box[int]):\n    def path_for(self, name: str) -> str:\n        return "b"\n',
  'tests/test_route.py':
    'from pkg.route import Route\n\n\nclass MyRoute(Route):\n    def path_for(self, name: str) -> str:\n        return "t"\n',
  // A library's method overridden (logging.Handler.emit): renamed, it would stop being called, and no check says so.
  'pkg/logs.py':
    'import logging\n\n\nclass Quiet(logging.Handler):\n    def emit(self, record):\n        pass\n\n\nclass Quieter(Quiet):\n    def emit(self, record):\n        pass\n',
};

let root: string;
let service: LanguageService;
const signal = new AbortController().signal;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-pyright-')));
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.writeFile(path.join(root, file), text);
  }
  // No Python on PATH: the fixture needs only pyright's bundled stubs, and asking an interpreter for its search
  // paths took pyright 15 s on a busy machine.
  const env = { ...process.env, PATH: path.join(root, 'no-python') };
  const factory = lspFactories(serverDefinitions(), env).find((f) => f.handles('pkg/client.py'));
  const started = await factory?.start(root);
  if (!started) throw new Error('pyright did not start');
  service = started;
}, 60_000);

afterAll(async () => {
  await service?.close();
  await fs.rm(root, { recursive: true, force: true });
});

const where = (found: SourceLocation[]) =>
  found.map((l) => `${l.path}:${l.line}:${l.column}${l.definition ? ' def' : ''}`);

describe('pyright references', () => {
  test("a method named get lists the class's uses, never dict.get", async () => {
    const found = await service.references({ path: 'pkg/store.py', line: 5, column: 9 }, signal);
    expect(where(found)).toEqual([
      'pkg/client.py:15:14',
      'pkg/store.py:5:9 def',
      'pkg/store.py:10:15',
      'tests/test_store.py:3:9',
    ]);
  }, 60_000);

  test("a rename reaches files outside pyright's include that use the symbol", async () => {
    const changes = await service.rename({ path: 'pkg/store.py', line: 5, column: 9 }, 'fetch', {}, signal);
    if (typeof changes === 'string') throw new Error(changes);
    expect(changes.map((c) => c.path)).toEqual(['pkg/client.py', 'pkg/store.py', 'tests/test_store.py']);
    expect(changes.find((c) => c.path === 'pkg/store.py')?.after).toContain('return self.data.get(key)');
  });

  test('an imported function is found across modules, never in the comment beside its import', async () => {
    const found = await service.references({ path: 'pkg/auth.py', line: 1, column: 5 }, signal);
    expect(where(found)).toEqual([
      'pkg/auth.py:1:5 def',
      'pkg/cli.py:3:12',
      'pkg/client.py:2:5',
      'pkg/client.py:9:12',
    ]);
  });

  test('a file written after the start is seen once it is announced as changed', async () => {
    await fs.writeFile(path.join(root, 'pkg/late.py'), 'from .store import Store\n\nStore().get("z")\n');
    service.changed(['pkg/late.py']);
    const found = await service.references({ path: 'pkg/store.py', line: 5, column: 9 }, signal);
    expect(where(found)).toContain('pkg/late.py:3:9');
  });
});

describe('pyright rename', () => {
  test('a local named like a module is renamed alone; the import of the module stays', async () => {
    const changes = await service.rename(
      { path: 'pkg/client.py', line: 9, column: 5 },
      'merged_auth',
      {},
      signal,
    );
    if (typeof changes === 'string') throw new Error(changes);
    expect(changes.map((c) => [c.path, c.count])).toEqual([['pkg/client.py', 2]]);
    const after = changes[0]?.after ?? '';
    expect(after).toContain('from .auth import (');
    expect(after).toContain('    merged_auth = login(user)\n    return merged_auth\n');
  });

  test('a function imported across modules is renamed at its definition, imports and attribute uses', async () => {
    const changes = await service.rename({ path: 'pkg/auth.py', line: 1, column: 5 }, 'sign_in', {}, signal);
    if (typeof changes === 'string') throw new Error(changes);
    expect(changes.map((c) => c.path)).toEqual(['pkg/auth.py', 'pkg/cli.py', 'pkg/client.py']);
    const client = changes.find((c) => c.path === 'pkg/client.py')?.after ?? '';
    expect(client).toContain('    sign_in,  # login stays for compatibility\n');
    expect(client).toContain('auth = sign_in(user)');
    expect(changes.find((c) => c.path === 'pkg/cli.py')?.after).toContain('auth.sign_in("x")');
    // Whole, the rename leaves no error behind.
    const overlay = new Map(changes.map((c) => [c.path, c.after]));
    expect(await service.diagnostics([...overlay.keys()], signal, overlay)).toEqual([]);
  });

  test("a base class's method is renamed with its overrides down the hierarchy, across modules and in tests; never another class's of that name", async () => {
    const ctx = { workspace: await openWorkspace(root, [], []), signal } as unknown as ToolContext;
    const at = { path: 'pkg/routes.py', line: 2, column: 9 };
    const overrides = await pythonOverrides(ctx, service, at, 'path_for', signal);
    expect(overrides.positions.map((p) => `${p.owner} ${p.path}:${p.line}:${p.column}`).sort()).toEqual([
      'Mount pkg/route.py:20:9',
      'MyRoute tests/test_route.py:5:9',
      'Route pkg/route.py:6:9',
    ]);
    // From an override, at a call: the base it overrides and the rest of the hierarchy.
    const fromCall = await pythonOverrides(
      ctx,
      service,
      { path: 'pkg/routes.py', line: 11, column: 22 },
      'path_for',
      signal,
    );
    expect(fromCall.positions.map((p) => p.owner).sort()).toEqual(['Mount', 'MyRoute', 'Route']);
    const fromRoute = await pythonOverrides(
      ctx,
      service,
      { path: 'pkg/route.py', line: 6, column: 9 },
      'path_for',
      signal,
    );
    expect(fromRoute.positions.map((p) => p.owner).sort()).toEqual(['BaseRoute', 'Mount', 'MyRoute']);
    const changes = await service.rename(at, 'url_for', { together: overrides.positions }, signal);
    if (typeof changes === 'string') throw new Error(changes);
    const route = changes.find((c) => c.path === 'pkg/route.py')?.after ?? '';
    expect(route.match(/def url_for/g)).toHaveLength(2);
    expect(route).toContain('class Other:\n    def path_for(self');
    expect(route).toContain('return Other().path_for(name)');
    expect(changes.find((c) => c.path === 'pkg/routes.py')?.after).toContain('routes[0].url_for("x")');
    expect(changes.find((c) => c.path === 'tests/test_route.py')?.after).toContain('def url_for(self');
    const boxed = await pythonOverrides(
      ctx,
      service,
      { path: 'pkg/generic.py', line: 7, column: 9 },
      'path_for',
      signal,
    );
    expect(boxed.positions.map((p) => `${p.owner} ${p.path}:${p.line}`)).toEqual(['Boxed pkg/generic.py:12']);
    // Not one.
    expect(
      await pythonOverrides(ctx, service, { path: 'pkg/route.py', line: 11, column: 9 }, 'path_for', signal),
    ).toEqual({ positions: [], outside: [] });
    // The project's classes alone have no base outside it (Generic is no class with methods to override).
    expect([overrides.outside, boxed.outside]).toEqual([[], []]);
  }, 60_000);

  test("a method of a class deriving from a library's names that base: a rename may stop overriding its method", async () => {
    const ctx = { workspace: await openWorkspace(root, [], []), signal } as unknown as ToolContext;
    const fromSub = await pythonOverrides(
      ctx,
      service,
      { path: 'pkg/logs.py', line: 10, column: 9 },
      'emit',
      signal,
    );
    expect(fromSub.positions.map((p) => p.owner)).toEqual(['Quiet']);
    expect(fromSub.outside).toEqual([{ owner: 'Quiet', base: 'logging.Handler' }]);
  }, 60_000);

  test('a builtin cannot be renamed', async () => {
    const refused = await service.rename({ path: 'pkg/cli.py', line: 3, column: 1 }, 'show', {}, signal);
    expect(refused).toEqual(expect.any(String));
  });
});

describe('pyright diagnostics', () => {
  test('a rename applied to one file only is caught in its importer, and the overlay is taken back', async () => {
    const renamed = files['pkg/auth.py']?.replace('def login', 'def sign_in') ?? '';
    const broken = await service.diagnostics(['pkg/client.py'], signal, new Map([['pkg/auth.py', renamed]]));
    expect(broken).toEqual([
      expect.objectContaining({ path: 'pkg/client.py', line: 2, column: 5, severity: 'error' }),
    ]);
    expect(broken[0]?.message).toContain('login');
    expect(await service.diagnostics(['pkg/client.py'], signal)).toEqual([]);
  });
});
