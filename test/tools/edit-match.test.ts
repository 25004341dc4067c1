// edit_file's matching as a table of cases taken from the peers' own edit tests (Aider's editblock tests, Gemini
// CLI's edit.test.ts, editCorrector and omission-placeholder tests, Codex's apply_patch and seek_sequence tests,
// OpenCode's edit.test.ts), adapted to old_string/new_string; results asserted exactly, Python results parsed.
import { describe, expect, test } from 'vitest';
import { LANGUAGES } from '../../src/code/languages.js';
import { pythonIndentProblems } from '../../src/code/python-indent.js';
import { syntaxProblems } from '../../src/code/syntax-problems.js';
import { syntaxCheckFor } from '../../src/tools/edit-check.js';
import { applyEdits, type Edit } from '../../src/tools/edit-match.js';
import { isPlaceholderLine } from '../../src/tools/edit-placeholders.js';
import { unescapeOnce } from '../../src/tools/edit-tolerance.js';

interface Case {
  name: string;
  /** The peer test it comes from. */
  from: string;
  /** The file's extension: code files get the syntax check, as through the tool. */
  ext?: string;
  file: string;
  edits: Edit[];
  /** The file afterwards, exactly; or what the refusal says. */
  expected?: string;
  refused?: string;
  /** What the result must say it tolerated. */
  note?: string;
}

const one = (old_string: string, new_string: string, replace_all?: boolean): Edit[] => [
  { old_string, new_string, replace_all },
];

const PY_CLASS = 'class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        pass\n';

