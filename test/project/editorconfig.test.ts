// .editorconfig sections matched as the specification says: the glob cases of editorconfig-core-test, and a file's
// settings from every section that matches it.
import { describe, expect, test } from 'vitest';
import { editorConfigFor, parseEditorConfig, sectionMatches } from '../../src/project/editorconfig.js';

describe('sectionMatches: the globs of editorconfig-core-test', () => {
  const cases: [string, string, boolean][] = [
    // *
    ['a*e.c', 'ace.c', true],
    ['a*e.c', 'ae.c', true],
    ['a*e.c', 'abcde.c', true],
    ['a*e.c', 'a/e.c', false],
    ['Bar/*', 'Bar/foo.txt', true],
    ['Bar/*', 'Bar/.editorconfig', true],
    ['*', '.editorconfig', true],
    ['*', 'deep/in/a.go', true],
    // ?
    ['som?.c', 'some.c', true],
    ['som?.c', 'som.c', false],
    ['som?.c', 'something.c', false],
    ['som?.c', 'som/.c', false],
    // [ and ]
    ['[ab].a', 'a.a', true],
    ['[ab].a', 'c.a', false],
    ['[!ab].b', 'c.b', true],
    ['[!ab].b', 'a.b', false],
    ['[d-g].c', 'f.c', true],
    ['[d-g].c', 'h.c', false],
    ['[!d-g].d', 'h.d', true],
    ['[!d-g].d', 'f.d', false],
    ['[abd-g].e', 'e.e', true],
    ['[-ab].f', '-.f', true],
    ['[\\]ab].g', '].g', true],
    ['[ab]].g', 'b].g', true],
    ['[!\\]ab].g', 'c.g', true],
    ['[!ab]].g', 'c].g', true],
    ['ab[e/]cd.i', 'ab[e/]cd.i', true],
    ['ab[e/]cd.i', 'ab/cd.i', false],
    ['ab[e/]cd.i', 'abecd.i', false],
    ['ab[/c', 'ab[/c', true],
    // { and }
    ['*.{py,js,html}', 'test.py', true],
    ['*.{py,js,html}', 'test.html', true],
    ['*.{py,js,html}', 'test.pyc', false],
    ['{single}.b', '{single}.b', true],
    ['{single}.b', '.b', false],
    ['{}.c', '{}.c', true],
    ['{}.c', '.c', false],
    ['a{b,c,}.d', 'a.d', true],
    ['a{b,c,}.d', 'ab.d', true],
    ['a{b,c,}.d', 'a,.d', false],
    ['a{,b,,c,}.e', 'ac.e', true],
    ['{.f', '{.f', true],
    ['{.f', '.f', false],
    ['{word,{also},this}.g', 'word.g', true],
    ['{word,{also},this}.g', '{also}.g', true],
    ['{word,{also},this}.g', '{also,this}.g', false],
    ['{{a,b},c}.k', 'b.k', true],
    ['{{a,b},c}.k', '{a,b}.k', false],
    ['{a,{b,c}}.l', 'c.l', true],
    ['{},b}.h', '{},b}.h', true],
    ['{{,b,c{d}.i', '{{,b,c{d}.i', true],
    ['{{,b,c{d}.i', 'b.i', false],
    ['{a\\,b,cd}.txt', 'a,b.txt', true],
    ['{a\\,b,cd}.txt', 'cd.txt', true],
    ['{a\\,b,cd}.txt', 'a.txt', false],
    ['{e,\\},f}.txt', '}.txt', true],
    ['{g,\\\\,i}.txt', '\\.txt', true],
    ['{some,a{*c,b}[ef]}.j', 'abcf.j', true],
    ['{some,a{*c,b}[ef]}.j', 'acg.j', false],
    ['{some,a{*c,b}[ef]}.j', 'ae.j', false],
    ['{3..120}', '3', true],
    ['{3..120}', '120', true],
    ['{3..120}', '1', false],
    ['{3..120}', '121', false],
    ['{3..120}', '060', false],
    ['{3..120}', '5a', false],
    ['{aardvark..antelope}', '{aardvark..antelope}', true],
    ['{aardvark..antelope}', 'agreement', false],
    // **
    ['a**z.c', 'a/mn/z.c', true],
    ['a**z.c', 'amnz.c', true],
    ['b/**z.c', 'b/mn/z.c', true],
    ['b/**z.c', 'bmnz.c', false],
    ['c**/z.c', 'cmn/z.c', true],
    ['c**/z.c', 'c/mnz.c', false],
    ['d/**/z.c', 'd/z.c', true],
    ['d/**/z.c', 'd/mn/z.c', true],
    ['d/**/z.c', 'd/mnz.c', false],
    // a leading slash anchors to the file's folder, as any slash does
    ['/src/*.go', 'src/a.go', true],
    ['/src/*.go', 'lib/src/a.go', false],
    ['*.go', 'lib/src/a.go', true],
    ['中文.txt', 'dir/中文.txt', true],
  ];
  test.each(cases)('[%s] on %s: %s', (glob, file, expected) => {
    expect(sectionMatches(glob, file)).toBe(expected);
  });
});

describe('editorConfigFor', () => {
  // gorilla/mux's .editorconfig: Go files are indented with tabs, everything else with two spaces.
  const mux = parseEditorConfig(`; https://editorconfig.org/

root = true

[*]
insert_final_newline = true
charset = utf-8
trim_trailing_whitespace = true
indent_style = space
indent_size = 2

[{Makefile,go.mod,go.sum,*.go,.gitmodules}]
indent_style = tab
indent_size = 4

[*.md]
indent_size = 4
trim_trailing_whitespace = false

eclint_indent_style = unset`);

  test('reads the preamble and every section in order', () => {
    expect(mux.root).toBe(true);
    expect(mux.sections.map((s) => s.glob)).toEqual([
      '*',
      '{Makefile,go.mod,go.sum,*.go,.gitmodules}',
      '*.md',
    ]);
  });

  test('a later matching section overrides an earlier one, per key', () => {
    expect(editorConfigFor(mux, 'mux.go')).toMatchObject({
      indent_style: 'tab',
      indent_size: '4',
      charset: 'utf-8',
    });
    expect(editorConfigFor(mux, 'internal/route.go')).toMatchObject({ indent_style: 'tab' });
    expect(editorConfigFor(mux, 'README.md')).toMatchObject({ indent_style: 'space', indent_size: '4' });
    expect(editorConfigFor(mux, '.github/ci.yml')).toMatchObject({ indent_style: 'space', indent_size: '2' });
  });

  test('unset takes a setting away; known values are read in any case, comments skipped', () => {
    const config = parseEditorConfig(
      '# c\n[*]\nIndent_Style = Space ; two\nend_of_line = LF\nmax_line_length = 100\n[*.lock]\nend_of_line = unset\n',
    );
    expect(editorConfigFor(config, 'a.ts')).toEqual({
      indent_style: 'space',
      end_of_line: 'lf',
      max_line_length: '100',
    });
    expect(editorConfigFor(config, 'bun.lock')).toEqual({ indent_style: 'space', max_line_length: '100' });
  });
});
