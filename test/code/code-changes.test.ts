// Renames across files (TS, Python, Dart), cycles, the tag cache, organize_imports and create_barrel on real files.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cacheFileFor, loadCodeIndex } from '../../src/code/code-index.js';
import { buildDependencyGraphTool } from '../../src/tools/build-dependency-graph.js';
import { createBarrelTool } from '../../src/tools/create-barrel.js';
import { findReferencesTool } from '../../src/tools/find-references.js';
import { inspectSymbolTool } from '../../src/tools/inspect-symbol.js';
import { organizeImportsTool } from '../../src/tools/organize-imports.js';
import { renameSymbolTool } from '../../src/tools/rename-symbol.js';
import { useToolWorkspace } from '../tools/helpers.js';
import { projects, symbolOf } from './fixtures.js';

const ws = useToolWorkspace();
const { run } = ws;

describe.each(['typescript', 'python', 'dart'])('rename_symbol in %s', (lang) => {
  test('renames the definition and its uses across files, never the comment, string or shadowing parameter', async () => {
    const project = projects[lang]!;
    for (const [file, content] of Object.entries(project.files)) await ws.write(file, content);
    const name = symbolOf(lang);
    const args = renameSymbolTool.schema.parse({ name, new_name: 'sumPrices' });
    const preview = await renameSymbolTool.preview!(args, ws.ctx);
    expect(preview.writes.sort()).toEqual(
      [project.def, project.user].map((f) => path.join(ws.root, f)).sort(),
    );
    expect(preview.diff).toContain(`a/${project.def}`);
    expect(preview.diff).toContain(`a/${project.user}`);
    const result = await run(renameSymbolTool, args);
    expect(result.success).toBe(true);
    const def = await ws.read(project.def);
    const user = await ws.read(project.user);
    expect(def).not.toMatch(new RegExp(`\\b${name}\\b`));
    expect(def).toContain('sumPrices(');
    // The comment, the string and the shadowing parameter keep the old name; a text replace would change them.
    const kept = user.match(new RegExp(`\\b${name}\\b`, 'g')) ?? [];
    expect(kept.length).toBeGreaterThanOrEqual(4);
    expect(user).toMatch(/sumPrices\(\[1, 2\]\)/);
    if (lang === 'typescript') expect(user).toContain(`{ ${name}: sumPrices }`);
  });

  test('says where the old name is still written: comments and strings of the renamed files, and docs', async () => {
    const project = projects[lang]!;
    for (const [file, content] of Object.entries(project.files)) await ws.write(file, content);
    const name = symbolOf(lang);
    await ws.write('docs/api.md', `Call \`${name}\` to add the prices.\n`);
    await ws.write('CHANGES.txt', 'Nothing here names it.\n');
    const result = await run(renameSymbolTool, { name, new_name: 'sumPrices' });
    expect(result.success).toBe(true);
    const note = result.output.split('\n').at(-1)!;
    expect(note).toMatch(new RegExp(`^\\(${name} is still written where the rename does not reach`));
    // The user file's comment line (3) and string line (4); the docs file; never a file that does not name it.
    expect(note).toContain(`${project.user}:3, ${project.user}:4`);
    expect(note).toContain('docs/api.md');
    expect(note).not.toContain('CHANGES.txt');
    expect(note).not.toContain(`${project.def}:`);
  });
});

test("rename_symbol's note leaves out the old name as a part of a path: date-fns' folder per function", async () => {
  await ws.write('src/addDays/index.ts', 'export function addDays(n: number): number {\n  return n;\n}\n');
  await ws.write(
    'src/addWeeks/index.ts',
    "import { addDays } from '../addDays/index.js';\n\n// addDays, seven times\nexport const addWeeks = (n: number) => addDays(n * 7);\n",
  );
  const result = await run(renameSymbolTool, { name: 'addDays', new_name: 'plusDays' });
  expect(result.success).toBe(true);
  expect(await ws.read('src/addWeeks/index.ts')).toContain("import { plusDays } from '../addDays/index.js';");
  expect(result.output.split('\n').at(-1)).toBe(
    '(addDays is still written where the rename does not reach (comments, strings, docs, same-named symbols): src/addWeeks/index.ts:3; update those that mean this symbol)',
  );
});

test("rename_symbol by name renames a Rust crate's re-export in lib.rs, where the name is never used", async () => {
  await ws.write('Cargo.toml', '[package]\nname = "searcher"\n');
  await ws.write(
    'src/lib.rs',
    'pub use crate::{\n    lines::{LineIter, LineStep},\n    sink::{\n        Sink, SinkContext, SinkContextKind, SinkError, SinkFinish, SinkMatch,\n        sinks,\n    },\n};\n\nmod lines;\nmod sink;\n',
  );
  await ws.write('src/sink.rs', 'pub struct SinkMatch;\n\npub fn first(m: &SinkMatch) {}\n');
  const result = await run(renameSymbolTool, { name: 'SinkMatch', new_name: 'MatchedLines' });
  expect(result.success).toBe(true);
  expect(await ws.read('src/lib.rs')).toContain('SinkFinish, MatchedLines,');
  expect(await ws.read('src/sink.rs')).toBe(
    'pub struct MatchedLines;\n\npub fn first(m: &MatchedLines) {}\n',
  );
});

test("rename_symbol by name of a Rust type renames it before `::` (`Version::new`), and a private fn of lib.rs in the crate's other modules (semver, smallvec)", async () => {
  await ws.write('Cargo.toml', '[package]\nname = "semver"\n');
  await ws.write(
    'src/lib.rs',
    'mod parse;\n#[cfg(test)]\nmod tests;\n\npub struct Version {\n    pub major: u64,\n}\n\nimpl Version {\n    pub const fn new(major: u64) -> Self {\n        Version { major }\n    }\n}\n\nfn bump(v: &Version) -> u64 {\n    v.major + 1\n}\n',
  );
  await ws.write(
    'src/parse.rs',
    'use crate::Version;\n\npub fn parse() -> Version {\n    Version::new(1)\n}\n',
  );
  await ws.write(
    'src/tests.rs',
    'use super::*;\n\n#[test]\nfn t() {\n    assert_eq!(bump(&Version::new(1)), 2);\n}\n',
  );
  const type = await run(renameSymbolTool, { name: 'Version', path: 'src/lib.rs', new_name: 'SemVer' });
  expect(type.success).toBe(true);
  expect(await ws.read('src/parse.rs')).toBe(
    'use crate::SemVer;\n\npub fn parse() -> SemVer {\n    SemVer::new(1)\n}\n',
  );
  const fn = await run(renameSymbolTool, { name: 'bump', path: 'src/lib.rs', new_name: 'next_major' });
  expect(fn.success).toBe(true);
  expect(await ws.read('src/tests.rs')).toContain('assert_eq!(next_major(&SemVer::new(1)), 2);');
});

