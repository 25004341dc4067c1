// A position at a local variable or a parameter, by name (no language service): find_references and rename_symbol
// keep to that binding in its scope, never a same-named function, field, struct key or another function's local.
import { describe, expect, test } from 'vitest';
import { languageOf } from '../../src/code/languages.js';
import { localBindingAt } from '../../src/code/local-binding.js';
import { findReferencesTool } from '../../src/tools/find-references.js';
import { renameSymbolTool } from '../../src/tools/rename-symbol.js';
import { useToolWorkspace } from '../tools/helpers.js';

const ws = useToolWorkspace();
const { run } = ws;

/** semver's parse.rs: a `let identifier` beside the fn identifier, given to a struct by shorthand. */
const PARSE_RS = [
  'fn prerelease_identifier(input: &str) -> Result<(Prerelease, &str), Error> {',
  '    let (string, rest) = identifier(input)?;',
  '    let identifier = Identifier::new(string);',
  '    Ok((Prerelease { identifier }, rest))',
  '}',
  '',
  'fn build_identifier(input: &str) -> Result<(BuildMetadata, &str), Error> {',
  '    let (string, rest) = identifier(input)?;',
  '    let identifier = Identifier::new(string);',
  '    Ok((BuildMetadata { identifier }, rest))',
  '}',
  '',
  'fn identifier(input: &str) -> Result<(&str, &str), Error> {',
  '    Ok((input, ""))',
  '}',
  '',
].join('\n');

/** jsoup's Element.text: a local `accum` beside a nested class's field `accum` and its constructor's parameter. */
const ELEMENT_JAVA = [
  'public class Element {',
  '    public String text() {',
  '        final StringBuilder accum = new StringBuilder();',
  '        new TextAccumulator(accum).traverse(this);',
  '        return accum.toString().trim();',
  '    }',
  '',
  '    private static class TextAccumulator {',
  '        private final StringBuilder accum;',
  '',
  '        public TextAccumulator(StringBuilder accum) {',
  '            this.accum = accum;',
  '        }',
  '',
  '        void traverse(Element e) {',
  '            accum.append(e);',
  '        }',
  '    }',
  '}',
  '',
].join('\n');

/** mux's NewRoute: a local `route` among struct literals keyed `route:`, and other functions' locals of the name. */
const MUX_GO = [
  'package mux',
  '',
  'type Route struct{ name string }',
  '',
  'type Router struct{ routes []*Route }',
  '',
  'type routeTest struct {',
  '	route *Route',
  '}',
  '',
  'func (r *Router) NewRoute() *Route {',
  '	route := &Route{}',
  '	r.routes = append(r.routes, route)',
  '	tests := []routeTest{{route: route}}',
  '	_ = tests',
  '	return route',
  '}',
  '',
  'func (r *Router) Match() bool {',
  '	for _, route := range r.routes {',
  '		if route.name != "" {',
  '			return true',
  '		}',
  '	}',
  '	return false',
  '}',
  '',
].join('\n');

const SOURCES: Record<string, string> = {
  'parse.rs': PARSE_RS,
  'Element.java': ELEMENT_JAVA,
  'mux.go': MUX_GO,
};

describe('localBindingAt', () => {
  test.each([
    // file, name, line, where the binding is declared, the lines of its occurrences
    ['parse.rs', 'identifier', 3, 3, [3, 4]],
    ['parse.rs', 'identifier', 4, 3, [3, 4]],
    ['parse.rs', 'identifier', 10, 9, [9, 10]],
    ['Element.java', 'accum', 3, 3, [3, 4, 5]],
    ['Element.java', 'accum', 12, 11, [11, 12]],
    ['mux.go', 'route', 12, 12, [12, 13, 14, 16]],
    ['mux.go', 'route', 21, 20, [20, 21]],
  ] as const)('%s: %s on line %i is the local declared on line %i', (file, name, line, declared, lines) => {
    const local = localBindingAt(languageOf(file)!, SOURCES[file]!, name, line);
    expect(local?.line).toBe(declared);
    expect(local?.occurrences.map((o) => o.line)).toEqual(lines);
  });

  test.each([
    ['parse.rs', 'identifier', 2],
    ['parse.rs', 'identifier', 13],
    ['Element.java', 'accum', 9],
    ['Element.java', 'accum', 16],
    ['mux.go', 'route', 8],
  ] as const)('%s: %s on line %i is no local', (file, name, line) => {
    expect(localBindingAt(languageOf(file)!, SOURCES[file]!, name, line)).toBeUndefined();
  });
});

