// References by name through re-exports: a barrel's `export {…} from`, `export *`, a Python package's `__init__`
// imports and `module.Name` through them, as ky's and requests' importers reach their names; what a cold
// inspect_symbol counts while the language service loads.
import { expect, test } from 'vitest';
import { findReferencesTool } from '../../src/tools/find-references.js';
import { inspectSymbolTool } from '../../src/tools/inspect-symbol.js';
import { renameSymbolTool } from '../../src/tools/rename-symbol.js';
import { useToolWorkspace } from '../tools/helpers.js';

const ws = useToolWorkspace();
const { run } = ws;

/** A context whose language service never answers within the budget: a cold service still loading the project. */
const loadingCtx = () => {
  const loading = {
    references: (_at: unknown, signal: AbortSignal) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
  };
  const languages = { forFile: async () => loading } as never;
  return { ...ws.ctx, languages, limits: { ...ws.ctx.limits, diagnosticsMs: 50 } };
};

/** ky's shape: the function in utils/, re-exported by the barrel (named) and a nested barrel (`export *`). */
async function writeKy() {
  await ws.write(
    'source/utils/type-guards.ts',
    'export function isHTTPError(error: unknown): boolean {\n\treturn Boolean(error);\n}\n\nexport const isKyError = (error: unknown) => isHTTPError(error);\n',
  );
  await ws.write('source/utils/index.ts', "export * from './type-guards.js';\n");
  await ws.write(
    'source/index.ts',
    "export {isHTTPError} from './utils/type-guards.js';\nexport const ky = 1;\n",
  );
  await ws.write(
    'source/core/Ky.ts',
    "import {isHTTPError} from '../utils/type-guards.js';\nisHTTPError(1);\n",
  );
  await ws.write(
    'test/hooks.ts',
    "import ky, {isHTTPError} from '../source/index.js';\nisHTTPError(1);\nisHTTPError(2);\n",
  );
  await ws.write(
    'test/retry.ts',
    "import * as utils from '../source/utils/index.js';\nutils.isHTTPError(3);\n",
  );
  // Its own isHTTPError: not an importer of ours.
  await ws.write('other/own.ts', 'function isHTTPError() {}\nisHTTPError();\n');
}

test("inspect_symbol's count by name follows barrels (`export {…} from`, `export *`, a namespace import): ky's isHTTPError", async () => {
  await writeKy();
  const args = { name: 'isHTTPError', path: 'source/utils/type-guards.ts' };
  const result = await inspectSymbolTool.execute(args, loadingCtx());
  // Ky.ts (2: import, call), type-guards.ts (1), index.ts (1), hooks.ts (3), retry.ts (1).
  expect(result.output).toContain(
    'references: 8 in 5 files, by name (the language service was still loading',
  );
});

test('find_references by name with path lists the importers through barrels, never a file with its own of the name', async () => {
  await writeKy();
  const result = await run(findReferencesTool, { name: 'isHTTPError', path: 'source/utils/type-guards.ts' });
  expect(result.output).toContain('test/hooks.ts:3:1: ');
  expect(result.output).toContain('test/retry.ts:2:7: ');
  expect(result.output).not.toContain('other/own.ts');
});

/** requests' shape: Session in sessions.py, imported by the package's __init__, used as requests.Session. */
async function writeRequests() {
  await ws.write(
    'src/requests/sessions.py',
    'class Session:\n    auth = None\n\n\ndef session():\n    return Session()\n',
  );
  await ws.write('src/requests/__init__.py', 'from .sessions import Session, session\n');
  await ws.write(
    'src/requests/api.py',
    'from . import sessions\n\n\ndef get():\n    with sessions.Session() as s:\n        return s\n',
  );
  await ws.write(
    'tests/test_requests.py',
    'import requests\n\n\ndef test_session():\n    s = requests.Session()\n    t = requests.Session()\n    return s, t\n',
  );
}

test("inspect_symbol's count by name follows a Python package's __init__ and `module.Name` (requests.Session)", async () => {
  await writeRequests();
  const result = await inspectSymbolTool.execute({ name: 'Session' }, loadingCtx());
  // sessions.py (1), __init__.py (1), api.py (1), test_requests.py (2).
  expect(result.output).toContain('references: 5 in 4 files, by name');
});

test('rename_symbol by name renames `requests.Session` through the package, and `sessions.Session` through `from . import sessions`', async () => {
  await writeRequests();
  const result = await run(renameSymbolTool, {
    name: 'Session',
    new_name: 'Client',
    path: 'src/requests/sessions.py',
  });
  expect(result.success).toBe(true);
  expect(await ws.read('src/requests/__init__.py')).toBe('from .sessions import Client, session\n');
  expect(await ws.read('src/requests/api.py')).toContain('sessions.Client()');
  expect(await ws.read('tests/test_requests.py')).toContain(
    's = requests.Client()\n    t = requests.Client()',
  );
});