test("rename_symbol by name of a Rust method: calls on its type's receivers, in macros too, never another type's or std's method of that name, a free fn, or another crate's trait method (log, smallvec)", async () => {
  await ws.write('Cargo.toml', '[package]\nname = "log"\n');
  await ws.write(
    'src/lib.rs',
    [
      'mod private;',
      "pub struct Record<'a> {",
      "    args: &'a str,",
      '}',
      "pub struct RecordBuilder<'a> {",
      "    record: Record<'a>,",
      '}',
      "impl<'a> Record<'a> {",
      "    pub fn args(&self) -> &'a str {",
      '        self.args',
      '    }',
      "    pub fn builder() -> RecordBuilder<'a> {",
      '        RecordBuilder { record: Record { args: "" } }',
      '    }',
      '    pub fn is_empty(&self) -> bool {',
      '        self.args.is_empty()',
      '    }',
      '}',
      "impl<'a> RecordBuilder<'a> {",
      "    pub fn args(&mut self, args: &'a str) -> &mut RecordBuilder<'a> {",
      '        self.record.args = args;',
      '        self',
      '    }',
      "    pub fn build(&self) -> Record<'a> {",
      '        Record { args: self.record.args() }',
      '    }',
      '}',
      'pub trait Log {',
      '    fn enabled(&self) -> bool;',
      '}',
      "impl<T: ?Sized + Log> Log for &'_ T {",
      '    fn enabled(&self) -> bool {',
      '        (**self).enabled()',
      '    }',
      '}',
      'impl<T: ?Sized + Log> Log for std::boxed::Box<T> {',
      '    fn enabled(&self) -> bool {',
      '        self.as_ref().enabled()',
      '    }',
      '}',
      'pub struct IntoIter(Vec<u8>);',
      'impl ExactSizeIterator for IntoIter {',
      '    fn len(&self) -> usize {',
      '        self.0.len()',
      '    }',
      '}',
      'impl IntoIter {',
      '    pub fn len(&self) -> usize {',
      '        self.0.len()',
      '    }',
      '}',
      'pub fn show(r: &Record) -> usize {',
      '    let b = Record::builder();',
      '    assert!(!r.is_empty());',
      '    let v = IntoIter(Vec::new());',
      '    r.args().len() + b.build().args().len() + v.len()',
      '}',
      '',
    ].join('\n'),
  );
  await ws.write(
    'src/private.rs',
    'use crate::Log;\npub struct Global;\nimpl Log for Global {\n    fn enabled(&self) -> bool {\n        true\n    }\n}\npub fn enabled<L: Log>(logger: L) -> bool {\n    logger.enabled()\n}\n',
  );
  // Another crate's impl of the trait (a trait's methods are as public as the trait).
  await ws.write(
    'examples/logger.rs',
    'struct Mine;\nimpl log::Log for Mine {\n    fn enabled(&self) -> bool {\n        false\n    }\n}\n',
  );
  const args = await run(renameSymbolTool, {
    name: 'args',
    path: 'src/lib.rs',
    line: 9,
    new_name: 'message',
  });
  expect(args.success).toBe(true);
  let lib = await ws.read('src/lib.rs');
  expect(lib).toContain("pub fn message(&self) -> &'a str {\n        self.args\n");
  expect(lib).toContain("pub fn args(&mut self, args: &'a str)");
  expect(lib).toContain('Record { args: self.record.message() }');
  expect(lib).toContain('r.message().len() + b.build().message().len() + v.len()');
  // Record's is_empty, not str's; in assert!'s tokens too.
  const empty = await run(renameSymbolTool, { name: 'is_empty', path: 'src/lib.rs', new_name: 'blank' });
  expect(empty.success).toBe(true);
  lib = await ws.read('src/lib.rs');
  expect(lib).toContain('pub fn blank(&self) -> bool {\n        self.args.is_empty()');
  expect(lib).toContain('assert!(!r.blank());');
  // A trait's method: in every impl of the trait (through a reference and a Box, in another file), not a free fn.
  const enabled = await run(renameSymbolTool, { name: 'enabled', path: 'src/lib.rs', new_name: 'on' });
  expect(enabled.success).toBe(true);
  lib = await ws.read('src/lib.rs');
  expect(lib).not.toContain('enabled');
  expect(await ws.read('examples/logger.rs')).toContain(
    'impl log::Log for Mine {\n    fn on(&self) -> bool {',
  );
  expect(await ws.read('src/private.rs')).toBe(
    'use crate::Log;\npub struct Global;\nimpl Log for Global {\n    fn on(&self) -> bool {\n        true\n    }\n}\npub fn enabled<L: Log>(logger: L) -> bool {\n    logger.on()\n}\n',
  );
  // IntoIter's own len, not ExactSizeIterator's nor Vec's.
  const len = await run(renameSymbolTool, { name: 'len', path: 'src/lib.rs', new_name: 'count' });
  expect(len.success).toBe(true);
  lib = await ws.read('src/lib.rs');
  expect(lib).toContain(
    'impl ExactSizeIterator for IntoIter {\n    fn len(&self) -> usize {\n        self.0.len()',
  );
  expect(lib).toContain('impl IntoIter {\n    pub fn count(&self) -> usize {\n        self.0.len()');
  expect(lib).toContain('r.message().len() + b.build().message().len() + v.count()');
});

test("rename_symbol by name of a Rust type another module defines its own of: a path through that module is its (once_cell's imp::OnceCell), and a method call on another crate's type is not ours", async () => {
  await ws.write('Cargo.toml', '[package]\nname = "once_cell"\n');
  await ws.write(
    'src/lib.rs',
    [
      '#[path = "imp_std.rs"]',
      'mod imp;',
      'pub mod sync {',
      '    use super::imp::OnceCell as Imp;',
      '    pub struct OnceCell<T>(Imp<T>);',
      '    impl<T> OnceCell<T> {',
      '        pub fn into_inner(self) -> Option<T> {',
      '            self.0.into_inner()',
      '        }',
      '    }',
      '}',
      '',
    ].join('\n'),
  );
  const imp =
    'use std::cell::UnsafeCell;\npub(crate) struct OnceCell<T> {\n    value: UnsafeCell<Option<T>>,\n}\nimpl<T> OnceCell<T> {\n    pub(crate) fn into_inner(self) -> Option<T> {\n        self.value.into_inner()\n    }\n}\n';
  await ws.write('src/imp_std.rs', imp);
  const type = await run(renameSymbolTool, { name: 'OnceCell', path: 'src/lib.rs', new_name: 'Cell' });
  expect(type.success).toBe(true);
  let lib = await ws.read('src/lib.rs');
  expect(lib).toContain(
    'use super::imp::OnceCell as Imp;\n    pub struct Cell<T>(Imp<T>);\n    impl<T> Cell<T> {',
  );
  const method = await run(renameSymbolTool, { name: 'into_inner', path: 'src/lib.rs', new_name: 'inner' });
  expect(method.success).toBe(true);
  lib = await ws.read('src/lib.rs');
  expect(lib).toContain('pub fn inner(self) -> Option<T> {\n            self.0.into_inner()');
  expect(await ws.read('src/imp_std.rs')).toBe(imp);
});

test("rename_symbol by name of a Go method or type: never another package's field of that name, its examples' names go with it, and a standard interface's method is refused (gorilla/mux, checked with go vet)", async () => {
  await ws.write('go.mod', 'module github.com/gorilla/mux\n\ngo 1.20\n');
  await ws.write(
    'route.go',
    [
      'package mux',
      '',
      'import (',
      '\t"net/http"',
      '\t"net/url"',
      ')',
      '',
      'type Route struct{ host string }',
      '',
      'func (r *Route) URL() (*url.URL, error) { return &url.URL{Host: r.host}, nil }',
      '',
      'func (r *Route) Host(h string) *Route { r.host = h; return r }',
      '',
      'type Router struct{ routes []*Route }',
      '',
      'func NewRouter() *Router { return &Router{} }',
      '',
      'func (r *Router) HandleFunc(path string) *Route { return &Route{} }',
      '',
      'func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {',
      '\t_ = req.URL.Host',
      '}',
      '',
      'func use() string {',
      '\tcb := func(w http.ResponseWriter, r *http.Request) {}',
      '\t_ = cb',
      '\tr := NewRouter()',
      '\tu, _ := r.HandleFunc("/").Host("a").URL()',
      '\treturn u.Host',
      '}',
      '',
    ].join('\n'),
  );
  await ws.write(
    'example_route_test.go',
    'package mux_test\n\nimport "github.com/gorilla/mux"\n\nfunc ExampleRoute_Host() {\n\tmux.NewRouter().HandleFunc("/").Host("a")\n}\n',
  );
  const host = await run(renameSymbolTool, { name: 'Host', path: 'route.go', new_name: 'Hostname' });
  expect(host.success).toBe(true);
  let route = await ws.read('route.go');
  expect(route).toContain('return &url.URL{Host: r.host}, nil');
  expect(route).toContain('func (r *Route) Hostname(h string) *Route');
  expect(route).toContain('_ = req.URL.Host');
  expect(route).toContain('u, _ := r.HandleFunc("/").Hostname("a").URL()\n\treturn u.Host');
  expect(await ws.read('example_route_test.go')).toContain(
    'func ExampleRoute_Hostname() {\n\tmux.NewRouter().HandleFunc("/").Hostname("a")',
  );
  const url = await run(renameSymbolTool, { name: 'URL', path: 'route.go', new_name: 'BuildURL' });
  expect(url.success).toBe(true);
  route = await ws.read('route.go');
  expect(route).toContain('func (r *Route) BuildURL() (*url.URL, error)');
  expect(route).toContain('.Hostname("a").BuildURL()');
  expect(route).toContain('_ = req.URL.Host');
  const type = await run(renameSymbolTool, { name: 'Route', path: 'route.go', new_name: 'Endpoint' });
  expect(type.success).toBe(true);
  expect(await ws.read('example_route_test.go')).toContain('func ExampleEndpoint_Hostname() {');
  // A method may take the name of a function beside it (they are not one namespace): gin's render.WriteJSON.
  const handle = await run(renameSymbolTool, { name: 'HandleFunc', path: 'route.go', new_name: 'NewRouter' });
  expect(handle.success).toBe(true);
  expect(await ws.read('route.go')).toContain('func (r *Router) NewRouter(path string) *Endpoint');
  // …but not a method its type has already.
  const clash = await run(renameSymbolTool, { name: 'BuildURL', path: 'route.go', new_name: 'Hostname' });
  expect(clash.success).toBe(false);
  expect(clash.error).toContain('Hostname is already defined in route.go');
  const serve = await run(renameSymbolTool, { name: 'ServeHTTP', path: 'route.go', new_name: 'Serve' });
  expect(serve.success).toBe(false);
  expect(serve.error).toContain("ServeHTTP is the method net/http's Handler names");
});