const CASES: Case[] = [
  // Aider: tests/basic/test_editblock.py (replace_most_similar_chunk)
  {
    name: 'missing varied leading whitespace: shifted to the file, relative indentation kept',
    from: 'aider test_replace_part_with_missing_varied_leading_whitespace',
    file: '\n    line1\n    line2\n        line3\n    line4\n',
    edits: one('line2\n    line3\n', 'new_line2\n    new_line3\n'),
    expected: '\n    line1\n    new_line2\n        new_line3\n    line4\n',
    note: 're-indented by +4 columns',
  },
  {
    name: 'missing leading whitespace on every line',
    from: 'aider test_replace_part_with_missing_leading_whitespace',
    file: '    line1\n    line2\n    line3\n',
    edits: one('line1\nline2\n', 'new_line1\nnew_line2\n'),
    expected: '    new_line1\n    new_line2\n    line3\n',
  },
  {
    name: 'just some leading whitespace missing: shifted by the difference',
    from: 'aider test_replace_part_with_just_some_missing_leading_whitespace',
    file: '    line1\n    line2\n    line3\n',
    edits: one(' line1\n line2\n', ' new_line1\n     new_line2\n'),
    expected: '    new_line1\n        new_line2\n    line3\n',
  },
  {
    name: 'a blank first line in old_string with less indentation',
    from: 'aider test_replace_part_with_missing_leading_whitespace_including_blank_line',
    file: '    line1\n    line2\n    line3\n',
    edits: one('\n  line1\n  line2\n', '  new_line1\n  new_line2\n'),
    expected: '    new_line1\n    new_line2\n    line3\n',
  },
  {
    name: 'several exact matches are refused, each one named (Aider replaces the first)',
    from: 'aider test_replace_multiple_matches',
    file: 'line1\nline2\nline1\nline3\n',
    edits: one('line1\n', 'new_line\n'),
    refused: 'old_string matches 2 times:\n  line 1: line1\n  line 3: line1\n',
  },
  {
    name: 'several matches ignoring indentation are refused too (Aider replaces the first)',
    from: 'aider test_replace_multiple_matches_missing_whitespace',
    file: '    line1\n    line2\n    line1\n    line3\n',
    edits: one('line1\n', 'new_line\n'),
    refused: 'old_string matches 2 times',
  },
  // Gemini CLI: packages/core/src/tools/edit.test.ts (calculateReplacement)
  {
    name: 'an exact replacement inside a line',
    from: 'gemini-cli calculateReplacement: perform an exact replacement',
    file: 'hello world',
    edits: one('world', 'moon'),
    expected: 'hello moon',
  },
  {
    name: 'a whitespace-insensitive multi-line match takes the first line’s indentation',
    from: 'gemini-cli calculateReplacement: flexible, whitespace-insensitive replacement',
    file: '  hello\n    world\n',
    edits: one('hello\nworld', 'goodbye\nmoon'),
    expected: '  goodbye\n  moon\n',
  },
  {
    name: 'no match is refused with the nearest region',
    from: 'gemini-cli calculateReplacement: return 0 occurrences if no match is found',
    file: 'hello world',
    edits: one('nomatch', 'moon'),
    refused: 'old_string not found',
  },
  {
    name: 'whitespace inside a line, next to punctuation, differs',
    from: 'gemini-cli regex-based replacement for flexible intra-line whitespace',
    ext: 'js',
    file: '  function  myFunc( a, b ) {\n    return a + b;\n  }',
    edits: one('function myFunc(a, b) {', 'const yourFunc = (a, b) => {'),
    expected: '  const yourFunc = (a, b) => {\n    return a + b;\n  }',
    note: 'ignoring indentation and whitespace',
  },
  {
    name: 'a fuzzy middle (a missing comma) stays refused',
    from: 'gemini-cli fuzzy replacement when similarity is high',
    ext: 'ts',
    file: 'const myConfig = {\n  enableFeature: true,\n  retries: 3\n};',
    edits: one(
      'const myConfig = {\n  enableFeature: true\n  retries: 3\n};',
      'const myConfig = {\n  enableFeature: false,\n  retries: 5\n};',
    ),
    refused: 'old_string not found.\nNearest region (lines 1-4',
  },
  {
    name: 'a dissimilar old_string is refused',
    from: 'gemini-cli should NOT perform a fuzzy replacement when similarity is below threshold',
    ext: 'ts',
    file: 'const myConfig = {\n  enableFeature: true,\n  retries: 3\n};',
    edits: one('function somethingElse() {\n  return false;\n}', 'x'),
    refused: 'old_string not found',
  },
  {
    name: 'quotes of another kind (\' for ") are a real difference and stay refused',
    from: 'gemini-cli multiple fuzzy replacements (quote difference)',
    ext: 'ts',
    file: '\nfunction doIt() {\n  console.log("hello");\n}\n\nfunction doIt() {\n  console.log("hello");\n}\n',
    edits: one(
      "function doIt() {\n  console.log('hello');\n}",
      'function doIt() {\n  console.log("bye");\n}',
      true,
    ),
    refused: 'old_string not found',
  },
  {
    name: 'trailing newlines are kept in a whitespace-tolerant replacement',
    from: 'gemini-cli preserve trailing newlines in flexible replacement',
    file: '  line1\n  line2\n  line3\n',
    edits: one('line1\nline2', 'line1-replaced\nline2-replaced'),
    expected: '  line1-replaced\n  line2-replaced\n  line3\n',
  },
  {
    name: 'replace_all re-bases every whitespace-tolerant match',
    from: 'gemini-cli flexible replacement when allow_multiple is true',
    file: '  match1\n  match2\n  match1\n  match2\n',
    edits: one('match1\nmatch2', 'replaced1\nreplaced2\nreplaced3', true),
    expected: '  replaced1\n  replaced2\n  replaced3\n  replaced1\n  replaced2\n  replaced3\n',
  },
  {
    name: 'several whitespace-tolerant matches without replace_all are refused with the candidates',
    from: 'gemini-cli flexible replacement when allow_multiple is true (without it)',
    file: '  match1\n  match2\n  match1\n  match2\n',
    edits: one('match1\nmatch2', 'replaced1'),
    refused:
      'old_string matches 2 times ignoring whitespace or punctuation:\n  lines 1-2: match1\n  lines 3-4: match1',
  },
  {
    name: 'unindented old and new strings are re-based once, not twice',
    from: 'gemini-cli rebase indentation in flexible replacement without double-indenting',
    ext: 'ts',
    file: '    if (a) {\n        foo();\n    }\n',
    edits: one('if (a) {\n    foo();\n}', 'if (a) {\n    bar();\n}'),
    expected: '    if (a) {\n        bar();\n    }\n',
  },
  {
    name: 'a fuzzy middle is refused even when the indentation would re-base',
    from: 'gemini-cli rebase indentation in fuzzy replacement without double-indenting',
    ext: 'ts',
    file: '    const myConfig = {\n      enableFeature: true,\n      retries: 3\n    };',
    edits: one(
      'const myConfig = {\n  enableFeature: true\n  retries: 3\n};',
      'const myConfig = {\n  enableFeature: false,\n  retries: 5\n};',
    ),
    refused: 'old_string not found',
  },
  {
    name: 'a block after a blank line gets no extra line breaks',
    from: 'gemini-cli NOT insert extra newlines when replacing a block preceded by a blank line',
    ext: 'js',
    file: '\n  function oldFunc() {\n    // some code\n  }',
    edits: one('function  oldFunc() {\n    // some code\n  }', 'function newFunc() {\n  // new code\n}'),
    expected: '\n  function newFunc() {\n    // new code\n  }',
  },
  {
    name: 'old_string starting with a blank line, new_string already at the file’s indentation',
    from: 'gemini-cli NOT insert extra newlines in flexible replacement when old_string starts with a blank line',
    ext: 'js',
    file: '  // some comment\n\n  function oldFunc() {}',
    edits: one('\nfunction oldFunc() {}', '\n  function newFunc() {}'),
    expected: '  // some comment\n\n  function newFunc() {}',
    note: "already at the file's indentation",
  },
  // Gemini CLI: edit.test.ts validateToolParams and omissionPlaceholderDetector.test.ts
  {
    name: 'an omission placeholder replacing code is refused',
    from: 'gemini-cli reject omission placeholder in new_string',
    file: 'old content\n',
    edits: one('old content', '(rest of methods ...)'),
    refused: 'omission placeholder that old_string does not: `(rest of methods ...)`',
  },
  {
    name: 'a placeholder added beside one old_string has is refused',
    from: 'gemini-cli reject new_string with an additional placeholder',
    file: '(rest of methods ...)\n',
    edits: one('(rest of methods ...)', '(rest of methods ...)\n(unchanged code ...)'),
    refused: '`(unchanged code ...)`',
  },
  {
    name: 'placeholders old_string already has may move',
    from: 'gemini-cli allow omission placeholders when all are already present in old_string',
    file: '(rest of methods ...)\n(unchanged code ...)\n',
    edits: one('(rest of methods ...)\n(unchanged code ...)', '(unchanged code ...)\n(rest of methods ...)'),
    expected: '(unchanged code ...)\n(rest of methods ...)\n',
  },
  {
    name: 'placeholder words inside a string literal are code',
    from: 'gemini-cli allow normal code that contains placeholder text in a string literal',
    ext: 'ts',
    file: 'const msg = "old";\n',
    edits: one('const msg = "old";', 'const msg = "(rest of methods ...)";'),
    expected: 'const msg = "(rest of methods ...)";\n',
  },
  {
    name: 'a bare ... where old_string had code is refused',
    from: 'issue 19 (`...` alone on a line where old_string had code)',
    ext: 'js',
    file: 'function f() {\n  a();\n  b();\n}\n',
    edits: one('function f() {\n  a();\n  b();\n}', 'function f() {\n  a();\n  ...\n}'),
    refused: 'omission placeholder that old_string does not: `...`',
  },
  {
    name: 'a bare ... added to prose replaces nothing and is written',
    from: 'issue 19 (the same, in a text file)',
    file: 'To be continued\n',
    edits: one('To be continued\n', 'To be continued\n...\n'),
    expected: 'To be continued\n...\n',
  },
  // Gemini CLI: utils/editCorrector.ts (over-escaped strings), adapted: one level of escaping is taken off.
  {
    name: 'over-escaped quotes in old_string and new_string',
    from: 'gemini-cli editCorrector unescapeStringForGeminiBug \\"',
    ext: 'py',
    file: 'def greet():\n    print("hi")\n',
    edits: one('print(\\"hi\\")', 'print(\\"bye\\")'),
    expected: 'def greet():\n    print("bye")\n',
    note: 'one level of escaping taken off',
  },
  {
    name: 'over-escaped line breaks and tabs',
    from: 'gemini-cli editCorrector handle multiple escaped sequences',
    file: 'Hello\nWorld\tTest\n',
    edits: one('Hello\\nWorld\\tTest', 'Hello\\nMoon\\tTest'),
    expected: 'Hello\nMoon\tTest\n',
  },
  {
    name: 'an escape that is really in the file matches as written',
    from: 'gemini-cli preserve \\n inside string literals',
    ext: 'js',
    file: 'console.log("a\\nb");\n',
    edits: one('console.log("a\\nb");', 'console.log("a\\nc");'),
    expected: 'console.log("a\\nc");\n',
  },
  {
    name: 'an over-escaped backslash',
    from: 'gemini-cli editCorrector handle escaped backslashes',
    file: 'path = C:\\Users\n',
    edits: one('C:\\\\Users', 'D:\\\\Users'),
    expected: 'path = D:\\Users\n',
  },
  {
    name: 'replace_all replaces every occurrence on one line',
    from: 'gemini-cli allow_multiple: replace all occurrences',
    file: 'foo foo foo',
    edits: one('foo', 'bar', true),
    expected: 'bar bar bar',
  },
  {
    name: 'two occurrences without replace_all are refused',
    from: 'gemini-cli default to 1 expected replacement if allow_multiple not specified',
    file: 'foo foo',
    edits: one('foo', 'bar'),
    refused: 'old_string matches 2 times:\n  line 1: foo foo\n  line 1: foo foo',
  },
  {
    name: 'a $ in old_string and new_string is literal',
    from: 'gemini-cli integration replace: should handle $ literally',
    file: "| select('match', '^[sv]d[a-z]$')\n",
    edits: one("| select('match', '^[sv]d[a-z]$')", "| select('match', '^[sv]d[a-z]$') # updated"),
    expected: "| select('match', '^[sv]d[a-z]$') # updated\n",
  },
  {
    name: 'regex characters stay literal when whitespace inside the line differs',
    from: 'gemini-cli integration replace: should handle $ literally (with a doubled space)',
    file: "| select('match', '^[sv]d[a-z]$')\n",
    edits: one("select('match',  '^[sv]d[a-z]$')", "select('match', '^[sv]d[a-z]$') # updated"),
    expected: "| select('match', '^[sv]d[a-z]$') # updated\n",
    note: 'ignoring whitespace at its edges and inside lines',
  },
  {
    name: 'a marker line becomes a block',
    from: 'gemini-cli integration replace: should insert a multi-line block of text',
    file: 'Line A\n<INSERT_TEXT_HERE>\nLine C',
    edits: one('<INSERT_TEXT_HERE>', 'First line\nSecond line\nThird line'),
    expected: 'Line A\nFirst line\nSecond line\nThird line\nLine C',
  },
  {
    name: 'a block is deleted with the line break after it',
    from: 'gemini-cli integration replace: should delete a block of text',
    file: 'Hello\n## DELETE THIS ##\nThis is a block of text to delete.\n## END DELETE ##\nWorld',
    edits: one('## DELETE THIS ##\nThis is a block of text to delete.\n## END DELETE ##\n', ''),
    expected: 'Hello\nWorld',
  },
  // Codex: apply-patch seek_sequence.rs and lib.rs tests
  {
    name: 'trailing whitespace in the file',
    from: 'codex seek_sequence test_rstrip_match_ignores_trailing_whitespace',
    file: 'foo   \nbar\t\t\n',
    edits: one('foo\nbar', 'foo\nbaz'),
    expected: 'foo\nbaz\n',
  },
  {
    name: 'leading and trailing whitespace in the file',
    from: 'codex seek_sequence test_trim_match_ignores_leading_and_trailing_whitespace',
    file: '    foo   \n    bar\t\n',
    edits: one('foo\nbar', 'foo\nbar()'),
    expected: '    foo\n    bar()\n',
  },
  {
    name: 'an old_string longer than the file is not found',
    from: 'codex seek_sequence test_pattern_longer_than_input_returns_none',
    file: 'just one line\n',
    edits: one('too\nmany\nlines', 'x'),
    refused: 'old_string not found',
  },
  {
    name: 'ASCII dashes match an en dash and a non-breaking hyphen',
    from: 'codex lib.rs test_update_line_with_unicode_dash',
    ext: 'py',
    file: 'import asyncio  # local import \u2013 avoids top\u2011level dep\n',
    edits: one('import asyncio  # local import - avoids top-level dep', 'import asyncio  # HELLO'),
    expected: 'import asyncio  # HELLO\n',
    note: 'typographic dashes and quotes were matched as their ASCII forms',
  },
  {
    name: 'typographic quotes in old_string match ASCII in the file, and new_string gets ASCII',
    from: 'codex seek_sequence normalise (fancy quotes), reversed',
    ext: 'py',
    file: 'def f():\n    return "ok"\n',
    edits: one('return \u201cok\u201d', 'return \u201cdone\u201d'),
    expected: 'def f():\n    return "done"\n',
    note: "(new_string's too)",
  },
  {
    name: 'two places of one file in one call',
    from: 'codex lib.rs test_multiple_update_chunks_apply_to_single_file',
    file: 'foo\nbar\nbaz\nqux\n',
    edits: [
      { old_string: 'foo\nbar', new_string: 'foo\nBAR' },
      { old_string: 'baz\nqux', new_string: 'baz\nQUX' },
    ],
    expected: 'foo\nBAR\nbaz\nQUX\n',
  },
  {
    name: 'deleting a line',
    from: 'codex scenario 021_update_file_deletion_only',
    file: 'line1\nline2\nline3\n',
    edits: one('line2\n', ''),
    expected: 'line1\nline3\n',
  },
  {
    name: 'deleting lines matched ignoring indentation takes their line break too',
    from: 'codex scenario 021_update_file_deletion_only, indented',
    file: '  line1\n  line2\n  line3\n',
    edits: one('    line2\n', ''),
    expected: '  line1\n  line3\n',
  },
  // OpenCode: packages/opencode/test/tool/edit.test.ts
  {
    name: 'replaces text in a line',
    from: 'opencode replaces text in existing file',
    file: 'old content here',
    edits: one('old content', 'new content'),
    expected: 'new content here',
  },
  {
    name: 'identical strings are refused',
    from: 'opencode throws error when oldString equals newString',
    file: 'content',
    edits: one('same', 'same'),
    refused: 'identical',
  },
  {
    name: 'replace_all replaces every occurrence',
    from: 'opencode replaces all occurrences with replaceAll option',
    file: 'foo bar foo baz foo',
    edits: one('foo', 'qux', true),
    expected: 'qux bar qux baz qux',
  },
  {
    name: 'one line becomes two',
    from: 'opencode handles multiline replacements',
    file: 'line1\nline2\nline3',
    edits: one('line2', 'new line 2\nextra line'),
    expected: 'line1\nnew line 2\nextra line\nline3',
  },
  // The double indentation of issue 19, in Python: the cases the peers' suites have in other languages.
  {
    name: 'new_string already at the file’s indentation is not indented again',
    from: 'issue 19 (gemini-cli double-indenting regression, Python)',
    ext: 'py',
    file: PY_CLASS,
    edits: one('def f(self):\n    return 1', '    def f(self):\n        value = 1\n        return value'),
    expected: PY_CLASS.replace('        return 1', '        value = 1\n        return value'),
    note: "already at the file's indentation",
  },
  {
    name: 'new_string written at old_string’s indentation is re-based',
    from: 'issue 19 (aider missing leading whitespace, Python)',
    ext: 'py',
    file: PY_CLASS,
    edits: one('def f(self):\n    return 1', 'def f(self):\n    value = 1\n    return value'),
    expected: PY_CLASS.replace('        return 1', '        value = 1\n        return value'),
  },
  {
    name: 'over-indented old_string: new_string moves left',
    from: 'issue 19 (indentation shifted the other way)',
    ext: 'py',
    file: PY_CLASS,
    edits: one('        def g(self):\n            pass', '        def g(self):\n            return 2'),
    expected: PY_CLASS.replace('        pass', '        return 2'),
    note: 're-indented by -4 columns',
  },
  {
    name: 'a file indented with tabs gets tabs for a space-indented new_string',
    from: 'tabs vs spaces (aider leading-whitespace cases, tab-indented file)',
    ext: 'py',
    file: 'class A:\n\tdef f(self):\n\t\treturn 1\n',
    edits: one('def f(self):\n    return 1', 'def f(self):\n    x = 1\n    return x'),
    expected: 'class A:\n\tdef f(self):\n\t\tx = 1\n\t\treturn x\n',
    note: 'converted to tabs',
  },
  {
    name: 'a file indented with spaces gets spaces for a tab-indented new_string',
    from: 'tabs vs spaces, the other way',
    ext: 'py',
    file: PY_CLASS,
    edits: one('def f(self):\n\treturn 1', 'def f(self):\n\tx = 1\n\treturn x'),
    expected: PY_CLASS.replace('        return 1', '        x = 1\n        return x'),
    note: 'converted to spaces',
  },
  {
    name: 'old_string flush left at two levels: kept lines go where the file has them, new ones follow',
    from: 'issue 19 (aider/gemini-cli missing leading whitespace, lines at different levels)',
    ext: 'py',
    file: 'def f():\n    if a:\n        b()\n    return 1\n',
    edits: one('b()\nreturn 1', 'b()\nc()\nreturn 1'),
    expected: 'def f():\n    if a:\n        b()\n        c()\n    return 1\n',
  },
  {
    name: 'old_string and new_string copied from the middle of their first line',
    from: 'gemini-cli NOT insert extra newlines (old_string copied mid-line), both strings so',
    ext: 'ts',
    file: 'class A {\n  m() {\n    return 1;\n  }\n}\n',
    edits: one('m() {\n    return 1;\n  }', 'm() {\n    const x = 2;\n    return x;\n  }'),
    expected: 'class A {\n  m() {\n    const x = 2;\n    return x;\n  }\n}\n',
  },
  {
    name: 'kept lines the model wraps in a new block move in with it',
    from: 'issue 19 (re-basing around lines new_string keeps)',
    ext: 'ts',
    file: 'function f() {\n  a();\n  b();\n}\n',
    edits: one('a();\nb();', 'if (x) {\n  a();\n  b();\n}'),
    expected: 'function f() {\n  if (x) {\n    a();\n    b();\n  }\n}\n',
  },
  {
    name: 'kept lines the model unwraps from a block move out with it',
    from: 'issue 19 (re-basing around lines new_string keeps)',
    ext: 'ts',
    file: 'function f() {\n  if (x) {\n    a();\n  }\n}\n',
    edits: one('if (x) {\n  a();\n}', 'a();'),
    expected: 'function f() {\n  a();\n}\n',
  },
  {
    name: 'Python: kept lines wrapped in a new block',
    from: 'issue 19 (re-basing around lines new_string keeps)',
    ext: 'py',
    file: 'def f():\n    a()\n    b()\n',
    edits: one('a()\nb()', 'if x:\n    a()\n    b()'),
    expected: 'def f():\n    if x:\n        a()\n        b()\n',
  },
  {
    name: 'a model indenting by 2 in a file indenting by 4: nesting scaled',
    from: 'aider test_replace_part_with_missing_varied_leading_whitespace, another step',
    ext: 'py',
    file: 'def f():\n    if a:\n        b()\n',
    edits: one('if a:\n  b()', 'if a:\n  b()\n  if c:\n    d()'),
    expected: 'def f():\n    if a:\n        b()\n        if c:\n            d()\n',
    note: 'nesting scaled ×2',
  },
  {
    name: 'an edit that would break Python’s indentation is refused with the region',
    from: 'issue 19 (nothing that breaks the file is reported as success)',
    ext: 'py',
    file: 'def f():\n    x = 1\n    return x\n',
    edits: one('x = 1', 'x = 1\ny = 2'),
    refused: 'unexpected indent (line 4)',
  },
  {
    name: 'an edit that would leave an unclosed bracket is refused',
    from: 'issue 19 (no new syntax errors)',
    ext: 'ts',
    file: 'function f() {\n  return g(1);\n}\n',
    edits: one('return g(1);', 'return g(1;'),
    refused: 'the edit would leave a problem the file does not have now',
  },
  {
    name: 'Python: a line dedented out of its method (a `yield` at class level) is refused, though it parses',
    from: 'audit of issue 19 (httpx/_auth.py: BasicAuth.auth_flow, old_string at column 0)',
    ext: 'py',
    file: 'class BasicAuth(Auth):\n    def auth_flow(self, request):\n        request.headers["Authorization"] = self._auth_header\n        yield request\n\n    def _build_auth_header(self):\n        return "x"\n',
    edits: one(
      'request.headers["Authorization"] = self._auth_header\nyield request',
      '        request.headers["Authorization"] = 1\n    yield request',
    ),
    refused: "'yield' outside function (line 4)",
  },
  {
    name: 'old_string without the line’s indentation, new_string with it: the indentation is not doubled',
    from: 'audit of issue 19 (ky source/utils/type-guards.ts: isHTTPError, leading tab missing)',
    ext: 'ts',
    file: 'export function isHTTPError(error: unknown): error is HTTPError {\n\treturn isErrorType(error, HTTPError);\n}\n',
    edits: one(
      'return isErrorType(error, HTTPError);\n}',
      '\treturn isErrorType(error, HTTPError) && true;\n}',
    ),
    expected:
      'export function isHTTPError(error: unknown): error is HTTPError {\n\treturn isErrorType(error, HTTPError) && true;\n}\n',
    note: "it replaced the line's, not added to it",
  },
  {
    name: 'Python: new_string’s own indentation replaces the line’s when old_string matched after it',
    from: 'audit of issue 19 (an exact match mid-line after the indentation)',
    ext: 'py',
    file: 'def f():\n    x = 1\n    return x\n',
    edits: one('x = 1', '    x = 2'),
    expected: 'def f():\n    x = 2\n    return x\n',
  },
  {
    name: 'old_string matched after other code on its line: new_string goes where it matched',
    from: 'audit of issue 19 (only a match after nothing but indentation takes the line)',
    ext: 'ts',
    file: 'const a = 1; const b = 2;\n',
    edits: one('const b = 2;', ' const b = 3;'),
    expected: 'const a = 1;  const b = 3;\n',
  },
  {
    name: 'a file already broken elsewhere can still be edited',
    from: 'issue 19 (errors compared with before the edit)',
    ext: 'ts',
    file: 'const a = (1;\nconst b = 2;\n',
    edits: one('const b = 2;', 'const b = 3;'),
    expected: 'const a = (1;\nconst b = 3;\n',
  },
];