test("rename_symbol of a Rust `let` renames that local, its struct shorthand kept as a field (semver's identifier)", async () => {
  await ws.write('Cargo.toml', '[package]\nname = "semver"\n');
  await ws.write('src/parse.rs', PARSE_RS);
  const refs = await run(findReferencesTool, { name: 'identifier', path: 'src/parse.rs', line: 3 });
  expect(refs.output.split('\n')).toEqual([
    'src/parse.rs:3:9 (definition): let identifier = Identifier::new(string);',
    'src/parse.rs:4:22: Ok((Prerelease { identifier }, rest))',
    '(the local binding identifier declared at src/parse.rs:3: only its scope, lines 3-5; no language service for this file)',
  ]);
  const result = await run(renameSymbolTool, {
    name: 'identifier',
    new_name: 'ident',
    path: 'src/parse.rs',
    line: 3,
  });
  expect(result.success).toBe(true);
  expect(await ws.read('src/parse.rs')).toBe(
    PARSE_RS.replace(
      '    let identifier = Identifier::new(string);\n    Ok((Prerelease { identifier }, rest))',
      '    let ident = Identifier::new(string);\n    Ok((Prerelease { identifier: ident }, rest))',
    ),
  );
  // A new name its scope already uses would be captured: refused.
  const taken = await run(renameSymbolTool, {
    name: 'identifier',
    new_name: 'rest',
    path: 'src/parse.rs',
    line: 9,
  });
  expect(taken.success).toBe(false);
  expect(taken.error).toContain(
    'rest is already used in the scope of the local identifier (src/parse.rs:9-11)',
  );
});

test("rename_symbol of a Java local renames it, never the nested class's field of the name (jsoup's accum)", async () => {
  await ws.write('src/Element.java', ELEMENT_JAVA);
  const result = await run(renameSymbolTool, {
    name: 'accum',
    new_name: 'buf',
    path: 'src/Element.java',
    line: 3,
  });
  expect(result.success).toBe(true);
  expect(await ws.read('src/Element.java')).toBe(
    ELEMENT_JAVA.replace(
      'final StringBuilder accum = new StringBuilder();\n        new TextAccumulator(accum).traverse(this);\n        return accum.toString()',
      'final StringBuilder buf = new StringBuilder();\n        new TextAccumulator(buf).traverse(this);\n        return buf.toString()',
    ),
  );
});

test("find_references of a Go local lists it alone, never struct literal keys or another function's local (mux's route)", async () => {
  await ws.write('go.mod', 'module github.com/gorilla/mux\n\ngo 1.20\n');
  await ws.write('mux.go', MUX_GO);
  const refs = await run(findReferencesTool, { name: 'route', path: 'mux.go', line: 12 });
  expect(refs.output.split('\n').map((l) => l.split(': ')[0])).toEqual([
    'mux.go:12:2 (definition)',
    'mux.go:13:30',
    'mux.go:14:31',
    'mux.go:16:9',
    '(the local binding route declared at mux.go:12',
  ]);
  const result = await run(renameSymbolTool, { name: 'route', new_name: 'rt', path: 'mux.go', line: 12 });
  expect(result.success).toBe(true);
  const text = await ws.read('mux.go');
  expect(text).toContain(
    '	rt := &Route{}\n	r.routes = append(r.routes, rt)\n	tests := []routeTest{{route: rt}}',
  );
  expect(text).toContain('	return rt\n}');
  expect(text).toContain('	for _, route := range r.routes {\n		if route.name != "" {');
});