test("find_references and rename_symbol by name of a Go method: its receiver's calls only (a variable's type, new(T), a call's result), never a package's variable, a type or another type's method of the name; a method a project interface names goes with every type defining it (gin, mux)", async () => {
  await ws.write('go.mod', 'module example.com/gin\n\ngo 1.19\n');
  await ws.write('binding/binding.go', 'package binding\n\nvar JSON = 1\n');
  await ws.write('render/json.go', 'package render\n\ntype JSON struct{}\n');
  await ws.write(
    'context.go',
    [
      'package gin',
      '',
      'import "example.com/gin/binding"',
      '',
      'type Context struct{}',
      'type Error struct{}',
      '',
      'func NewContext() *Context { return &Context{} }',
      'func (c *Context) JSON(code int) {}',
      'func (e *Error) JSON() any { return nil }',
      '',
      'func use(c *Context, err *Error) {',
      '\tc.JSON(binding.JSON)',
      '\t_ = err.JSON()',
      '\tNewContext().JSON(1)',
      '\tnew(Context).JSON(2)',
      '}',
      '',
    ].join('\n'),
  );
  const refs = await run(findReferencesTool, { name: 'JSON', path: 'context.go', line: 9 });
  expect(refs.success).toBe(true);
  const places = refs.output
    .split('\n')
    .filter((l) => /^\S+\.go:/.test(l))
    .map((l) => l.split(': ')[0]!.replace(' (definition)', ''));
  expect(places).toEqual(['context.go:9:19', 'context.go:13:4', 'context.go:15:15', 'context.go:16:15']);
  // A method an interface of the project names: every type's, and the interface's, or the types stop being one.
  await ws.write(
    'match.go',
    'package gin\n\ntype matcher interface {\n\tMatch(s string) bool\n}\n\ntype Router struct{}\ntype Route struct{}\n\nfunc (r *Router) Match(s string) bool { return true }\nfunc (r *Route) Match(s string) bool { return false }\n\nvar _ matcher = &Router{}\n',
  );
  const match = await run(renameSymbolTool, {
    name: 'Match',
    path: 'match.go',
    line: 10,
    new_name: 'Matches',
  });
  expect(match.success).toBe(true);
  const after = await ws.read('match.go');
  expect(after).toContain('\tMatches(s string) bool\n');
  expect(after).toContain('func (r *Router) Matches(s string) bool');
  expect(after).toContain('func (r *Route) Matches(s string) bool');
});

test("find_references of a Rust fn leaves out the locals an `if let` or `let … else` binds: the call in the let's value is the fn (ripgrep's hostname)", async () => {
  await ws.write(
    'src/main.rs',
    [
      'fn main() {',
      '    if let Some(hostname) = hostname(None) {',
      '        println!("{}", hostname);',
      '    }',
      '    let Some(hostname) = hostname(None) else { return };',
      '    drop(hostname);',
      '}',
      'fn hostname(bin: Option<String>) -> Option<String> {',
      '    bin',
      '}',
      '',
    ].join('\n'),
  );
  const result = await run(findReferencesTool, { name: 'hostname', path: 'src/main.rs' });
  expect(result.success).toBe(true);
  expect(result.output).toContain('src/main.rs:2:29:');
  expect(result.output).toContain('src/main.rs:5:26:');
  expect(result.output).toContain('src/main.rs:8:4 (definition)');
  for (const local of ['src/main.rs:2:17', 'src/main.rs:3:', 'src/main.rs:5:14', 'src/main.rs:6:'])
    expect(result.output).not.toContain(local);
});

test("rename_symbol by name of a private Rust fn stays in its file: never another crate's fn, a module, or another path's item; its own name is renamed though its body has a local of that name (ripgrep's hostname)", async () => {
  await ws.write('Cargo.toml', '[workspace]\nmembers = ["crates/*"]\n');
  await ws.write('crates/cli/Cargo.toml', '[package]\nname = "grep-cli"\n');
  await ws.write('crates/cli/src/lib.rs', 'mod hostname;\n\npub use crate::hostname::hostname;\n');
  await ws.write('crates/cli/src/hostname.rs', 'pub fn hostname() -> Option<String> {\n    None\n}\n');
  await ws.write('crates/core/Cargo.toml', '[package]\nname = "core"\n');
  await ws.write(
    'crates/core/src/main.rs',
    [
      'fn main() {',
      '    let os = grep_cli::hostname();',
      '    let h = hostname(os);',
      '}',
      '',
      'fn hostname(bin: Option<String>) -> Option<String> {',
      '    let hostname = bin?;',
      '    Some(hostname)',
      '}',
      '',
    ].join('\n'),
  );
  const result = await run(renameSymbolTool, {
    name: 'hostname',
    path: 'crates/core/src/main.rs',
    new_name: 'host_name',
  });
  expect(result.success).toBe(true);
  expect(await ws.read('crates/core/src/main.rs')).toBe(
    [
      'fn main() {',
      '    let os = grep_cli::hostname();',
      '    let h = host_name(os);',
      '}',
      '',
      'fn host_name(bin: Option<String>) -> Option<String> {',
      '    let hostname = bin?;',
      '    Some(hostname)',
      '}',
      '',
    ].join('\n'),
  );
  expect(await ws.read('crates/cli/src/lib.rs')).toBe(
    'mod hostname;\n\npub use crate::hostname::hostname;\n',
  );
  expect(await ws.read('crates/cli/src/hostname.rs')).toContain('pub fn hostname()');
  // The public one, renamed where it is defined: the other crate's file defining its own keeps its own, and has
  // its path to the public one renamed.
  const main = await ws.read('crates/core/src/main.rs');
  const pub = await run(renameSymbolTool, {
    name: 'hostname',
    path: 'crates/cli/src/hostname.rs',
    new_name: 'get_hostname',
  });
  expect(pub.success).toBe(true);
  expect(await ws.read('crates/cli/src/lib.rs')).toBe(
    'mod hostname;\n\npub use crate::hostname::get_hostname;\n',
  );
  expect(await ws.read('crates/core/src/main.rs')).toBe(
    main.replace('grep_cli::hostname()', 'grep_cli::get_hostname()'),
  );
});

