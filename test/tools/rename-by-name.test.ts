// rename_symbol and find_references without a language service (pyright turned off): a position on a Python
// function's local or parameter means that binding alone (requests' `auth` in Session.prepare_request), and every
// rename by name is checked to parse before it is written, its result saying what was not checked (as is a
// service's rename whose check timed out).
import { beforeEach, expect, test } from 'vitest';
import { type LanguageService, LanguageServices } from '../../src/code/language/service.js';
import { findReferencesTool } from '../../src/tools/find-references.js';
import { renameSymbolTool } from '../../src/tools/rename-symbol.js';
import { useToolWorkspace } from './helpers.js';

const ws = useToolWorkspace();
const { run } = ws;

const SESSIONS = [
  'from .auth import _basic_auth_str',
  '',
  '',
  'class Session:',
  '    auth: object',
  '',
  '    def __init__(self):',
  '        self.auth = None',
  '',
  '    def prepare_request(self, request):',
  '        auth = request.auth',
  '        if not auth and not self.auth:',
  '            auth = _basic_auth_str("u", "p")',
  '        return merge(auth=merge_setting(auth, self.auth))',
  '',
  '    def send(self, request, auth=None):',
  '        return auth or self.auth',
  '',
].join('\n');

const TESTS =
  'import requests\n\n\ndef test_auth():\n    s = requests.Session()\n    s.auth = ("u", "p")\n    auth = s.auth\n    return auth\n';

beforeEach(async () => {
  await ws.write('src/requests/auth.py', 'def _basic_auth_str(u, p):\n    return u\n');
  await ws.write('src/requests/sessions.py', SESSIONS);
  await ws.write('src/requests/__init__.py', 'from .sessions import Session\n');
  await ws.write('tests/test_requests.py', TESTS);
});

test("a line naming a Python local renames that binding in its function alone: never the module in an import, the class's field or another function's (requests' prepare_request `auth`)", async () => {
  const result = await run(renameSymbolTool, {
    name: 'auth',
    new_name: 'merged_auth',
    path: 'src/requests/sessions.py',
    line: 11,
  });
  expect(result.success).toBe(true);
  expect(await ws.read('src/requests/sessions.py')).toBe(
    SESSIONS.replace('        auth = request.auth', '        merged_auth = request.auth')
      .replace('if not auth and', 'if not merged_auth and')
      .replace('            auth = _basic', '            merged_auth = _basic')
      .replace('merge_setting(auth,', 'merge_setting(merged_auth,'),
  );
  expect(await ws.read('tests/test_requests.py')).toBe(TESTS);
  expect(result.output).toContain('renamed auth to merged_auth: 4 occurrences in 1 files');
  expect(result.output).toContain(
    '(the local binding auth declared at src/requests/sessions.py:11 (in Session.prepare_request): only its scope, lines 10-14;',
  );
  expect(result.output).toContain('checked: the changed files parse as before');
});

test('find_references at a local lists its uses in its function only', async () => {
  const result = await run(findReferencesTool, { name: 'auth', path: 'src/requests/sessions.py', line: 12 });
  const places = result.output.split('\n').filter((l) => /^\S+:\d+:\d+/.test(l));
  expect(places.map((l) => l.split(': ')[0])).toEqual([
    'src/requests/sessions.py:11:9 (definition)',
    'src/requests/sessions.py:12:16',
    'src/requests/sessions.py:13:13 (definition)',
    'src/requests/sessions.py:14:41',
  ]);
});

test('a parameter is renamed in its function, and the result says callers passing it by keyword are not', async () => {
  const result = await run(renameSymbolTool, {
    name: 'auth',
    new_name: 'credentials',
    path: 'src/requests/sessions.py',
    line: 16,
  });
  expect(result.success).toBe(true);
  expect(await ws.read('src/requests/sessions.py')).toContain(
    '    def send(self, request, credentials=None):\n        return credentials or self.auth\n',
  );
  expect(result.output).toContain(
    'a parameter: calls passing it by keyword (`auth=…`) are not changed or listed',
  );
});

test('a local renamed to a name its function already uses is refused', async () => {
  const result = await run(renameSymbolTool, {
    name: 'auth',
    new_name: 'request',
    path: 'src/requests/sessions.py',
    line: 11,
  });
  expect(result.success).toBe(false);
  expect(result.error).toContain(
    'request is already used in the scope of the local auth (src/requests/sessions.py:10-14)',
  );
  expect(await ws.read('src/requests/sessions.py')).toBe(SESSIONS);
});

