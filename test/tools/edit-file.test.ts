// edit_file on real files: exact and tolerant matches, the nearest-region error, multi-edit all or none, and a file's
// shape (CRLF, final newline, BOM) kept.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { editFileTool } from '../../src/tools/edit-file.js';
import type { ToolResult } from '../../src/tools/tool.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await makeWorkspace();
});

afterEach(async () => {
  await ws.cleanup();
});

/** Runs edit_file as the executor does: a preview that throws becomes the error result. */
async function edit(args: Record<string, unknown>): Promise<ToolResult> {
  const parsed = editFileTool.schema.parse(args);
  return editFileTool.execute(parsed, ws.ctx);
}

const source = ['function greet(name) {', "  const text = 'hi ' + name;", '  return text;', '}', ''].join(
  '\n',
);

describe('edit_file', () => {
  test('replaces a unique exact match and reports the change', async () => {
    await ws.write('a.js', source);
    const result = await edit({
      path: 'a.js',
      old_string: 'return text;',
      new_string: 'return text.trim();',
    });
    expect(result.success).toBe(true);
    expect(result.output).toBe('edited a.js (+1 -1): 1 replacement');
    expect(result.display).toContain('-  return text;\n+  return text.trim();');
    expect(await ws.read('a.js')).toBe(source.replace('return text;', 'return text.trim();'));
  });

  test('a miss shows the nearest region with line numbers and leaves the file alone', async () => {
    await ws.write('a.js', source);
    const result = await edit({ path: 'a.js', old_string: "const txt = 'hello ' + name;", new_string: 'x' });
    expect(result.success).toBe(false);
    expect(result.error).toContain('cannot edit a.js: old_string not found.');
    expect(result.error).toMatch(/Nearest region \(lines 2-2, \d+% similar\):/);
    expect(result.error).toContain(
      "1| function greet(name) {\n2|   const text = 'hi ' + name;\n3|   return text;",
    );
    expect(await ws.read('a.js')).toBe(source);
  });

  test('a miss with nothing similar says so', async () => {
    await ws.write('a.js', source);
    const result = await edit({ path: 'a.js', old_string: 'zzzz qqqq', new_string: 'x' });
    expect(result.error).toContain('No similar region found');
  });

  test('several exact matches need replace_all, which replaces them all', async () => {
    await ws.write('a.txt', 'x = 1\ny = 2\nx = 1\n');
    const twice = await edit({ path: 'a.txt', old_string: 'x = 1', new_string: 'x = 3' });
    expect(twice.error).toContain('old_string matches 2 times:\n  line 1: x = 1\n  line 3: x = 1\n');
    const all = await edit({ path: 'a.txt', old_string: 'x = 1', new_string: 'x = 3', replace_all: true });
    expect(all.output).toContain('2 replacements');
    expect(await ws.read('a.txt')).toBe('x = 3\ny = 2\nx = 3\n');
  });

  test('falls back to a whitespace-tolerant match, re-indents new_string and says it did', async () => {
    await ws.write(
      'a.py',
      'class A:\n    def f(self):\n        return  1\n\n    def g(self):\n        pass\n',
    );
    const result = await edit({
      path: 'a.py',
      old_string: 'def f(self):\n    return 1',
      new_string: 'def f(self):\n    value = 1\n    return value',
    });
    expect(result.success).toBe(true);
    expect(result.output).toContain(
      'matched only ignoring indentation and whitespace (lines 2-3); new_string was re-indented by +4 columns',
    );
    expect(result.metadata.tolerant).toBe(true);
    expect(await ws.read('a.py')).toBe(
      'class A:\n    def f(self):\n        value = 1\n        return value\n\n    def g(self):\n        pass\n',
    );
  });

  test('Python: new_string already at the file indentation is written as is, and says so', async () => {
    await ws.write('a.py', 'class A:\n    def f(self):\n        return 1\n');
    const result = await edit({
      path: 'a.py',
      old_string: 'def f(self):\n    return 1',
      new_string: '    def f(self):\n        value = 1\n        return value',
    });
    expect(result.output).toContain("new_string was already at the file's indentation and kept as written");
    expect(await ws.read('a.py')).toBe(
      'class A:\n    def f(self):\n        value = 1\n        return value\n',
    );
  });

  test('an omission placeholder in new_string is refused and the file left alone', async () => {
    await ws.write('a.js', source);
    const result = await edit({
      path: 'a.js',
      old_string: "  const text = 'hi ' + name;\n  return text;",
      new_string: '  // ... rest of code',
    });
    expect(result.error).toContain('cannot edit a.js: new_string has an omission placeholder');
    expect(await ws.read('a.js')).toBe(source);
  });

  test('an edit that would break the syntax is refused with the region and the file left alone', async () => {
    await ws.write('a.py', 'def f():\n    x = 1\n    return x\n');
    const result = await edit({ path: 'a.py', old_string: 'x = 1', new_string: 'x = 1\ny = 2' });
    expect(result.error).toContain(
      'cannot edit a.py: the edit would leave a problem the file does not have now: unexpected indent (line 4)',
    );
    expect(result.error).toContain('3| y = 2\n4|     return x');
    expect(result.error).toContain('The file was not changed.');
    expect(await ws.read('a.py')).toBe('def f():\n    x = 1\n    return x\n');
  });

  test('mixed line endings in old_string and new_string follow the file (OpenCode line-ending cases)', async () => {
    await ws.write('lf.txt', 'alpha\nbeta\ngamma\n');
    await edit({ path: 'lf.txt', old_string: 'alpha\nbeta\r\ngamma', new_string: 'alpha\r\nbeta\nomega' });
    expect(await ws.read('lf.txt')).toBe('alpha\nbeta\nomega\n');
    await ws.write('crlf.txt', 'alpha\r\nbeta\r\ngamma\r\n');
    await edit({ path: 'crlf.txt', old_string: 'alpha\r\nbeta\ngamma', new_string: 'alpha\nbeta\r\nomega' });
    expect(await ws.read('crlf.txt')).toBe('alpha\r\nbeta\r\nomega\r\n');
  });

  test('several edits apply in order, or none when one fails', async () => {
    await ws.write('a.js', source);
    const failed = await edit({
      path: 'a.js',
      edits: [
        { old_string: 'greet', new_string: 'welcome' },
        { old_string: 'not in the file at all', new_string: 'x' },
      ],
    });
    expect(failed.success).toBe(false);
    expect(failed.error).toContain('edit 2 of 2: old_string not found');
    expect(failed.error).toContain('No edits were applied.');
    expect(await ws.read('a.js')).toBe(source);

    const applied = await edit({
      path: 'a.js',
      edits: [
        { old_string: 'greet', new_string: 'welcome' },
        // Sees the first edit's result.
        { old_string: 'function welcome(name)', new_string: 'function welcome(name = "you")' },
      ],
    });
    expect(applied.output).toContain('2 replacements');
    expect(await ws.read('a.js')).toContain('function welcome(name = "you") {');
  });

  test('a CRLF file stays CRLF, whichever line endings the model sent', async () => {
    await ws.write('win.txt', 'one\r\ntwo\r\nthree\r\n');
    const result = await edit({
      path: 'win.txt',
      old_string: 'one\ntwo',
      new_string: 'one\nTWO\nand a half',
    });
    expect(result.success).toBe(true);
    expect(await ws.read('win.txt')).toBe('one\r\nTWO\r\nand a half\r\nthree\r\n');
  });

  test('a CR-only file (classic Mac OS) stays CR, whichever line endings the model sent', async () => {
    await ws.write('mac.txt', 'one\rtwo\rthree\r');
    const result = await edit({ path: 'mac.txt', old_string: 'two', new_string: 'TWO\nTWO2' });
    expect(result.success).toBe(true);
    expect(await ws.read('mac.txt')).toBe('one\rTWO\rTWO2\rthree\r');
    await edit({ path: 'mac.txt', old_string: 'one\rTWO', new_string: 'ONE\r\nTWO' });
    expect(await ws.read('mac.txt')).toBe('ONE\rTWO\rTWO2\rthree\r');
    await ws.write('bare-mac.txt', 'a\rb');
    await edit({ path: 'bare-mac.txt', old_string: 'b', new_string: 'b\nc' });
    expect(await ws.read('bare-mac.txt')).toBe('a\rb\rc');
  });

  test('a file with mixed line endings keeps each, a lone CR in an LF file stays a CR', async () => {
    await ws.write('mixed.txt', 'one\r\ntwo\nthree\r\n');
    await edit({ path: 'mixed.txt', old_string: 'two\nthree', new_string: 'TWO\nTHREE\nFOUR' });
    expect(await ws.read('mixed.txt')).toBe('one\r\nTWO\nTHREE\nFOUR\r\n');
    await ws.write('lf-cr.txt', 'a\rb\nc\n');
    await edit({ path: 'lf-cr.txt', old_string: 'a\rb', new_string: 'A\rB' });
    expect(await ws.read('lf-cr.txt')).toBe('A\rB\nc\n');
  });

  test('a file without a final newline keeps none, one with it keeps it', async () => {
    await ws.write('bare.txt', 'a\nb');
    await edit({ path: 'bare.txt', old_string: 'b', new_string: 'c\n' });
    expect(await ws.read('bare.txt')).toBe('a\nc');
    await ws.write('ended.txt', 'a\nb\n');
    await edit({ path: 'ended.txt', old_string: 'b\n', new_string: 'c' });
    expect(await ws.read('ended.txt')).toBe('a\nc\n');
  });

  test('a byte-order mark is kept', async () => {
    await ws.write('bom.txt', '\uFEFFalpha\r\nbeta\r\n');
    await edit({ path: 'bom.txt', old_string: 'beta', new_string: 'gamma' });
    expect(await ws.read('bom.txt')).toBe('\uFEFFalpha\r\ngamma\r\n');
  });

  test('the preview lists the file it writes, with the diff', async () => {
    await ws.write('a.js', source);
    const preview = await editFileTool.preview!(
      editFileTool.schema.parse({ path: 'a.js', old_string: 'return text;', new_string: 'return 1;' }),
      ws.ctx,
    );
    expect(preview.writes).toEqual([`${ws.root}/a.js`]);
    expect(preview.diff).toContain('+  return 1;');
    expect(preview.summary).toBe('edit a.js (+1 -1)');
  });

  test('invalid argument combinations are refused by the schema', () => {
    expect(editFileTool.schema.safeParse({ path: 'a', old_string: 'x' }).success).toBe(false);
    expect(editFileTool.schema.safeParse({ path: 'a' }).success).toBe(false);
    const both = {
      path: 'a',
      old_string: 'x',
      new_string: 'y',
      edits: [{ old_string: 'x', new_string: 'y' }],
    };
    expect(editFileTool.schema.safeParse(both).success).toBe(false);
  });

  test('a file that is not there: an empty old_string (a try at creating it) is sent to write_file, any other edit is told the file is missing', async () => {
    const creating = await edit({ path: 'src/new.ts', old_string: '', new_string: 'export {};\n' });
    expect(creating.error).toBe(
      'cannot edit src/new.ts: there is no such file yet; use write_file to create it',
    );
    const missing = await edit({ path: 'src/new.ts', old_string: 'a', new_string: 'b' });
    expect(missing.error).toMatch(/^no such file or directory: src\/new\.ts/);
    await expect(ws.read('src/new.ts')).rejects.toThrow();
  });

  test('refuses a path outside the workspace', async () => {
    const result = await edit({ path: '../outside.txt', old_string: 'a', new_string: 'b' });
    expect(result.error).toContain('is outside the workspace');
  });
});