test("rename_symbol of a Java type moves its file to the new name, as javac requires (spring-petclinic's Owner)", async () => {
  await ws.write(
    'src/main/java/shop/Owner.java',
    'package shop;\n\n/** An Owner. */\npublic class Owner {\n  public String name;\n}\n',
  );
  await ws.write(
    'src/main/java/shop/Clinic.java',
    'package shop;\n\npublic class Clinic {\n  public Owner find() {\n    return new Owner();\n  }\n}\n',
  );
  const args = { name: 'Owner', path: 'src/main/java/shop/Owner.java', new_name: 'PetOwner' };
  const preview = await renameSymbolTool.preview!(renameSymbolTool.schema.parse(args), ws.ctx);
  expect(preview.writes).toContain(path.join(ws.root, 'src/main/java/shop/PetOwner.java'));
  const result = await run(renameSymbolTool, args);
  expect(result.success).toBe(true);
  expect(result.output).toContain(
    "moved src/main/java/shop/Owner.java to src/main/java/shop/PetOwner.java: a Java type's file is named after it",
  );
  expect(await ws.read('src/main/java/shop/PetOwner.java')).toBe(
    'package shop;\n\n/** An Owner. */\npublic class PetOwner {\n  public String name;\n}\n',
  );
  await expect(ws.read('src/main/java/shop/Owner.java')).rejects.toThrow();
  expect(await ws.read('src/main/java/shop/Clinic.java')).toContain(
    'public PetOwner find() {\n    return new PetOwner();',
  );
  // Its doc comment still says Owner, in the file under its new name; no file is taken for one left alone.
  expect(result.output).toContain('src/main/java/shop/PetOwner.java:3');
  expect(result.output).not.toContain('not renamed');
  // A name whose file is taken: refused, nothing written.
  await ws.write('src/main/java/shop/Visit.java', 'package shop;\n\npublic class Visit {}\n');
  await ws.write('src/main/java/shop/Call.java', 'package shop;\n\nclass Call {}\n');
  const taken = await run(renameSymbolTool, {
    name: 'Visit',
    path: 'src/main/java/shop/Visit.java',
    new_name: 'Call',
  });
  expect(taken.success).toBe(false);
  expect(await ws.read('src/main/java/shop/Visit.java')).toContain('public class Visit');
});

test('rename_symbol by name of a Java method renames the calls in files naming its class, lists the others, and refuses a new name a nested class has (gson)', async () => {
  await ws.write(
    'src/GsonBuilder.java',
    'public final class GsonBuilder {\n  public GsonBuilder setLenient() {\n    return this;\n  }\n}\n',
  );
  await ws.write('src/App.java', 'class App {\n  Object b = new GsonBuilder().setLenient();\n}\n');
  await ws.write(
    'src/Dates.java',
    'import java.util.Calendar;\n\nclass Dates {\n  void f(Calendar calendar) {\n    calendar.setLenient(false);\n  }\n}\n',
  );
  const result = await run(renameSymbolTool, {
    name: 'setLenient',
    path: 'src/GsonBuilder.java',
    new_name: 'setLeniency',
  });
  expect(result.success).toBe(true);
  expect(await ws.read('src/App.java')).toContain('new GsonBuilder().setLeniency();');
  expect(await ws.read('src/Dates.java')).toContain('calendar.setLenient(false);');
  expect(result.output).toContain('(not renamed, and still naming setLenient: src/Dates.java;');
  // In a file naming both classes, the call on a variable of the other type is left alone; a local of the
  // method's name shadows no call of it.
  await ws.write(
    'src/JsonWriter.java',
    'public class JsonWriter {\n  public JsonWriter beginObject() {\n    return this;\n  }\n}\n',
  );
  await ws.write(
    'src/JsonTreeWriter.java',
    'class JsonTreeWriter extends JsonWriter {\n  @Override public JsonWriter beginObject() {\n    return this;\n  }\n}\n',
  );
  await ws.write(
    'src/JsonReader.java',
    'public class JsonReader {\n  public void beginObject() {}\n  public int peek() { return 0; }\n}\n',
  );
  await ws.write(
    'src/Copy.java',
    'class Copy {\n  void copy(JsonReader in, JsonWriter out) {\n    int beginObject = in.peek();\n    in.beginObject();\n    out.beginObject();\n  }\n}\n',
  );
  const begin = await run(renameSymbolTool, {
    name: 'beginObject',
    path: 'src/JsonWriter.java',
    new_name: 'startObject',
  });
  expect(begin.success).toBe(true);
  expect(await ws.read('src/Copy.java')).toBe(
    'class Copy {\n  void copy(JsonReader in, JsonWriter out) {\n    int beginObject = in.peek();\n    in.beginObject();\n    out.startObject();\n  }\n}\n',
  );
  expect(await ws.read('src/JsonTreeWriter.java')).toContain('public JsonWriter startObject()');
  expect(await ws.read('src/JsonReader.java')).toContain('public void beginObject() {}');
  // Overrides down the hierarchy and in anonymous classes go with it; a static method of another class, and a
  // call on a cast to another type, do not (gson's TypeAdapter.write, Streams.write).
  await ws.write(
    'src/TypeAdapter2.java',
    'public abstract class TypeAdapter2<T> {\n  public abstract void write(T value);\n}\n',
  );
  await ws.write('src/Delegating.java', 'abstract class Delegating<T> extends TypeAdapter2<T> {}\n');
  await ws.write(
    'src/Future.java',
    'class Future<T> extends Delegating<T> {\n  @Override public void write(T value) {}\n}\n',
  );
  await ws.write(
    'src/Streams.java',
    'final class Streams {\n  static void write(Object o) {}\n  static TypeAdapter2<String> make() {\n    return new TypeAdapter2<String>() {\n      @Override public void write(String value) {}\n    };\n  }\n  void use(Object w) {\n    Streams.write(w);\n    ((Future<String>) w).write("a");\n    ((Streams) w).write2();\n  }\n  void write2() {}\n}\n',
  );
  const write = await run(renameSymbolTool, {
    name: 'write',
    path: 'src/TypeAdapter2.java',
    new_name: 'writeTo',
  });
  expect(write.success).toBe(true);
  expect(await ws.read('src/Future.java')).toContain('@Override public void writeTo(T value) {}');
  expect(await ws.read('src/Streams.java')).toBe(
    'final class Streams {\n  static void write(Object o) {}\n  static TypeAdapter2<String> make() {\n    return new TypeAdapter2<String>() {\n      @Override public void writeTo(String value) {}\n    };\n  }\n  void use(Object w) {\n    Streams.write(w);\n    ((Future<String>) w).writeTo("a");\n    ((Streams) w).write2();\n  }\n  void write2() {}\n}\n',
  );
  // A receiver read through fields and calls of known types (javapoet's `builder.javadoc.add(…)`), never a JDK
  // collection's `add` on a receiver of unknown type.
  await ws.write(
    'src/Code.java',
    'public final class Code {\n  public static final class Builder {\n    public Builder add(String s) {\n      return this;\n    }\n  }\n}\n',
  );
  await ws.write(
    'src/Spec.java',
    'import java.util.List;\n\nclass Spec {\n  private final Code.Builder javadoc = new Code.Builder();\n  private Code.Builder doc() {\n    return javadoc;\n  }\n  void f(List<String> names) {\n    this.javadoc.add("a");\n    doc().add("b");\n    names.add("c");\n    names.subList(0, 1).add("d");\n  }\n}\n',
  );
  const add = await run(renameSymbolTool, { name: 'add', path: 'src/Code.java', new_name: 'append' });
  expect(add.success).toBe(true);
  expect(await ws.read('src/Spec.java')).toContain(
    '    this.javadoc.append("a");\n    doc().append("b");\n    names.add("c");\n    names.subList(0, 1).add("d");',
  );
  // Imports (jsoup): a package of the method's name stays (`org.jsoup.select`); a field of the name is no call.
  await ws.write(
    'src/org/jsoup/select/Collector.java',
    'package org.jsoup.select;\n\npublic class Collector {}\n',
  );
  await ws.write(
    'src/org/jsoup/nodes/Node.java',
    'package org.jsoup.nodes;\n\nimport org.jsoup.select.Collector;\n\npublic class Node {\n  String tagName;\n  public Node select(String q) {\n    return this;\n  }\n  Node first() {\n    return select("a").select(tagName);\n  }\n}\n',
  );
  const select = await run(renameSymbolTool, {
    name: 'select',
    path: 'src/org/jsoup/nodes/Node.java',
    new_name: 'query',
  });
  expect(select.success).toBe(true);
  const node = await ws.read('src/org/jsoup/nodes/Node.java');
  expect(node).toContain('import org.jsoup.select.Collector;');
  expect(node).toContain('return query("a").query(tagName);');
  // A type: a file importing another package's type of that name keeps it; an import through the class is renamed.
  await ws.write(
    'src/org/jsoup/nodes/Doc.java',
    'package org.jsoup.nodes;\n\npublic class Doc {\n  public static class Settings {}\n}\n',
  );
  await ws.write(
    'src/org/w3c/W3C.java',
    'package org.w3c;\n\nimport org.w3c.dom.Doc;\n\nclass W3C {\n  Doc d;\n}\n',
  );
  await ws.write(
    'src/org/jsoup/parser/P.java',
    'package org.jsoup.parser;\n\nimport static org.jsoup.nodes.Doc.Settings;\n\nclass P {}\n',
  );
  const doc = await run(renameSymbolTool, {
    name: 'Doc',
    path: 'src/org/jsoup/nodes/Doc.java',
    new_name: 'HtmlDoc',
  });
  expect(doc.success).toBe(true);
  expect(await ws.read('src/org/w3c/W3C.java')).toContain('import org.w3c.dom.Doc;\n\nclass W3C {\n  Doc d;');
  expect(await ws.read('src/org/jsoup/parser/P.java')).toContain(
    'import static org.jsoup.nodes.HtmlDoc.Settings;',
  );
  // jsoup: a variable named like the method is no call of it; a name a subclass already has as a method is refused.
  await ws.write(
    'src/jsoup/Node.java',
    'public class Node {\n  public String text() {\n    final String text = "a";\n    return text.trim();\n  }\n  public String attr(String k) {\n    return k;\n  }\n}\n',
  );
  await ws.write(
    'src/jsoup/Element.java',
    'public class Element extends Node {\n  public Object attribute(String k) {\n    return null;\n  }\n}\n',
  );
  const text = await run(renameSymbolTool, {
    name: 'text',
    path: 'src/jsoup/Node.java',
    new_name: 'textContent',
  });
  expect(text.success).toBe(true);
  expect(await ws.read('src/jsoup/Node.java')).toContain(
    'public String textContent() {\n    final String text = "a";\n    return text.trim();',
  );
  const attr = await run(renameSymbolTool, {
    name: 'attr',
    path: 'src/jsoup/Node.java',
    new_name: 'attribute',
  });
  expect(attr.success).toBe(false);
  expect(attr.error).toContain('attribute is already defined in src/jsoup/Element.java (Element.attribute)');
  // An override and what it overrides are one method; a receiver read through an inherited method's type.
  await ws.write(
    'src/up/Base.java',
    'public class Base {\n  public String normalName() {\n    return "";\n  }\n}\n',
  );
  await ws.write(
    'src/up/Elem.java',
    'public class Elem extends Base {\n  @Override public String normalName() {\n    return "e";\n  }\n}\n',
  );
  await ws.write(
    'src/up/Tree.java',
    'import java.util.*;\npublic class Tree {\n  final ArrayList<Elem> stack = new ArrayList<>();\n  Map<String, Token> tokens;\n  Elem current() {\n    return null;\n  }\n}\n',
  );
  // An element of a JDK container, read through an inherited field's type arguments.
  await ws.write(
    'src/up/HtmlTree.java',
    'class HtmlTree extends Tree {\n  Elem last;\n  String f(HtmlTree tb) {\n    return tb.current().normalName();\n  }\n  String g(int i) {\n    return stack.get(i).normalName() + tokens.get("a").normalName();\n  }\n}\n',
  );
  await ws.write('src/up/Token.java', 'class Token {\n  String normalName() {\n    return "t";\n  }\n}\n');
  const up = await run(renameSymbolTool, {
    name: 'normalName',
    path: 'src/up/Elem.java',
    new_name: 'normName',
  });
  expect(up.success).toBe(true);
  expect(await ws.read('src/up/Base.java')).toContain('public String normName()');
  expect(await ws.read('src/up/HtmlTree.java')).toContain('return tb.current().normName();');
  expect(await ws.read('src/up/HtmlTree.java')).toContain(
    'return stack.get(i).normName() + tokens.get("a").normalName();',
  );
  expect(await ws.read('src/up/Token.java')).toContain('String normalName()');
  // A nested class of the new name in a file the rename changes would take its uses.
  await ws.write('src/TypeAdapter.java', 'public abstract class TypeAdapter<T> {}\n');
  await ws.write(
    'src/MapFactory.java',
    'final class MapFactory {\n  private final class Adapter extends TypeAdapter<Object> {}\n}\n',
  );
  const clash = await run(renameSymbolTool, {
    name: 'TypeAdapter',
    path: 'src/TypeAdapter.java',
    new_name: 'Adapter',
  });
  expect(clash.success).toBe(false);
  expect(clash.error).toContain('Adapter is already defined in src/MapFactory.java (MapFactory.Adapter)');
  expect(await ws.read('src/TypeAdapter.java')).toBe('public abstract class TypeAdapter<T> {}\n');
});

