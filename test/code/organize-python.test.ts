// Python import organising: isort's and ruff's default layout, on module texts with the shapes real code has.
import { describe, expect, test } from 'vitest';
import { languageOf } from '../../src/code/languages.js';
import { organizePythonImports, type PythonImportStyle } from '../../src/code/organize-python.js';

const python = languageOf('a.py')!;
const organize = (
  source: string,
  options: { init?: boolean; lineLength?: number; style?: Partial<PythonImportStyle> } = {},
) =>
  organizePythonImports(python, source, {
    firstParty: new Set(['shop']),
    isPackageInit: options.init === true,
    lineLength: options.lineLength ?? 88,
    ...(options.style ? { style: options.style } : {}),
  });

describe('organizePythonImports', () => {
  test('sections apart, import before from, modules and names sorted, the same module merged, unused names dropped', () => {
    const source = [
      '"""The cart."""',
      'from shop.models import Item',
      'import requests',
      'from .prices import total, Discount',
      'import sys, os',
      'from __future__ import annotations',
      'from typing import Optional',
      'from shop.models import Cart, Item',
      'from ..base import Base',
      'import json',
      '',
      '',
      'def load(path: str) -> Optional[Cart]:',
      '    data = json.loads(os.path.join(path))',
      '    return Cart(Item(data), total(data), Discount.NONE, Base)',
      '',
    ].join('\n');
    expect(organize(source)).toBe(
      [
        '"""The cart."""',
        'from __future__ import annotations',
        '',
        'import json',
        'import os',
        'from typing import Optional',
        '',
        'from shop.models import Cart, Item',
        '',
        'from ..base import Base',
        'from .prices import Discount, total',
        '',
        '',
        'def load(path: str) -> Optional[Cart]:',
        '    data = json.loads(os.path.join(path))',
        '    return Cart(Item(data), total(data), Discount.NONE, Base)',
        '',
      ].join('\n'),
    );
  });

  test('a name the rest of the file mentions anywhere is kept: a string annotation, __all__, a type comment', () => {
    const source = [
      'from typing import TYPE_CHECKING, List',
      'from shop.console import Console',
      'from shop.cells import cell_len',
      'import re',
      '',
      '__all__ = ["cell_len"]',
      '',
      'def width(console: "Console") -> int:',
      '    sizes = []  # type: List[int]',
      '    return 1',
      '',
    ].join('\n');
    expect(organize(source).split('\n').slice(0, 4)).toEqual([
      'from typing import List',
      '',
      'from shop.cells import cell_len',
      'from shop.console import Console',
    ]);
  });

  test('CONSTANTS, then Classes, then functions; a long line wrapped, one name a line', () => {
    const source =
      'from shop.cells import set_cell_size, CELL_WIDTHS, Segment, cell_len\n\nx = (set_cell_size, CELL_WIDTHS, Segment, cell_len)\n';
    expect(organize(source)).toBe(
      'from shop.cells import CELL_WIDTHS, Segment, cell_len, set_cell_size\n\nx = (set_cell_size, CELL_WIDTHS, Segment, cell_len)\n',
    );
    expect(organize(source, { lineLength: 40 })).toBe(
      'from shop.cells import (\n    CELL_WIDTHS,\n    Segment,\n    cell_len,\n    set_cell_size,\n)\n\nx = (set_cell_size, CELL_WIDTHS, Segment, cell_len)\n',
    );
  });

  test('a statement with a comment is moved whole; imports after the first code stay where they are', () => {
    const source = [
      'import sys',
      '# the HTTP client',
      'import requests  # noqa: F401',
      'import abc',
      '',
      'try:',
      '    import ujson as json',
      'except ImportError:',
      '    import json',
      '',
      'print(sys.argv, abc, json)',
      '',
    ].join('\n');
    expect(organize(source)).toBe(
      [
        'import abc',
        'import sys',
        '',
        '# the HTTP client',
        'import requests  # noqa: F401',
        '',
        'try:',
        '    import ujson as json',
        'except ImportError:',
        '    import json',
        '',
        'print(sys.argv, abc, json)',
        '',
      ].join('\n'),
    );
  });

  test("an __init__.py's imports are its exports: sorted, none dropped; `import x as x` re-exports too", () => {
    expect(organize('from .text import Text\nfrom .console import Console\n', { init: true })).toBe(
      'from .console import Console\nfrom .text import Text\n',
    );
    expect(organize('from .text import Text as Text\nimport os\n')).toBe('from .text import Text as Text\n');
    // rich's: the last import's `# noqa` stays on its line.
    expect(organize('import os\n\nfrom ._ext import load  # noqa: F401\n\nx = os\n')).toBe(
      'import os\n\nfrom ._ext import load  # noqa: F401\n\nx = os\n',
    );
  });

  test("the project's isort settings: click's force-single-line without order-by-type, httpx's combine-as-imports, FastAPI's known-third-party", () => {
    const source =
      'from collections import Counter, abc\nfrom gettext import ngettext, gettext as _\n\nx = (Counter, abc, _, ngettext)\n';
    // The defaults: by type, and an `as` import on a line of its own.
    expect(organize(source)).toBe(
      'from collections import Counter, abc\nfrom gettext import gettext as _\nfrom gettext import ngettext\n\nx = (Counter, abc, _, ngettext)\n',
    );
    expect(organize(source, { style: { forceSingleLine: true, orderByType: false } })).toBe(
      'from collections import abc\nfrom collections import Counter\nfrom gettext import gettext as _\nfrom gettext import ngettext\n\nx = (Counter, abc, _, ngettext)\n',
    );
    expect(organize(source, { style: { combineAs: true } })).toBe(
      'from collections import Counter, abc\nfrom gettext import gettext as _, ngettext\n\nx = (Counter, abc, _, ngettext)\n',
    );
    expect(
      organize('import shop\nimport os\n\nprint(shop, os)\n', { style: { knownThirdParty: ['shop'] } }),
    ).toBe('import os\n\nimport shop\n\nprint(shop, os)\n');
    expect(
      organize('from typing import Any\nimport sys\n\nprint(Any, sys)\n', {
        style: { linesBetweenTypes: 1 },
      }),
    ).toBe('import sys\n\nfrom typing import Any\n\nprint(Any, sys)\n');
  });

  test("a parenthesised import ending in a comma stays one name a line (black's magic comma), unless told not to", () => {
    const source = 'from ._utils import (\n    to_bytes,\n    peek,\n)\n\nx = (to_bytes, peek)\n';
    expect(organize(source)).toBe(
      'from ._utils import (\n    peek,\n    to_bytes,\n)\n\nx = (to_bytes, peek)\n',
    );
    expect(organize(source, { style: { splitOnTrailingComma: false } })).toBe(
      'from ._utils import peek, to_bytes\n\nx = (to_bytes, peek)\n',
    );
  });

  test('a comment after a blank line keeps the blank line where it stays inside a section', () => {
    const source =
      'from starlette.requests import Request\n\n# TODO: from typing, later\nfrom typing_extensions import Doc\n\nx = (Request, Doc)\n';
    expect(organize(source)).toBe(source);
  });

  test('a file with CRLF line ends keeps them', () => {
    expect(organize('import sys\r\nimport os\r\n\r\nprint(os, sys)\r\n')).toBe(
      'import os\r\nimport sys\r\n\r\nprint(os, sys)\r\n',
    );
  });

  test('a file without imports, or already organised, is returned as it is', () => {
    expect(organize('x = 1\n')).toBe('x = 1\n');
    const tidy = 'import os\n\nfrom shop import cart\n\nprint(os, cart)\n';
    expect(organize(tidy)).toBe(tidy);
  });
});