const pythonSpec = LANGUAGES.find((lang) => lang.id === 'python')!;

describe('edit_file matching, cases from the peers', () => {
  test.each(CASES)('$name ($from)', (c) => {
    const check = c.ext ? syntaxCheckFor(`file.${c.ext}`) : undefined;
    const result = applyEdits(c.file, c.edits, check);
    if (c.refused !== undefined) {
      expect(result.ok ? result.text : result.error).toContain(c.refused);
      return;
    }
    expect(result.ok ? result.text : result.error).toBe(c.expected);
    if (c.note && result.ok) expect(result.notes.join('\n')).toContain(c.note);
    if (c.ext === 'py' && result.ok) {
      expect(pythonIndentProblems(result.text)).toEqual([]);
      expect(syntaxProblems(pythonSpec, result.text, 1, result.text.split('\n').length)).toEqual([]);
    }
  });

  test('an exact match reports no tolerance', () => {
    const result = applyEdits('a\nb\n', one('b', 'c'));
    expect(result).toEqual({ ok: true, text: 'a\nc\n', replacements: 1, notes: [] });
  });
});

describe('omission placeholders', () => {
  const placeholders = [
    '(rest of methods ...)',
    '(Rest Of Methods ...)',
    '(unchanged code ...)',
    '// rest of methods ...',
    '// ... rest of code',
    '# existing code here',
    '/* ... */',
    '// ...existing code...',
    '<!-- ... -->',
    '{/* ... */}',
    '    // ... other methods unchanged',
    '# ... (unchanged)',
    '...',
  ];
  const code = [
    'const note = "(rest of methods ...)";',
    'return value; // rest of methods ...',
    'const message = "loading...";',
    '// other methods are in utils.ts',
    '# rest of the world',
    'rest of code',
    '...args',
  ];
  test.each(placeholders)('%s is a placeholder', (line) => {
    expect(isPlaceholderLine(['x = 1', line], 1)).toBe(true);
  });
  test.each(code)('%s is not', (line) => {
    expect(isPlaceholderLine(['x = 1', line], 1)).toBe(false);
  });
  test('a bare ... as a Python block body is code', () => {
    expect(isPlaceholderLine(['def f(self) -> int:', '    ...'], 1)).toBe(false);
  });
});