/** Two types with a same-named member each, and a use of each: the shapes of mux, log and gson. */
const qualifiedCases: {
  lang: string;
  files: Record<string, string>;
  name: string;
  inspect: string;
  references: string[];
  renamed: Record<string, string>;
}[] = [
  {
    lang: 'go (mux)',
    files: {
      'go.mod': 'module example.com/mux\n\ngo 1.21\n',
      'mux.go':
        'package mux\n\ntype Router struct{}\n\ntype Route struct{}\n\nfunc (r *Router) Handle(path string) *Route {\n\treturn &Route{}\n}\n\nfunc (r *Route) Handle(path string) *Route {\n\treturn r\n}\n',
      'use.go':
        'package mux\n\nfunc use() {\n\tr := &Router{}\n\tvar rt *Route\n\trt = r.Handle("/")\n\trt.Handle("/x")\n}\n',
    },
    name: 'Router.Handle',
    inspect: 'method Handle (in Router) at mux.go:7-9',
    references: ['mux.go:7:18 (definition)', 'use.go:6:9'],
    renamed: {
      'mux.go':
        'package mux\n\ntype Router struct{}\n\ntype Route struct{}\n\nfunc (r *Router) Register(path string) *Route {\n\treturn &Route{}\n}\n\nfunc (r *Route) Handle(path string) *Route {\n\treturn r\n}\n',
      'use.go':
        'package mux\n\nfunc use() {\n\tr := &Router{}\n\tvar rt *Route\n\trt = r.Register("/")\n\trt.Handle("/x")\n}\n',
    },
  },
  {
    lang: 'rust (log)',
    files: {
      'Cargo.toml': '[package]\nname = "log"\n',
      'src/lib.rs':
        "pub struct Record<'a> {\n    args: &'a str,\n}\npub struct RecordBuilder<'a> {\n    record: Record<'a>,\n}\nimpl<'a> Record<'a> {\n    pub fn args(&self) -> &'a str {\n        self.args\n    }\n}\nimpl<'a> RecordBuilder<'a> {\n    pub fn args(&mut self, args: &'a str) -> &mut RecordBuilder<'a> {\n        self\n    }\n}\npub fn show(r: &Record, b: &mut RecordBuilder) -> usize {\n    b.args(\"x\");\n    r.args().len()\n}\n",
    },
    name: 'Record.args',
    inspect: 'method args (in Record) at src/lib.rs:8-10',
    references: ['src/lib.rs:8:12 (definition)', 'src/lib.rs:19:7'],
    renamed: {
      'src/lib.rs':
        "pub struct Record<'a> {\n    args: &'a str,\n}\npub struct RecordBuilder<'a> {\n    record: Record<'a>,\n}\nimpl<'a> Record<'a> {\n    pub fn Register(&self) -> &'a str {\n        self.args\n    }\n}\nimpl<'a> RecordBuilder<'a> {\n    pub fn args(&mut self, args: &'a str) -> &mut RecordBuilder<'a> {\n        self\n    }\n}\npub fn show(r: &Record, b: &mut RecordBuilder) -> usize {\n    b.args(\"x\");\n    r.Register().len()\n}\n",
    },
  },
  {
    lang: 'java (gson)',
    files: {
      'src/TypeAdapter.java':
        'public abstract class TypeAdapter<T> {\n  public final TypeAdapter<T> nullSafe() {\n    return this;\n  }\n}\n',
      'src/Other.java':
        'public class Other {\n  public Other nullSafe() {\n    return this;\n  }\n  void use(TypeAdapter<String> a) {\n    a.nullSafe();\n    this.nullSafe();\n  }\n}\n',
    },
    name: 'TypeAdapter.nullSafe',
    inspect: 'method nullSafe (in TypeAdapter) at src/TypeAdapter.java:2-4',
    references: ['src/Other.java:6:7', 'src/TypeAdapter.java:2:31 (definition)'],
    renamed: {
      'src/TypeAdapter.java':
        'public abstract class TypeAdapter<T> {\n  public final TypeAdapter<T> Register() {\n    return this;\n  }\n}\n',
      'src/Other.java':
        'public class Other {\n  public Other nullSafe() {\n    return this;\n  }\n  void use(TypeAdapter<String> a) {\n    a.Register();\n    this.nullSafe();\n  }\n}\n',
    },
  },
];

