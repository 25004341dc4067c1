// Rust renames by name (no rust-analyzer): a receiver's type read through a `for` loop's tuple pattern and a long
// builder chain, and a call the search cannot judge named in the result (log).
import { expect, test } from 'vitest';
import { findReferencesTool } from '../../src/tools/find-references.js';
import { renameSymbolTool } from '../../src/tools/rename-symbol.js';
import { useToolWorkspace } from '../tools/helpers.js';

const ws = useToolWorkspace();
const { run } = ws;

/** log's shape: Level and LevelFilter both with an as_str, Record and its builder both with a level. */
const LIB = [
  '#[derive(Clone, Copy, PartialEq, Debug)]',
  'pub enum Level {',
  '    Error,',
  '    Warn,',
  '}',
  'impl Level {',
  "    pub fn as_str(&self) -> &'static str {",
  '        "LEVEL"',
  '    }',
  '}',
  'pub enum LevelFilter {',
  '    Off,',
  '}',
  'impl LevelFilter {',
  "    pub fn as_str(&self) -> &'static str {",
  '        "OFF"',
  '    }',
  '}',
  'pub struct Record {',
  '    level: Level,',
  '    line: u32,',
  '}',
  'impl Record {',
  '    pub fn level(&self) -> Level {',
  '        self.level',
  '    }',
  '    pub fn builder() -> RecordBuilder {',
  '        RecordBuilder { record: Record { level: Level::Error, line: 0 } }',
  '    }',
  '}',
  'pub struct RecordBuilder {',
  '    record: Record,',
  '}',
  'impl RecordBuilder {',
  '    pub fn level(&mut self, level: Level) -> &mut RecordBuilder {',
  '        self.record.level = level;',
  '        self',
  '    }',
  '    pub fn line(&mut self, line: u32) -> &mut RecordBuilder {',
  '        self.record.line = line;',
  '        self',
  '    }',
  '    pub fn build(&self) -> Record {',
  '        Record { level: self.record.level, line: self.record.line }',
  '    }',
  '}',
  '#[cfg(test)]',
  'mod tests {',
  '    use super::*;',
  '    #[test]',
  '    fn test_level_as_str() {',
  '        let tests = &[(Level::Error, "ERROR"), (Level::Warn, "WARN")];',
  '        for (input, expected) in tests {',
  '            assert_eq!(*expected, input.as_str());',
  '        }',
  '        for &(input, _) in tests.iter() {',
  '            input.as_str();',
  '        }',
  '    }',
  '    #[test]',
  '    fn test_record_builder() {',
  '        let record_test = Record::builder()',
  '            .line(1)',
  '            .line(2)',
  '            .line(3)',
  '            .line(4)',
  '            .line(5)',
  '            .line(6)',
  '            .level(Level::Error)',
  '            .build();',
  '        assert_eq!(record_test.level(), Level::Error);',
  '    }',
  '    fn unknown<T>(level: T) -> T {',
  '        level',
  '    }',
  '    #[test]',
  '    fn test_unread() {',
  '        let mystery = unknown(Level::Error);',
  '        assert_eq!(mystery.as_str(), "ERROR");',
  '    }',
  '}',
  '',
].join('\n');

test("a receiver bound by a `for` loop's tuple pattern has the element's type (log's `for (input, expected) in tests`)", async () => {
  await ws.write('Cargo.toml', '[package]\nname = "log"\n');
  await ws.write('src/lib.rs', LIB);
  const result = await run(renameSymbolTool, { name: 'Level.as_str', new_name: 'name' });
  expect(result.success).toBe(true);
  const lib = await ws.read('src/lib.rs');
  expect(lib).toContain('assert_eq!(*expected, input.name());');
  expect(lib).toContain('for &(input, _) in tests.iter() {\n            input.name();');
  // LevelFilter's own is another method.
  expect(lib).toContain('impl LevelFilter {\n    pub fn as_str(&self)');
  // A call whose receiver's type it cannot read, while LevelFilter has an as_str too: named by its place.
  expect(lib).toContain('assert_eq!(mystery.as_str(), "ERROR");');
  expect(result.output).toContain(
    "(not renamed: as_str used where the receiver's type could not be read, and other types define as_str too, so by name it cannot tell which: src/lib.rs:79; rename those that mean this one)",
  );
});

test("a builder chain's build() gives the built type, however long the chain (log's Record::builder()…build())", async () => {
  await ws.write('Cargo.toml', '[package]\nname = "log"\n');
  await ws.write('src/lib.rs', LIB);
  const refs = await run(findReferencesTool, { name: 'level', path: 'src/lib.rs', line: 24 });
  expect(refs.output).toContain('src/lib.rs:71:32: assert_eq!(record_test.level(), Level::Error);');
  const result = await run(renameSymbolTool, {
    name: 'level',
    new_name: 'lvl',
    path: 'src/lib.rs',
    line: 24,
  });
  expect(result.success).toBe(true);
  const lib = await ws.read('src/lib.rs');
  expect(lib).toContain('assert_eq!(record_test.lvl(), Level::Error);');
  expect(lib).toContain('            .level(Level::Error)\n            .build();');
  expect(lib).toContain('pub fn level(&mut self, level: Level) -> &mut RecordBuilder {');
});

test("a call through a type parameter bound by the method's trait is renamed (byteorder's `T::read_u16` with `T: ByteOrder`), never one bound by another trait", async () => {
  await ws.write('Cargo.toml', '[package]\nname = "bo"\nversion = "0.1.0"\nedition = "2021"\n');
  await ws.write(
    'src/lib.rs',
    [
      'pub trait ByteOrder {',
      '    fn read_u16(buf: &[u8]) -> u16;',
      '}',
      'pub enum BigEndian {}',
      'impl ByteOrder for BigEndian {',
      '    fn read_u16(buf: &[u8]) -> u16 {',
      '        u16::from(buf[0]) << 8 | u16::from(buf[1])',
      '    }',
      '}',
      'pub trait ReadBytesExt {',
      '    fn read_u16<T: ByteOrder>(&mut self) -> u16 {',
      '        T::read_u16(&[0, 1])',
      '    }',
      '}',
      'pub fn twice<T>(buf: &[u8]) -> u16',
      'where',
      '    T: ByteOrder + Copy,',
      '{',
      '    T::read_u16(buf) * 2',
      '}',
      'pub fn other<R: ReadBytesExt>(r: &mut R) -> u16 {',
      '    r.read_u16::<BigEndian>()',
      '}',
      '',
    ].join('\n'),
  );
  const result = await run(renameSymbolTool, { name: 'ByteOrder.read_u16', new_name: 'read_u16_at' });
  expect(result.output).toContain('renamed ByteOrder.read_u16 to read_u16_at: 4 occurrences in 1 files');
  expect(result.output).not.toContain('receiver');
  const text = await ws.read('src/lib.rs');
  expect(text).toContain('        T::read_u16_at(&[0, 1])');
  expect(text).toContain('    T::read_u16_at(buf) * 2');
  expect(text).toContain('    fn read_u16<T: ByteOrder>(&mut self) -> u16 {');
  expect(text).toContain('    r.read_u16::<BigEndian>()');
});