describe('one level of escaping taken off', () => {
  const cases: [string, string][] = [
    ['\\n', '\n'],
    ['\\t', '\t'],
    ["\\'", "'"],
    ['\\"', '"'],
    ['\\`', '`'],
    ['Hello\\nWorld\\tTest', 'Hello\nWorld\tTest'],
    ['\n', '\n'],
    ['\\\\', '\\'],
    ['C:\\\\Users', 'C:\\Users'],
    // Gemini CLI takes off every level (\\\\n → a line break); one level leaves a written \n in place.
    ['line1\\\\nline2', 'line1\\nline2'],
    ['C:\\Folder\\File', 'C:\\Folder\\File'],
  ];
  test.each(cases)('%j → %j', (input, output) => {
    expect(unescapeOnce(input)).toBe(output);
  });
});

describe("Python's indentation rules", () => {
  const cases: [string, string, string[]][] = [
    ['a valid class', PY_CLASS, []],
    [
      'a body indented twice',
      'class A:\n    def f(self):\n            value = 1\n        return value\n',
      ['4: unindent does not match any outer indentation level'],
    ],
    ['an indent without a block', 'x = 1\n    y = 2\n', ['2: unexpected indent']],
    ['a block without a body', 'def f():\nreturn 1\n', ['2: expected an indented block']],
    ['a block at the end without a body', 'def f():\n', ['2: expected an indented block']],
    [
      'tabs and spaces that disagree',
      'if x:\n\ty = 1\n        z = 2\n',
      ['3: inconsistent use of tabs and spaces in indentation'],
    ],
    ['lines inside brackets', 'x = foo(\n        1,\n  2)\ny = 1\n', []],
    ['a triple-quoted string', 'def f():\n    s = """\nnot indented:\n    """\n    return s\n', []],
    ['a backslash continuation', 'x = 1 + \\\n      2\n', []],
    ['comments at any indentation', 'def f():\n# note:\n    return 1\n', []],
    ['a colon inside brackets', 'd = {\n  "a":\n    1}\n', []],
    ['a one-line block', 'if x: pass\ny = 1\n', []],
    ['else after a block', 'if a:\n    b\nelse:\n    c\n', []],
    ['a colon in a string or a comment', 's = "x:"  # note:\nt = 1\n', []],
  ];
  test.each(cases)('%s', (_, source, expected) => {
    expect(pythonIndentProblems(source).map((p) => `${p.line}: ${p.message}`)).toEqual(expected);
  });
});