test.each(qualifiedCases)(
  "Class.member names that type's member alone in inspect_symbol, find_references and rename_symbol, by name: $lang",
  async ({ files, name, inspect, references, renamed }) => {
    for (const [file, content] of Object.entries(files)) await ws.write(file, content);
    const inspected = await run(inspectSymbolTool, { name });
    expect(inspected.success, inspected.error).toBe(true);
    expect(inspected.output.split('\n')[0]).toBe(inspect);
    const found = await run(findReferencesTool, { name });
    expect(found.success, found.error).toBe(true);
    expect(
      found.output
        .split('\n')
        .filter((l) => !l.startsWith('('))
        .map((l) => l.split(': ')[0]),
    ).toEqual(references);
    const result = await run(renameSymbolTool, { name, new_name: 'Register' });
    expect(result.success, result.error).toBe(true);
    for (const [file, content] of Object.entries(renamed)) expect(await ws.read(file)).toBe(content);
  },
);

test('Class.member: a type without that member, or two files defining it, is said so', async () => {
  await ws.write('a.py', 'class Scaffold:\n    def get(self, rule):\n        return rule\n');
  await ws.write('b.py', 'class Scaffold:\n    def get(self, rule):\n        return rule\n');
  const missing = await run(findReferencesTool, { name: 'Scaffold.post' });
  expect(missing.error).toBe('no definition of Scaffold.post; try search_code');
  const two = await run(renameSymbolTool, { name: 'Scaffold.get', new_name: 'fetch' });
  expect(two.error).toBe('Scaffold.get is defined in 2 files (a.py:2, b.py:2); give path');
  const one = await run(renameSymbolTool, { name: 'Scaffold.get', path: 'b.py', new_name: 'fetch' });
  expect(one.success, one.error).toBe(true);
  expect(await ws.read('b.py')).toContain('def fetch(self, rule):');
  expect(await ws.read('a.py')).toContain('def get(self, rule):');
});

test('occurrence picks the definition the nth occurrence is on, as line does; by name, one among several it cannot tell is refused (log)', async () => {
  const lib = [
    '//! A use in the docs: `record.args()`.',
    "pub struct Record<'a> {",
    "    args: &'a str,",
    '}',
    "pub struct RecordBuilder<'a> {",
    "    record: Record<'a>,",
    '}',
    "impl<'a> Record<'a> {",
    "    pub fn args(&self) -> &'a str {",
    '        self.args',
    '    }',
    '}',
    "impl<'a> RecordBuilder<'a> {",
    "    pub fn args(&mut self, a: &'a str) -> &mut RecordBuilder<'a> {",
    '        self',
    '    }',
    '}',
    '',
  ].join('\n');
  await ws.write('Cargo.toml', '[package]\nname = "log"\n');
  await ws.write('src/lib.rs', lib);
  // The first occurrence is the docs' mention: no definition, and the file has two.
  const first = await run(renameSymbolTool, {
    name: 'args',
    new_name: 'arguments',
    path: 'src/lib.rs',
    occurrence: 1,
  });
  expect(first.success).toBe(false);
  expect(first.error).toBe(
    "src/lib.rs:1 is no definition of args, and by name (no language service for this file) it cannot tell which of the file's 2 definitions it means: src/lib.rs:9 (Record.args), src/lib.rs:14 (RecordBuilder.args); give the line of one, or name it Class.args",
  );
  expect(await ws.read('src/lib.rs')).toBe(lib);
  // The third is Record's `fn args`, on line 9: that one alone, as `line: 9` renames it.
  const third = await run(renameSymbolTool, {
    name: 'args',
    new_name: 'arguments',
    path: 'src/lib.rs',
    occurrence: 3,
  });
  expect(third.success, third.error).toBe(true);
  const after = await ws.read('src/lib.rs');
  expect(after).toContain("    pub fn arguments(&self) -> &'a str {");
  expect(after).toContain("    pub fn args(&mut self, a: &'a str) -> &mut RecordBuilder<'a> {");
  await ws.write('src/lib.rs', lib);
  await run(renameSymbolTool, { name: 'args', new_name: 'arguments', path: 'src/lib.rs', line: 9 });
  expect(await ws.read('src/lib.rs')).toBe(after);
});

test('rename_symbol refuses a name that is already defined in a file it would change', async () => {
  await ws.write('a.ts', 'export function one() {}\nexport function two() { one(); }\n');
  const result = await run(renameSymbolTool, { name: 'one', new_name: 'two' });
  expect(result.success).toBe(false);
  expect(result.error).toMatch(/already defined in a\.ts/);
  expect(await ws.read('a.ts')).toContain('one()');
});

test('build_dependency_graph reports an import cycle', async () => {
  await ws.write('src/a.ts', "import { b } from './b.js';\nexport const a = () => b();\n");
  await ws.write('src/b.ts', "import { c } from './c';\nexport const b = () => c();\n");
  await ws.write('src/c/index.ts', "import { a } from '../a';\nexport const c = () => a();\n");
  await ws.write('src/d.ts', "import { a } from './a';\nimport fs from 'node:fs';\nexport const d = a;\n");
  const result = await run(buildDependencyGraphTool, {});
  expect(result.metadata.cycles).toBe(1);
  expect(result.output).toContain('src/a.ts → src/b.ts → src/c/index.ts → src/a.ts');
  expect(result.output).toContain('external: node:fs (1)');
});

test('build_dependency_graph lists real cycles of a group of files that import each other, never one loop through them all', async () => {
  // c→d→e→c and d→e→f→d: f does not import c, so c → d → e → f → c is no cycle.
  const files: Record<string, string[]> = {
    a: ['b'],
    b: ['a'],
    c: ['d', 'a'],
    d: ['e'],
    e: ['c', 'f'],
    f: ['d'],
  };
  for (const [file, imports] of Object.entries(files))
    await ws.write(
      `src/${file}.ts`,
      `${imports.map((i) => `import { ${i} } from './${i}';\n`).join('')}export const ${file} = 1;\n`,
    );
  const result = await run(buildDependencyGraphTool, {});
  expect(result.metadata).toMatchObject({ cycles: 3, cyclic_groups: 2 });
  expect(result.output).toContain(
    [
      'cycles (3, in 2 groups of files that import each other):',
      '  src/a.ts → src/b.ts → src/a.ts',
      '  4 files import each other in 2 cycles (src/c.ts, src/d.ts, src/e.ts, src/f.ts):',
      '    src/c.ts → src/d.ts → src/e.ts → src/c.ts',
      '    src/d.ts → src/e.ts → src/f.ts → src/d.ts',
    ].join('\n'),
  );
  expect(result.output).not.toContain('src/f.ts → src/c.ts');
});

test("build_dependency_graph lists a cycle closed only by type-only imports apart, as none at run time (click's core.py ↔ exceptions.py under TYPE_CHECKING, changesets' `import type`)", async () => {
  await ws.write('pkg/__init__.py', '');
  await ws.write('pkg/core.py', 'from .exceptions import UsageError\n\nclass Command:\n    pass\n');
  await ws.write(
    'pkg/exceptions.py',
    'import typing as t\n\nif t.TYPE_CHECKING:\n    from .core import Command\n\nclass UsageError(Exception):\n    pass\n',
  );
  await ws.write(
    'src/plan.ts',
    "import { tool } from './tool';\nexport type Entry = { n: number };\nexport const plan = tool;\n",
  );
  await ws.write(
    'src/tool.ts',
    "import type { Entry } from './plan';\nexport const tool = (e: Entry) => e.n;\n",
  );
  await ws.write('src/x.ts', "import { y } from './y';\nexport const x = () => y();\n");
  await ws.write('src/y.ts', "import { x } from './x';\nexport const y = () => x();\n");
  const result = await run(buildDependencyGraphTool, {});
  expect(result.metadata).toMatchObject({ cycles: 1, type_only_cycles: 2 });
  expect(result.output).toContain(
    [
      'cycles (1):',
      '  src/x.ts → src/y.ts → src/x.ts',
      'type-only cycles (2, closed by `import type` or `if TYPE_CHECKING:` imports, which do not run):',
      '  pkg/core.py → pkg/exceptions.py → pkg/core.py',
      '  src/plan.ts → src/tool.ts → src/plan.ts',
    ].join('\n'),
  );
  // The graph itself still shows every import.
  expect(result.output).toContain('pkg/exceptions.py → pkg/core.py');
});