/** requests' auth: a module auth.py, Session's field auth, a local auth and keyword arguments `auth=`. */
async function writeAuth() {
  await ws.write(
    'src/requests/auth.py',
    'def _basic_auth_str(u, p):\n    return u\n\n\nclass AuthBase:\n    pass\n',
  );
  await ws.write(
    'src/requests/sessions.py',
    'from .auth import _basic_auth_str\n\n\nclass Session:\n    auth: object\n\n    def __init__(self):\n        self.auth = None\n\n    def prepare(self, request):\n        auth = request.auth\n        if not auth and not self.auth:\n            auth = _basic_auth_str("u", "p")\n        return merge(auth=auth)\n',
  );
  await ws.write('src/requests/__init__.py', 'from . import auth\nfrom .sessions import Session\n');
  await ws.write(
    'tests/test_requests.py',
    'import requests\nfrom requests.auth import AuthBase\n\n\nclass DummyAuth(requests.auth.AuthBase):\n    pass\n\n\ndef test_auth():\n    s = requests.Session()\n    s.auth = DummyAuth()\n    requests.get("u", auth=("user", "pass"))\n',
  );
}

test("rename_symbol by name of a Python field: never a module's path in an import, a module's attribute, a keyword argument or a function's local (requests' Session.auth)", async () => {
  await writeAuth();
  const result = await run(renameSymbolTool, {
    name: 'Session.auth',
    new_name: 'credentials',
    path: 'src/requests/sessions.py',
  });
  expect(result.success).toBe(true);
  const sessions = await ws.read('src/requests/sessions.py');
  expect(sessions).toContain('from .auth import _basic_auth_str');
  expect(sessions).toContain('    credentials: object\n');
  expect(sessions).toContain('self.credentials = None');
  expect(sessions).toContain('if not auth and not self.credentials:');
  expect(sessions).toContain('return merge(auth=auth)');
  const tests = await ws.read('tests/test_requests.py');
  expect(tests).toContain('from requests.auth import AuthBase');
  expect(tests).toContain('class DummyAuth(requests.auth.AuthBase):');
  expect(tests).toContain('s.credentials = DummyAuth()');
  expect(tests).toContain('requests.get("u", auth=("user", "pass"))');
  expect(await ws.read('src/requests/__init__.py')).toBe(
    'from . import auth\nfrom .sessions import Session\n',
  );
});

test('rename_symbol by name of a Python function named like a module: the module in imports and `pkg.module` stay', async () => {
  await ws.write('pkg/auth.py', 'def helper():\n    return 1\n');
  await ws.write('pkg/tools.py', 'def auth(x):\n    return x\n');
  await ws.write(
    'pkg/main.py',
    'from . import auth as auth_module\nfrom .tools import auth\nfrom .auth import helper\nimport pkg.auth\n\n\ndef run():\n    return auth(helper()) + pkg.auth.helper() + send(auth=1)\n',
  );
  const result = await run(renameSymbolTool, { name: 'auth', new_name: 'authorize', path: 'pkg/tools.py' });
  expect(result.success).toBe(true);
  expect(await ws.read('pkg/main.py')).toBe(
    'from . import auth as auth_module\nfrom .tools import authorize\nfrom .auth import helper\nimport pkg.auth\n\n\ndef run():\n    return authorize(helper()) + pkg.auth.helper() + send(auth=1)\n',
  );
});

test("rename_symbol by name of a Python method never renames a module's function of that name (requests' api.get beside Session.get)", async () => {
  await ws.write(
    'src/requests/sessions.py',
    'class Session:\n    def get(self, url):\n        return url\n\n\ndef session():\n    return Session()\n',
  );
  const api =
    'from . import sessions\n\n\ndef get(url):\n    with sessions.Session() as s:\n        return s.get(url)\n';
  await ws.write('src/requests/api.py', api);
  const result = await run(renameSymbolTool, {
    name: 'get',
    new_name: 'fetch',
    path: 'src/requests/sessions.py',
    line: 2,
  });
  expect(result.success).toBe(true);
  expect(await ws.read('src/requests/api.py')).toBe(api.replace('s.get(url)', 's.fetch(url)'));
});

test("rename_symbol by name renames a Python name's `__all__` entries, so `from m import *` still gives it (httpx's BasicAuth through __init__.py)", async () => {
  await ws.write(
    'httpx/_auth.py',
    '__all__ = ["Auth", "BasicAuth"]\n\n\nclass Auth:\n    pass\n\n\nclass BasicAuth(Auth):\n    pass\n',
  );
  await ws.write(
    'httpx/__init__.py',
    'from ._auth import *\n\n__all__ = [\n    "Auth",\n    "BasicAuth",\n]\n',
  );
  await ws.write('tests/test_auth.py', 'import httpx\n\n\ndef test_basic():\n    return httpx.BasicAuth()\n');
  const result = await run(renameSymbolTool, {
    name: 'BasicAuth',
    new_name: 'Basic',
    path: 'httpx/_auth.py',
  });
  expect(result.success).toBe(true);
  expect(await ws.read('httpx/_auth.py')).toContain('__all__ = ["Auth", "Basic"]\n');
  expect(await ws.read('httpx/__init__.py')).toBe(
    'from ._auth import *\n\n__all__ = [\n    "Auth",\n    "Basic",\n]\n',
  );
  expect(await ws.read('tests/test_auth.py')).toContain('return httpx.Basic()');
});