test('a rename by name whose result would not parse is refused, and nothing is written', async () => {
  const result = await run(renameSymbolTool, {
    name: '_basic_auth_str',
    new_name: 'lambda',
    path: 'src/requests/auth.py',
  });
  expect(result.success).toBe(false);
  expect(result.error).toContain('renaming _basic_auth_str to lambda would leave');
  expect(result.error).toContain('nothing was written');
  expect(await ws.read('src/requests/sessions.py')).toBe(SESSIONS);
});

test("keep_alias in Python keeps the old name importable: bound after the class, in every __all__, imported beside the new one by the package (httpx's BasicAuth)", async () => {
  await ws.write(
    'httpx/_auth.py',
    '__all__ = ["Auth", "BasicAuth"]\n\n\nclass Auth:\n    pass\n\n\nclass BasicAuth(Auth):\n    pass\n\n\nclass DigestAuth(Auth):\n    pass\n',
  );
  await ws.write(
    'httpx/_client.py',
    'from ._auth import Auth, BasicAuth\n\n\ndef make():\n    return BasicAuth()\n',
  );
  await ws.write('httpx/_api.py', 'from ._auth import BasicAuth\n\n__all__ = ["BasicAuth"]\n');
  await ws.write(
    'httpx/__init__.py',
    'from ._auth import *\n\n__all__ = [\n    "Auth",\n    "BasicAuth",\n]\n',
  );
  const result = await run(renameSymbolTool, {
    name: 'BasicAuth',
    new_name: 'BasicAuthentication',
    path: 'httpx/_auth.py',
    keep_alias: true,
  });
  expect(result.success, result.error).toBe(true);
  expect(await ws.read('httpx/_auth.py')).toBe(
    '__all__ = ["Auth", "BasicAuthentication", "BasicAuth"]\n\n\nclass Auth:\n    pass\n\n\nclass BasicAuthentication(Auth):\n    pass\n\n\nBasicAuth = BasicAuthentication\n\n\nclass DigestAuth(Auth):\n    pass\n',
  );
  expect(await ws.read('httpx/_client.py')).toContain('return BasicAuthentication()');
  expect(await ws.read('httpx/_api.py')).toBe(
    'from ._auth import BasicAuthentication, BasicAuth\n\n__all__ = ["BasicAuthentication", "BasicAuth"]\n',
  );
  expect(await ws.read('httpx/__init__.py')).toBe(
    'from ._auth import *\n\n__all__ = [\n    "Auth",\n    "BasicAuthentication",\n    "BasicAuth",\n]\n',
  );
  expect(result.output).toContain(
    '(keep_alias: BasicAuth stays importable: BasicAuth = BasicAuthentication in httpx/_auth.py;',
  );
});

test('a rename whose check the language service does not finish in time lands with a note naming the files to check, not the abort', async () => {
  await ws.write('pkg/a.py', 'def f():\n    return 1\n');
  await ws.write('pkg/b.py', 'from .a import f\n\nf()\n');
  // A cold server on a busy machine: its diagnostics time out.
  const slow: LanguageService = {
    id: 'pyright',
    references: async () => [],
    rename: async () => [
      { path: 'pkg/a.py', before: 'def f():\n    return 1\n', after: 'def g():\n    return 1\n', count: 1 },
      { path: 'pkg/b.py', before: 'from .a import f\n\nf()\n', after: 'from .a import g\n\ng()\n', count: 2 },
    ],
    diagnostics: async () => {
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    },
    changed: () => {},
    close: async () => {},
  };
  const factory = { id: 'pyright', handles: (p: string) => p.endsWith('.py'), start: async () => slow };
  const ctx = { ...ws.ctx, languages: new LanguageServices(ws.root, [factory]) };
  const result = await renameSymbolTool.execute(
    renameSymbolTool.schema.parse({ name: 'f', new_name: 'g', path: 'pkg/a.py', line: 1 }),
    ctx,
  );
  expect(result.success, result.error).toBe(true);
  expect(result.output).toContain(
    "(not checked for new errors: pyright did not answer within 20 s; get_diagnostics with the renamed files' paths checks them: pkg/a.py, pkg/b.py)",
  );
  expect(result.output).not.toContain('aborted');
});