test('the tag cache parses only new or changed files on the next load', async () => {
  const cacheDir = path.join(ws.base, 'cache');
  await ws.write('a.ts', 'export const a = 1;\n');
  await ws.write('b.py', 'def b():\n    pass\n');
  const first = await loadCodeIndex(ws.root, { cacheDir });
  expect(first.stats).toMatchObject({ files: 2, parsed: 2 });
  const second = await loadCodeIndex(ws.root, { cacheDir });
  expect(second.stats).toMatchObject({ files: 2, parsed: 0, hashed: 0 });
  // Touched but unchanged content: hashed again, not parsed.
  const later = new Date(Date.now() + 5000);
  await fs.utimes(path.join(ws.root, 'a.ts'), later, later);
  await ws.write('b.py', 'def b2():\n    pass\n');
  const third = await loadCodeIndex(ws.root, { cacheDir });
  expect(third.stats).toMatchObject({ files: 2, parsed: 1, hashed: 2 });
  expect(third.files.get('b.py')!.definitions.map((d) => d.name)).toEqual(['b2']);
  const manifest = JSON.parse(await fs.readFile(cacheFileFor(cacheDir, ws.root), 'utf8'));
  expect(Object.keys(manifest.manifest).sort()).toEqual(['a.ts', 'b.py']);
});

test('node_modules, build output and gitignored files are not indexed', async () => {
  await ws.write('.gitignore', 'generated/\n');
  await ws.write('src/a.ts', 'export const a = 1;\n');
  await ws.write('node_modules/x/index.js', 'export const x = 1;\n');
  await ws.write('dist/a.js', 'export const a = 1;\n');
  await ws.write('generated/g.ts', 'export const g = 1;\n');
  const index = await loadCodeIndex(ws.root);
  expect([...index.files.keys()]).toEqual(['src/a.ts']);
});

test('organize_imports sorts, merges duplicates and drops unused names in TypeScript', async () => {
  await ws.write(
    'a.ts',
    "import { z, y } from './z.js';\nimport fs from 'node:fs';\nimport { unused } from 'lib';\nimport { x } from './z.js';\n\nexport const v = [x, y, fs];\n",
  );
  const args = organizeImportsTool.schema.parse({ path: 'a.ts' });
  const preview = await organizeImportsTool.preview!(args, ws.ctx);
  expect(preview.diff).toContain("-import { unused } from 'lib';");
  const result = await run(organizeImportsTool, args);
  expect(result.success).toBe(true);
  expect(await ws.read('a.ts')).toBe(
    "import fs from 'node:fs';\nimport { x, y } from './z.js';\n\nexport const v = [x, y, fs];\n",
  );
  // A file with CRLF line ends keeps them, and the blank line after its imports stays one.
  await ws.write(
    'b.ts',
    "import { b } from './b';\r\nimport { a } from './a';\r\n\r\nexport const x = a + b;\r\n",
  );
  await run(organizeImportsTool, { path: 'b.ts' });
  expect(await ws.read('b.ts')).toBe(
    "import { a } from './a';\r\nimport { b } from './b';\r\n\r\nexport const x = a + b;\r\n",
  );
});

test("organize_imports keeps the file's own layout: imports it does not change as written, the list's order, wrapping past the formatter's width (hono)", async () => {
  await ws.write('hono/.prettierrc', JSON.stringify({ printWidth: 40, semi: false }));
  await ws.write(
    'hono/src/base.ts',
    [
      "import { compose } from './compose'",
      "import { METHODS, METHOD_NAME_ALL, METHOD_NAME_ALL_LOWERCASE } from './router'",
      'import type {',
      '  Env,',
      '  ErrorHandler,',
      '  H,',
      "} from './types'",
      "import { Alpha, Beta, Gamma, Delta, Unused } from './greek'",
      '',
      'export const all: unknown[] = [compose, METHODS, METHOD_NAME_ALL, METHOD_NAME_ALL_LOWERCASE]',
      'export type T = Env | ErrorHandler | H',
      'export const g = [Alpha, Beta, Gamma, Delta]',
      '',
    ].join('\n'),
  );
  const result = await run(organizeImportsTool, { path: 'hono/src/base.ts' });
  expect(result.success).toBe(true);
  expect((await ws.read('hono/src/base.ts')).split('\n').slice(0, 14)).toEqual([
    "import { compose } from './compose'",
    // Changed (a name dropped, the rest sorted by code unit as most of the file's lists are): wrapped past 40 columns.
    'import {',
    '  Alpha,',
    '  Beta,',
    '  Delta,',
    '  Gamma,',
    "} from './greek'",
    // Unchanged: as written, one line (81 columns, as the file had it) and three.
    "import { METHODS, METHOD_NAME_ALL, METHOD_NAME_ALL_LOWERCASE } from './router'",
    'import type {',
    '  Env,',
    '  ErrorHandler,',
    '  H,',
    "} from './types'",
    '',
  ]);
});

test('organize_imports wraps past the width .editorconfig sets for the file, in the section matching it', async () => {
  await ws.write(
    'ec/.editorconfig',
    'root = true\n\n[*]\nmax_line_length = 120\n\n[*.{ts,tsx}]\nmax_line_length = 40\n',
  );
  await ws.write(
    'ec/src/g.ts',
    "import { Delta, Alpha, Beta, Gamma, Unused } from './greek';\n\nexport const g = [Alpha, Beta, Gamma, Delta];\n",
  );
  await run(organizeImportsTool, { path: 'ec/src/g.ts' });
  expect((await ws.read('ec/src/g.ts')).split('\n').slice(0, 7)).toEqual([
    'import {',
    '  Alpha,',
    '  Beta,',
    '  Delta,',
    '  Gamma,',
    "} from './greek';",
    '',
  ]);
});

test("organize_imports sorts a Python module's imports in sections, the project's own packages apart", async () => {
  await ws.write('pyproject.toml', '[project]\nname = "shop"\n\n[tool.ruff]\nline-length = 100\n');
  await ws.write('src/shop/__init__.py', '');
  await ws.write('src/shop/models.py', 'class Cart:\n    pass\n');
  await ws.write(
    'src/shop/cli.py',
    'from shop.models import Cart\nimport click\nimport os\nimport sys\n\n\ndef main():\n    click.echo(os.getcwd(), Cart())\n',
  );
  const result = await run(organizeImportsTool, { path: 'src/shop/cli.py' });
  expect(result.success).toBe(true);
  expect(await ws.read('src/shop/cli.py')).toBe(
    'import os\n\nimport click\n\nfrom shop.models import Cart\n\n\ndef main():\n    click.echo(os.getcwd(), Cart())\n',
  );
});

test('organize_imports sorts Dart imports (dart:, package:, relative) and drops an unused prefix', async () => {
  await ws.write(
    'lib/a.dart',
    "import 'b.dart';\nimport 'package:shop/c.dart' as c;\nimport 'dart:math';\nimport 'b.dart';\n\nint f() => max(1, 2);\n",
  );
  const result = await run(organizeImportsTool, { path: 'lib/a.dart' });
  expect(result.success).toBe(true);
  expect(await ws.read('lib/a.dart')).toBe(
    "import 'dart:math';\nimport 'b.dart';\n\nint f() => max(1, 2);\n",
  );
});

