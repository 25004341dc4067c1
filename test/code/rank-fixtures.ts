// Two small projects in the shapes of real libraries whose core the map used to miss: a TypeScript HTTP client
// (a main class behind an index.ts barrel, built to distribution/) and a Python HTTP library (a package under src/
// whose __init__ re-exports api, sessions and models), each with helpers everything uses and tests using everything.

const tsTest = (name: string) =>
  `import client from '../source/index.js';\nimport {createServer, withServer} from './helpers/server.js';\n\nexport async function ${name}() {\n  const server = await createServer();\n  await withServer(server, () => client.get(server.url));\n  await withServer(server, () => client.post(server.url));\n}\n`;

export const tsLibrary: Record<string, string> = {
  'package.json': JSON.stringify({
    name: 'fetchy',
    type: 'module',
    exports: { types: './distribution/index.d.ts', default: './distribution/index.js' },
    main: './distribution/index.js',
  }),
  'source/index.ts': [
    "import {Client} from './core/Client.js';",
    "import {requestMethods} from './core/constants.js';",
    "import type {Options} from './types/options.js';",
    "import {mergeOptions} from './utils/merge.js';",
    '',
    'const createInstance = (defaults?: Options) => {',
    '  const client = (input: string, options?: Options) => Client.create(input, mergeOptions(defaults, options));',
    '  for (const method of requestMethods) client[method] = (input: string) => Client.create(input, {method});',
    '  return client;',
    '};',
    'const client = createInstance();',
    'export default client;',
    "export type {Options, Hooks} from './types/options.js';",
    "export {HTTPError} from './errors/HTTPError.js';",
    "export {TimeoutError} from './errors/TimeoutError.js';",
    '',
  ].join('\n'),
  'source/core/Client.ts': [
    "import {HTTPError} from '../errors/HTTPError.js';",
    "import {TimeoutError} from '../errors/TimeoutError.js';",
    "import type {Options} from '../types/options.js';",
    "import {delay} from '../utils/delay.js';",
    "import {isObject} from '../utils/is.js';",
    "import {mergeOptions} from '../utils/merge.js';",
    "import {normalizeMethod} from '../utils/normalize.js';",
    "import {maxTimeout, stop} from './constants.js';",
    '',
    'export class Client {',
    '  static create(input: string, options: Options) {',
    '    return new Client(input, options).fetch();',
    '  }',
    '  request: Request;',
    '  constructor(input: string, options: Options) {',
    '    this.request = new Request(input, {method: normalizeMethod(options.method)});',
    '  }',
    '  async fetch() {',
    '    const response = await fetch(this.request);',
    '    if (!response.ok) throw new HTTPError(response);',
    '    return response;',
    '  }',
    '  async retry() {',
    '    await delay(maxTimeout);',
    '    if (isObject(stop)) throw new TimeoutError(this.request);',
    '    return mergeOptions({}, {});',
    '  }',
    '}',
    '',
  ].join('\n'),
  'source/core/constants.ts':
    "export const requestMethods = ['get', 'post'] as const;\nexport const stop = Symbol('stop');\nexport const maxTimeout = 2_147_483_647;\n",
  'source/types/options.ts':
    'export type Hooks = {beforeRequest: Array<() => void>};\nexport type Options = {method?: string; hooks?: Hooks};\n',
  'source/utils/merge.ts':
    "import type {Options} from '../types/options.js';\nimport {isObject} from './is.js';\n\nexport const mergeOptions = (...sources: Array<Options | undefined>): Options => {\n  const result: Options = {};\n  for (const source of sources) if (isObject(source)) Object.assign(result, source);\n  return result;\n};\n",
  'source/utils/is.ts':
    "export const isObject = (value: unknown): value is object => typeof value === 'object';\n",
  'source/utils/delay.ts':
    'export async function delay(ms: number) {\n  await new Promise((resolve) => setTimeout(resolve, ms));\n}\n',
  'source/utils/normalize.ts': 'export const normalizeMethod = (method = "get") => method.toUpperCase();\n',
  'source/errors/HTTPError.ts':
    'export class HTTPError extends Error {\n  constructor(public response: Response) {\n    super(String(response.status));\n  }\n}\n',
  'source/errors/TimeoutError.ts':
    'export class TimeoutError extends Error {\n  constructor(public request: Request) {\n    super(request.url);\n  }\n}\n',
  'test/helpers/server.ts':
    'export type TestServer = {url: string; close(): Promise<void>};\nexport async function createServer(): Promise<TestServer> {\n  return {url: "http://localhost", close: async () => {}};\n}\nexport async function withServer(server: TestServer, run: () => unknown) {\n  await run();\n  await server.close();\n}\n',
  'test/main.ts': tsTest('testMain'),
  'test/retry.ts': tsTest('testRetry'),
  'test/hooks.ts': tsTest('testHooks'),
  'test/methods.ts': tsTest('testMethods'),
};