describe("Python's placement rules (CPython's compiler, not its grammar)", () => {
  const cases: [string, string, string[]][] = [
    ['yield and return in a method', 'class A:\n    def f(self):\n        yield 1\n        return\n', []],
    ['yield in a lambda', 'f = lambda: (yield)\n', []],
    [
      'yield at class level',
      'class A:\n    def f(self):\n        pass\n    yield 1\n',
      ["4: 'yield' outside function"],
    ],
    ['return at module level', 'x = 1\nreturn x\n', ["2: 'return' outside function"]],
    ['await at module level', 'await g()\n', ["1: 'await' outside function"]],
    [
      'break in a loop, continue in a nested block',
      'for a in b:\n    if a:\n        break\n    continue\n',
      [],
    ],
    ['break in a loop’s else', 'while x:\n    pass\nelse:\n    break\n', ["4: 'break' outside loop"]],
    [
      'continue in a function defined in a loop',
      'for a in b:\n    def f():\n        continue\n',
      ["3: 'continue' not properly in loop"],
    ],
  ];
  test.each(cases)('%s', (_, source, expected) => {
    const problems = syntaxProblems(pythonSpec, source, 1, source.split('\n').length) ?? [];
    expect(problems.map((p) => `${p.line}: ${p.message}`)).toEqual(expected);
  });
});