test("organize_imports drops a Dart import of a file already imported by another URI, and the project's libraries none of whose names appears; says what it could not check (ws-dart)", async () => {
  await ws.write('pubspec.yaml', "name: demo\nenvironment:\n  sdk: '>=3.0.0 <4.0.0'\n");
  await ws.write(
    'lib/src/counter.dart',
    'class Counter {\n  int value = 0;\n  void increment() => value++;\n}\n\nint total(List<Counter> cs) => cs.length;\n',
  );
  await ws.write('lib/src/format.dart', "String label(int n) => '$n';\n");
  // A barrel: its names are those it exports.
  await ws.write('lib/src/src.dart', "export 'counter.dart' show Counter;\nexport 'format.dart';\n");
  await ws.write(
    'lib/src/view.dart',
    [
      "import 'dart:math';",
      "import 'package:demo/src/counter.dart';",
      "import 'dart:async';",
      "import 'counter.dart';",
      "import 'format.dart';",
      "import 'package:collection/collection.dart';",
      "import 'dart:io';",
      '',
      'void show() {',
      '  final c = Counter();',
      "  final Counter = 'Counter'; // shadowing local and a string",
      '  print(max(1, total([c])));',
      '}',
      '',
    ].join('\n'),
  );
  const result = await run(organizeImportsTool, { path: 'lib/src/view.dart' });
  expect(result.success, result.error).toBe(true);
  expect(await ws.read('lib/src/view.dart')).toMatch(
    /^import 'dart:async';\nimport 'dart:io';\nimport 'dart:math';\nimport 'package:collection\/collection.dart';\nimport 'package:demo\/src\/counter.dart';\n\nvoid show/,
  );
  expect(result.output.split('\n')).toEqual([
    'organized imports of lib/src/view.dart',
    "dropped 'counter.dart': the same file as 'package:demo/src/counter.dart'",
    "dropped 'format.dart': unused (by name: none of the names it gives appears)",
    "(imports checked for use by name, no Dart analysis server here: 'package:demo/src/counter.dart' is used; not checked: 'dart:math', 'dart:async', 'dart:io' (the SDK's), 'package:collection/collection.dart' (another package's))",
  ]);
  // Through a barrel: only what it exports counts (label, Counter; total is not shown).
  await ws.write('lib/main.dart', "import 'src/src.dart';\n\nint n() => total([]);\n");
  const barrel = await run(organizeImportsTool, { path: 'lib/main.dart' });
  expect(await ws.read('lib/main.dart')).toBe('int n() => total([]);\n');
  expect(barrel.output).toContain("dropped 'src/src.dart': unused");
});

test('create_barrel writes index.ts exporting the public modules of a directory', async () => {
  await ws.write('src/models/user.ts', 'export interface User { id: string }\n');
  await ws.write('src/models/order.ts', "import { x } from './user.js';\nexport class Order {}\n");
  await ws.write('src/models/internal.ts', 'const hidden = 1;\n');
  await ws.write('src/models/user.test.ts', 'export const t = 1;\n');
  const args = createBarrelTool.schema.parse({ dir: 'src/models' });
  const preview = await createBarrelTool.preview!(args, ws.ctx);
  expect(preview.writes).toEqual([path.join(ws.root, 'src/models/index.ts')]);
  const result = await run(createBarrelTool, args);
  expect(result.success).toBe(true);
  expect(await ws.read('src/models/index.ts')).toBe(
    "export * from './order.js';\nexport * from './user.js';\n",
  );
});

test("create_barrel never replaces an index.ts with code of its own (p-queue's source/index.ts holds the PQueue class); a barrel of its own lines is refreshed, its header kept", async () => {
  await ws.write('source/queue.ts', 'export interface Queue {\n  size: number;\n}\n');
  await ws.write('source/options.ts', 'export type Options = { concurrency: number };\n');
  const main =
    "import type { Queue } from './queue.js';\n\nexport default class PQueue {\n  queue?: Queue;\n}\n";
  await ws.write('source/index.ts', main);
  const refused = await run(createBarrelTool, { dir: 'source' });
  expect(refused.success).toBe(false);
  expect(refused.error).toBe(
    "source/index.ts already exists with more than `export *` lines (line 1: import type { Queue } from './queue.js';); create_barrel would replace it: add the exports it lacks with edit_file instead",
  );
  expect(await ws.read('source/index.ts')).toBe(main);
  // An alias of its own is kept by refusing too.
  await ws.write('source/index.ts', "export { Queue as Q } from './queue.js';\n");
  expect((await run(createBarrelTool, { dir: 'source' })).success).toBe(false);
  await ws.write('source/index.ts', "// SPDX-License-Identifier: MIT\n\nexport * from './queue.js';\n");
  const refreshed = await run(createBarrelTool, { dir: 'source' });
  expect(refreshed.success, refreshed.error).toBe(true);
  expect(await ws.read('source/index.ts')).toBe(
    "// SPDX-License-Identifier: MIT\n\nexport * from './options.js';\nexport * from './queue.js';\n",
  );
});

test('create_barrel in a JavaScript directory writes index.js naming each file as it is, and never an index.ts beside an index.js', async () => {
  await ws.write('lib/a.js', 'export function a() {}\n');
  await ws.write('lib/b.mjs', 'export function b() {}\n');
  const result = await run(createBarrelTool, { dir: 'lib' });
  expect(result.success, result.error).toBe(true);
  expect(await ws.read('lib/index.js')).toBe("export * from './a.js';\nexport * from './b.mjs';\n");
  await ws.write('lib/index.js', "import { a } from './a.js';\nexport const main = () => a();\n");
  await ws.write('lib/c.ts', 'export const c = 1;\n');
  expect((await run(createBarrelTool, { dir: 'lib' })).error).toContain('lib/index.js already exists');
  await expect(ws.read('lib/index.ts')).rejects.toThrow();
});

test("organize_imports follows the project's lines-between-types (attrs' [tool.ruff.lint.isort]): `import x` lines, a blank line, then `from x import` lines", async () => {
  await ws.write(
    'pyproject.toml',
    '[tool.ruff.lint.isort]\nlines-between-types = 1\nlines-after-imports = 2\n',
  );
  const source =
    'import sys\nimport threading\n\nfrom collections.abc import Mapping\nfrom typing import Callable\n\nimport pytest\n\nfrom hypothesis import given\n\n\nx = (sys, threading, Mapping, Callable, pytest, given)\n';
  await ws.write('src/attr/_compat.py', source);
  const result = await run(organizeImportsTool, { path: 'src/attr/_compat.py' });
  expect(result.success, result.error).toBe(true);
  expect(await ws.read('src/attr/_compat.py')).toBe(source);
});

test("create_barrel names modules as the project's imports do: `./base.ts` where they name the source (ofetch, NodeNext with allowImportingTsExtensions), no extension where they use none", async () => {
  await ws.write(
    'src/index.ts',
    'import { createFetch } from "./base.ts";\nexport const f = createFetch();\n',
  );
  await ws.write('src/base.ts', 'import { x } from "./lib/a-one.ts";\nexport const createFetch = () => x;\n');
  await ws.write('src/lib/a-one.ts', 'export const x = 1;\n');
  await ws.write('src/lib/view.tsx', 'export const View = () => null;\n');
  expect((await run(createBarrelTool, { dir: 'src/lib' })).success).toBe(true);
  expect(await ws.read('src/lib/index.ts')).toBe(
    "export * from './a-one.ts';\nexport * from './view.tsx';\n",
  );
  await ws.write(
    'app/main.ts',
    "import { y } from './y';\nimport { z } from './z';\nexport const m = y + z;\n",
  );
  await ws.write('app/y.ts', 'export const y = 1;\n');
  await ws.write('app/z.ts', "import './styles.css';\nexport const z = 1;\n");
  await ws.write('src/base.ts', 'export const createFetch = () => 1;\n');
  await ws.write('src/index.ts', 'export const f = 1;\n');
  await ws.write('src/lib/index.ts', 'export const i = 1;\n');
  expect((await run(createBarrelTool, { dir: 'app' })).success).toBe(true);
  expect(await ws.read('app/index.ts')).toBe(
    "export * from './main';\nexport * from './y';\nexport * from './z';\n",
  );
});

test('create_barrel on a directory that is not there says so (and on a file, that it is one)', async () => {
  await ws.write('src/a.ts', 'export const a = 1;\n');
  const missing = await run(createBarrelTool, { dir: 'src/nope' });
  expect(missing.error).toMatch(/^no such file or directory: src\/nope/);
  expect((await run(createBarrelTool, { dir: 'src/a.ts' })).error).toBe(
    'src/a.ts is a file; give the directory whose modules the barrel exports',
  );
});

test('create_barrel writes <dir>.dart for a Dart directory', async () => {
  await ws.write('lib/src/models/user.dart', 'class User {}\n');
  await ws.write('lib/src/models/_private.dart', 'class Hidden {}\n');
  const result = await run(createBarrelTool, { dir: 'lib/src/models' });
  expect(result.success).toBe(true);
  expect(await ws.read('lib/src/models/models.dart')).toBe("export 'user.dart';\n");
});