const pyTest = (name: string) =>
  `from shop.utils import merge_setting, to_key, guess_type\nfrom shop.compat import urlparse\n\n\ndef test_${name}():\n    assert merge_setting(1, 2)\n    assert to_key("a") and guess_type("b") and urlparse("c")\n`;

export const pyLibrary: Record<string, string> = {
  'pyproject.toml':
    '[project]\nname = "shop"\ndependencies = ["urllib3>=1.26"]\n\n[tool.setuptools.packages.find]\nwhere = ["src"]\n',
  'src/shop/__init__.py':
    'from .api import get, post, request\nfrom .exceptions import ShopError\nfrom .models import PreparedRequest, Request, Response\nfrom .sessions import Session, session\n\n\ndef check_compatibility(version):\n    return version\n',
  'src/shop/api.py':
    'from . import sessions\n\n\ndef request(method, url, **kwargs):\n    with sessions.Session() as session:\n        return session.request(method=method, url=url, **kwargs)\n\n\ndef get(url, **kwargs):\n    return request("get", url, **kwargs)\n\n\ndef post(url, data=None, **kwargs):\n    return request("post", url, data=data, **kwargs)\n',
  'src/shop/sessions.py': [
    'from .adapters import HTTPAdapter',
    'from .compat import urlparse',
    'from .hooks import dispatch_hook',
    'from .models import PreparedRequest, Request, Response',
    'from .utils import merge_setting, to_key',
    '',
    '',
    'class Session:',
    '    def __init__(self):',
    '        self.adapters = {"http": HTTPAdapter()}',
    '',
    '    def request(self, method, url, **kwargs):',
    '        req = Request(method=method, url=url)',
    '        return self.send(self.prepare_request(req))',
    '',
    '    def prepare_request(self, request):',
    '        prepared = PreparedRequest()',
    '        prepared.prepare(method=request.method, url=urlparse(request.url))',
    '        return prepared',
    '',
    '    def send(self, prepared):',
    '        response = self.adapters[to_key(prepared.url)].send(prepared)',
    '        return dispatch_hook("response", merge_setting(None, None), response)',
    '',
    '    def get(self, url):',
    '        return self.request("GET", url)',
    '',
    '    def close(self):',
    '        return Response()',
    '',
    '',
    'def session():',
    '    return Session()',
    '',
  ].join('\n'),
  'src/shop/models.py': [
    'from .compat import urlparse',
    'from .utils import guess_type, to_key',
    '',
    '',
    'class Request:',
    '    def __init__(self, method=None, url=None):',
    '        self.method = method',
    '        self.url = url',
    '',
    '',
    'class PreparedRequest:',
    '    def prepare(self, method=None, url=None):',
    '        self.method = to_key(method)',
    '        self.url = urlparse(url)',
    '        self.kind = guess_type(url)',
    '',
    '',
    'class Response:',
    '    def json(self):',
    '        return {}',
    '',
  ].join('\n'),
  'src/shop/adapters.py':
    'from .models import Response\n\n\nclass HTTPAdapter:\n    def send(self, request):\n        return Response()\n',
  'src/shop/utils.py':
    'from .compat import urlparse\n\n\ndef merge_setting(request_setting, session_setting):\n    return request_setting or session_setting\n\n\ndef to_key(value):\n    return str(urlparse(value))\n\n\ndef guess_type(value):\n    return type(value)\n',
  'src/shop/compat.py': 'from urllib.parse import urlparse\n\nbuiltin_str = str\n',
  'src/shop/hooks.py': 'def dispatch_hook(key, hooks, data):\n    return data\n',
  'src/shop/exceptions.py': 'class ShopError(IOError):\n    pass\n',
  'tests/conftest.py': 'import pytest\n\n\n@pytest.fixture\ndef httpbin():\n    return "http://localhost"\n',
  'tests/test_utils.py': pyTest('utils'),
  'tests/test_sessions.py': pyTest('sessions'),
  'tests/test_models.py': pyTest('models'),
};