describe('re-basing, over every block of a Python file', () => {
  const FILE = [
    'import os',
    '',
    '',
    'class Store:',
    '    def __init__(self, path):',
    '        self.path = path',
    '        self.items = {}',
    '',
    '    def load(self):',
    '        if os.path.exists(self.path):',
    '            with open(self.path) as f:',
    '                for line in f:',
    '                    key, value = line.split("=", 1)',
    '                    self.items[key] = value.strip()',
    '        return self.items',
    '',
    '',
    'def main():',
    '    store = Store("x")',
    '    store.load()',
    '',
  ];
  const indent = (line: string): number => /^ */.exec(line)![0].length;
  const tabs = (lines: readonly string[]): string[] =>
    lines.map((l) => l.replace(/^(?: {4})+/, (m) => '\t'.repeat(m.length / 4)));
  /** Old and new strings as a model writes them: unindented, at the file's indentation, copied mid-line, over-indented. */
  const written: Record<string, (block: string[], changed: string[]) => [string[], string[]]> = {
    unindented: (b, c) => {
      const base = Math.min(...b.map(indent));
      return [b.map((l) => l.slice(base)), c.map((l) => l.slice(base))];
    },
    'new at the file indentation': (b, c) => [b.map((l) => l.slice(Math.min(...b.map(indent)))), c],
    'copied mid-line': (b, c) => [
      [b[0]!.trimStart(), ...b.slice(1)],
      [c[0]!.trimStart(), ...c.slice(1)],
    ],
    'over-indented': (b, c) => [b.map((l) => `    ${l}`), c.map((l) => `    ${l}`)],
  };
  const cases: { name: string; old: string; new: string; expected: string[]; start: number }[] = [];
  for (let start = 0; start < FILE.length; start++) {
    for (let len = 1; len <= 4; len++) {
      const block = FILE.slice(start, start + len);
      if (block.length < len || block.some((l) => l.trim() === '')) continue;
      const last = block.at(-1)!;
      const edits: Record<string, string[]> = {
        'a line changed': [...block.slice(0, -1), `${last}  # changed`],
        'a line added': last.endsWith(':') ? [] : [...block, `${' '.repeat(indent(last))}extra = 1`],
      };
      for (const [edit, changed] of Object.entries(edits)) {
        if (changed.length === 0) continue;
        for (const [how, write] of Object.entries(written)) {
          const [oldLines, newLines] = write(block, changed);
          const old = oldLines.join('\n');
          if (FILE.join('\n').includes(old) || (how === 'copied mid-line' && len === 1)) continue;
          const expected = [...FILE.slice(0, start), ...changed, ...FILE.slice(start + len)];
          cases.push({
            name: `lines ${start + 1}-${start + len}, ${edit}, ${how}`,
            old,
            new: newLines.join('\n'),
            expected,
            start,
          });
        }
      }
    }
  }

  test('the cases cover every way of writing', () => {
    expect(cases.length).toBeGreaterThan(100);
  });

  test.each(cases)('$name', (c) => {
    for (const file of [FILE, tabs(FILE)]) {
      const result = applyEdits(file.join('\n'), one(c.old, c.new));
      const expected = (file === FILE ? c.expected : tabs(c.expected)).join('\n');
      expect(result.ok ? result.text : result.error).toBe(expected);
    }
  });
});
