// keep_alias for Python, as a table of texts after a rename (httpx's BasicAuth → BasicAuthentication as pyright
// leaves them, with `__all__` renamed; as a rename by name leaves them, with `__all__` as it was; requests' package
// importing Session): the old name stays importable, and each `__all__` lists both names.
import { describe, expect, test } from 'vitest';
import { keepPythonAlias } from '../../src/code/python-alias.js';

const AUTH = [
  '__all__ = ["Auth", "BasicAuthentication", "DigestAuth"]',
  '',
  '',
  'class BasicAuthentication(Auth):',
  '    def auth_flow(self, request):',
  '        yield request',
  '',
  '',
  'class DigestAuth(Auth):',
  '    pass',
  '',
].join('\n');

describe('keepPythonAlias', () => {
  const cases: [string, string, string, boolean, string | undefined][] = [
    [
      "the defining module binds the old name after the class and lists both in __all__ (pyright's rename)",
      'httpx/_auth.py',
      AUTH,
      true,
      AUTH.replace('"BasicAuthentication", ', '"BasicAuthentication", "BasicAuth", ').replace(
        '        yield request\n',
        '        yield request\n\n\nBasicAuth = BasicAuthentication\n',
      ),
    ],
    [
      "a package's __all__ of one name a line gets the old name on a line of its own",
      'httpx/__init__.py',
      'from ._auth import *\n\n__all__ = [\n    "Auth",\n    "BasicAuthentication",\n    "DigestAuth",\n]\n',
      false,
      'from ._auth import *\n\n__all__ = [\n    "Auth",\n    "BasicAuthentication",\n    "BasicAuth",\n    "DigestAuth",\n]\n',
    ],
    [
      'an __all__ a rename by name left with the old name lists the new one too',
      'httpx/_auth.py',
      "__all__ = ('Auth', 'BasicAuth')\n\n\ndef BasicAuthentication():\n    pass\n",
      true,
      "__all__ = ('Auth', 'BasicAuth', 'BasicAuthentication')\n\n\ndef BasicAuthentication():\n    pass\n\n\nBasicAuth = BasicAuthentication\n",
    ],
    [
      'the last entry without a trailing comma gets one before the new line',
      'pkg/__init__.py',
      '__all__ = [\n    "Auth",\n    "BasicAuthentication"\n]\n',
      false,
      '__all__ = [\n    "Auth",\n    "BasicAuthentication",\n    "BasicAuth"\n]\n',
    ],
    [
      "a package's __init__ importing the new name imports the old one beside it (requests' Session)",
      'src/requests/__init__.py',
      'from .sessions import BasicAuthentication, session\nfrom .other import thing\n',
      false,
      'from .sessions import BasicAuthentication, BasicAuth, session\nfrom .other import thing\n',
    ],
    [
      'a module without __all__ that only uses the name is left alone',
      'httpx/_client.py',
      'from ._auth import BasicAuthentication\n\nx = BasicAuthentication()\n',
      false,
      undefined,
    ],
    [
      'a method: the old name bound in the class, after it',
      'pkg/client.py',
      'class Client:\n    @property\n    def BasicAuthentication(self):\n        return 1\n\n    def other(self):\n        pass\n',
      true,
      'class Client:\n    @property\n    def BasicAuthentication(self):\n        return 1\n\n    BasicAuth = BasicAuthentication\n\n    def other(self):\n        pass\n',
    ],
  ];
  test.each(cases)('%s', (_, path, source, defining, expected) => {
    expect(keepPythonAlias(source, path, 'BasicAuth', 'BasicAuthentication', defining)).toBe(expected);
  });

  test('an alias already there is not written twice', () => {
    const kept = keepPythonAlias(AUTH, 'httpx/_auth.py', 'BasicAuth', 'BasicAuthentication', true)!;
    expect(keepPythonAlias(kept, 'httpx/_auth.py', 'BasicAuth', 'BasicAuthentication', true)).toBeUndefined();
  });
});

test("a module whose __all__ does not give the name imports only the new one (httpx's _client.py)", () => {
  const source = 'from ._auth import Auth, BasicAuthentication\n\n__all__ = ["Client"]\n';
  expect(
    keepPythonAlias(source, 'httpx/_client.py', 'BasicAuth', 'BasicAuthentication', false),
  ).toBeUndefined();
});
