// Tests for the file tools against real temp workspaces: list, read, write, mkdir, delete, diff.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createPolicy } from '../../src/safety/policy.js';
import { PathEscapeError } from '../../src/safety/workspace.js';
import { createDirectoryTool } from '../../src/tools/create-directory.js';
import { deletePathTool } from '../../src/tools/delete-path.js';
import { diffFilesTool } from '../../src/tools/diff-files.js';
import { readLineRange } from '../../src/tools/line-range.js';
import { listFilesTool, MAX_LIST_ENTRIES } from '../../src/tools/list-files.js';
import { readFileTool } from '../../src/tools/read-file.js';
import type { Tool, ToolResult } from '../../src/tools/tool.js';
import { writeFileTool } from '../../src/tools/write-file.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await makeWorkspace();
});

afterEach(async () => {
  await ws.cleanup();
});

const run = (tool: Tool, args: unknown): Promise<ToolResult> => tool.execute(tool.schema.parse(args), ws.ctx);

describe('list_files', () => {
  beforeEach(async () => {
    await ws.write('.gitignore', 'dist/\n*.log\n');
    await ws.write('src/a.ts', '');
    await ws.write('src/b.js', '');
    await ws.write('src/deep/c.ts', '');
    await ws.write('src/deep/.gitignore', 'generated.ts\n');
    await ws.write('src/deep/generated.ts', '');
    await ws.write('dist/out.js', '');
    await ws.write('debug.log', '');
    await ws.write('.git/config', '');
    await ws.write('README.md', '');
  });

  test('lists one level with directories marked, skipping .git and ignored entries', async () => {
    const result = await run(listFilesTool, {});
    expect(result.output.split('\n')).toEqual(['.gitignore', 'README.md', 'src/']);
  });

  test('recursive listing honours root and nested .gitignore files', async () => {
    const result = await run(listFilesTool, { recursive: true });
    expect(result.output.split('\n')).toEqual([
      '.gitignore',
      'README.md',
      'src/',
      'src/a.ts',
      'src/b.js',
      'src/deep/',
      'src/deep/.gitignore',
      'src/deep/c.ts',
    ]);
  });

  test('a glob pattern filters entries; paths stay relative to the workspace root', async () => {
    const result = await run(listFilesTool, { path: 'src', pattern: '*.ts', recursive: true });
    expect(result.output.split('\n')).toEqual(['src/a.ts', 'src/deep/c.ts']);
    const none = await run(listFilesTool, { pattern: '*.py', recursive: true });
    expect(none.output).toContain('matches *.py');
  });

  test.each([
    [{ pattern: '**/*.ts' }, ['src/a.ts', 'src/deep/c.ts']],
    [{ path: 'src', pattern: '**/*.ts' }, ['src/a.ts', 'src/deep/c.ts']],
    [{ pattern: 'src/*.ts' }, ['src/a.ts']],
    [
      { pattern: 'src/**' },
      ['src/', 'src/a.ts', 'src/b.js', 'src/deep/', 'src/deep/.gitignore', 'src/deep/c.ts'],
    ],
    [{ pattern: '*.md' }, ['README.md']],
  ])('a pattern naming subfolders (** or a /) lists them without recursive: %j', async (args, expected) => {
    const result = await run(listFilesTool, args);
    expect(result.output.split('\n')).toEqual(expected);
  });

  test('listing a subdirectory still applies the root .gitignore', async () => {
    await ws.write('src/trace.log', '');
    const result = await run(listFilesTool, { path: 'src' });
    expect(result.output).not.toContain('trace.log');
  });

  test('the listing is capped with a note', async () => {
    await Promise.all(
      Array.from({ length: MAX_LIST_ENTRIES + 5 }, (_, i) => fs.writeFile(path.join(ws.root, `f${i}`), '')),
    );
    const result = await run(listFilesTool, {});
    const lines = result.output.split('\n');
    expect(lines).toHaveLength(MAX_LIST_ENTRIES + 1);
    expect(lines.at(-1)).toContain(`stopped at ${MAX_LIST_ENTRIES} entries`);
    expect(result.metadata.capped).toBe(true);
  });

  test('a file or an outside path is an error', async () => {
    expect((await run(listFilesTool, { path: 'README.md' })).success).toBe(false);
    await expect(run(listFilesTool, { path: '..' })).rejects.toBeInstanceOf(PathEscapeError);
  });
});

describe('read_file', () => {
  test('reads a whole file, with a one-line display', async () => {
    await ws.write('a.txt', 'one\ntwo\nthree\n');
    const result = await run(readFileTool, { path: 'a.txt' });
    expect(result.output).toBe('one\ntwo\nthree\n');
    expect(result.display).toBe('read a.txt (3 lines)');
  });

  test('a link named as a secret file is refused by its name, as `cat .env` is; its target read by its own is not', async () => {
    await ws.write('settings.txt', 'DB=x\n');
    await fs.symlink('settings.txt', path.join(ws.root, '.env'));
    const policy = createPolicy({ mode: 'full', workspace: ws.ctx.workspace, env: { HOME: ws.base } });
    const judge = async (file: string) => {
      const args = readFileTool.schema.parse({ path: file });
      const preview = await readFileTool.preview!(args, ws.ctx);
      return (await policy.decide({ tool: 'read_file', safety: 'safe', args, preview })).decision;
    };
    expect(await judge('.env')).toBe('deny');
    expect(await judge('settings.txt')).toBe('allow');
  });

  test('offset and limit select lines', async () => {
    await ws.write('a.txt', 'one\ntwo\nthree\nfour\n');
    const result = await run(readFileTool, { path: 'a.txt', offset: 2, limit: 2 });
    expect(result.output).toBe('[a.txt: lines 2-3 of 4]\ntwo\nthree');
    expect((await run(readFileTool, { path: 'a.txt', offset: 9 })).error).toContain('past the end');
  });

  test('refuses binary files', async () => {
    await ws.write('img.png', Buffer.from([0x89, 0x50, 0x00, 0x01]));
    await expect(run(readFileTool, { path: 'img.png' })).rejects.toThrow(/binary/);
  });

  test('refuses invalid UTF-8, naming the offset and line of the first bad byte and what to do', async () => {
    // "café" in Latin-1 on line 2: 0xE9 at byte offset 12.
    await ws.write('latin1.txt', Buffer.from('line one\ncaf\xe9\n', 'latin1'));
    const error = await run(readFileTool, { path: 'latin1.txt' }).then(
      () => undefined,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    expect(error).toContain('latin1.txt is not valid UTF-8: byte 0xE9 at offset 12 (line 2)');
    expect(error).toContain('`file latin1.txt`');
    expect(error).toContain('iconv');
  });

  test('keeps valid multi-byte text and a byte-order mark as they are', async () => {
    await ws.write('ok.txt', '\ufeffhéllo 𝄞\n');
    expect((await run(readFileTool, { path: 'ok.txt' })).output).toBe('\ufeffhéllo 𝄞\n');
  });

  test('streams a file over the read limit asked for whole: what one result holds (here all of it)', async () => {
    const small = await makeWorkspace({ limits: { maxFileReadSize: 10 } });
    try {
      await small.write('big.txt', 'x'.repeat(11));
      const tool = readFileTool;
      expect((await tool.execute(tool.schema.parse({ path: 'big.txt' }), small.ctx)).output).toBe(
        `[big.txt: lines 1-1 of 1]\n${'x'.repeat(11)}`,
      );
    } finally {
      await small.cleanup();
    }
  });

  test('reads ranges of a file over the read limit, naming the total only once the read reached the end', async () => {
    const small = await makeWorkspace({ limits: { maxFileReadSize: 10, maxOutputSize: 400 } });
    try {
      await small.write('big.txt', Array.from({ length: 50 }, (_, i) => `line ${i + 1}\n`).join(''));
      const read = (args: object) => readFileTool.execute(readFileTool.schema.parse(args), small.ctx);
      expect((await read({ path: 'big.txt', offset: 2, limit: 2 })).output).toBe(
        '[big.txt: lines 2-3]\nline 2\nline 3',
      );
      expect((await read({ path: 'big.txt', offset: 49 })).output).toBe(
        '[big.txt: lines 49-50 of 50]\nline 49\nline 50',
      );
      // More than one result may hold: cut at a line end, saying where to go on.
      const capped = await read({ path: 'big.txt', offset: 1, limit: 50 });
      expect(capped.output).toMatch(/^\[big\.txt: lines 1-\d+; continue with offset \d+\]\nline 1\n/);
      expect((await read({ path: 'big.txt', offset: 60 })).error).toBe(
        'offset 60 is past the end of big.txt (50 lines)',
      );
      // Asked for whole: its first lines, its size and how to go on.
      const whole = await read({ path: 'big.txt' });
      expect(whole.output).toMatch(
        /^\[big\.txt: lines 1-(\d+) of a 391-byte file \(over agent\.tools\.max_file_read_size\); continue with offset (\d+), or search it with grep\]\nline 1\n/,
      );
      const [, last, next] = /lines 1-(\d+).*offset (\d+)/.exec(whole.output)!;
      expect(Number(next)).toBe(Number(last) + 1);
      expect(whole.output.endsWith(`\nline ${last}`)).toBe(true);
    } finally {
      await small.cleanup();
    }
  });

  test('a line over one result in a big file is cut before a character and said to be cut', async () => {
    const small = await makeWorkspace({ limits: { maxFileReadSize: 10, maxOutputSize: 400 } });
    try {
      // 'x' then two-byte characters: the byte cap (400 - 200 header room) falls inside a character.
      await small.write('long.txt', `start\nx${'é'.repeat(300)}\nend\n`);
      const read = (args: object) => readFileTool.execute(readFileTool.schema.parse(args), small.ctx);
      const first = await read({ path: 'long.txt', offset: 2, limit: 1 });
      expect(first.success).toBe(true);
      expect(first.output).toBe(
        `[long.txt: line 2, only its first 199 bytes (the line is longer than one result holds; search it with grep)]\nx${'é'.repeat(99)}`,
      );
      // Asked for whole, a file whose first line is longer (a minified bundle): its start, and the file's size.
      await small.write('min.js', `${'x'.repeat(500)}\n`);
      expect((await read({ path: 'min.js' })).output).toMatch(
        /^\[min\.js: line 1 of a 501-byte file, only its first 200 bytes \(the line is longer/,
      );
      const onward = await read({ path: 'long.txt', offset: 2, limit: 2 });
      expect(onward.output).toMatch(
        /^\[long\.txt: line 2, only its first 199 bytes .*; continue with offset 3\]\n/,
      );
    } finally {
      await small.cleanup();
    }
  });

  test('a line range streamed in chunks matches the same lines split whole', async () => {
    const dir = await makeWorkspace();
    try {
      const texts = ['a\nbb\nccc\n', 'a\nbb\nccc', '\n\nx\n', 'one long line without end', ''];
      for (const [i, text] of texts.entries()) {
        await dir.write(`t${i}`, text);
        const lines = text === '' ? [] : (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
        for (const chunk of [1, 2, 3, 64]) {
          for (const [start, limit] of [
            [0, 1],
            [1, 2],
            [0, 99],
            [2, 1],
            [5, 1],
          ] as const) {
            const range = await readLineRange(path.join(dir.root, `t${i}`), start, limit, 1000, {
              chunkSize: chunk,
            });
            const want = lines.slice(start, start + limit);
            const where = `text ${i}, chunk ${chunk}, lines ${start}+${limit}`;
            expect(range.data.toString(), where).toBe(want.join('\n'));
            expect(range.count, where).toBe(want.length);
            if (range.total !== undefined) expect(range.total, where).toBe(lines.length);
          }
        }
      }
    } finally {
      await dir.cleanup();
    }
  });

  test('a missing file names the workspace path', async () => {
    await expect(run(readFileTool, { path: 'src/nope.ts' })).rejects.toThrow(
      'no such file or directory: src/nope.ts',
    );
  });

  test('a file whose name is not UTF-8 is named as such, with how to rename it, not suggested again', async () => {
    await fs.mkdir(path.join(ws.root, 'in'), { recursive: true });
    await fs.writeFile(Buffer.from(`${path.join(ws.root, 'in')}/bad\xffname.txt`, 'latin1'), 'x');
    await expect(run(readFileTool, { path: 'in/bad\uFFFDname.txt' })).rejects.toThrow(
      'no such file or directory: in/bad\uFFFDname.txt: its name on disk is not valid UTF-8, so no path a tool is given can name it; rename it with a command, e.g. mv -- in/bad?name.txt <new name>',
    );
  });

  test('a missing file suggests the nearest names beside it', async () => {
    await fs.mkdir(path.join(ws.root, 'lib'), { recursive: true });
    await fs.writeFile(path.join(ws.root, 'lib/parser.tsx'), 'x');
    await fs.writeFile(path.join(ws.root, 'lib/unrelated.md'), 'x');
    await expect(run(readFileTool, { path: 'lib/parser.ts' })).rejects.toThrow(
      'no such file or directory: lib/parser.ts; did you mean lib/parser.tsx?',
    );
    await expect(run(readFileTool, { path: 'lib/zzz.ts' })).rejects.toThrow(
      /^no such file or directory: lib\/zzz\.ts$/,
    );
  });
});

describe('write_file', () => {
  test('creates parents, then overwrites, leaving no temp files', async () => {
    const created = await run(writeFileTool, { path: 'a/b/c.txt', content: 'héllo' });
    expect(created.output).toBe('created a/b/c.txt (6 bytes)');
    const overwrote = await run(writeFileTool, { path: 'a/b/c.txt', content: 'bye' });
    expect(overwrote.output).toBe('overwrote a/b/c.txt (3 bytes)');
    expect(created.display).toBeUndefined();
    expect((await run(writeFileTool, { path: 'a/b/c.txt', content: 'bye' })).display).toBeUndefined();
    expect(overwrote.display).toBe(
      'overwrote a/b/c.txt (3 bytes)\n--- a/a/b/c.txt\n+++ b/a/b/c.txt\n@@ -1,1 +1,1 @@\n-héllo\n\\ No newline at end of file\n+bye\n\\ No newline at end of file',
    );
    expect(await ws.read('a/b/c.txt')).toBe('bye');
    expect(await fs.readdir(path.join(ws.root, 'a', 'b'))).toEqual(['c.txt']);
  });

  test('keeps the mode of an overwritten file', async () => {
    await ws.write('run.sh', 'echo 1');
    await fs.chmod(path.join(ws.root, 'run.sh'), 0o755);
    await run(writeFileTool, { path: 'run.sh', content: 'echo 2' });
    expect((await fs.stat(path.join(ws.root, 'run.sh'))).mode & 0o777).toBe(0o755);
  });

  test('refuses paths outside the workspace and directories', async () => {
    await expect(run(writeFileTool, { path: '../x.txt', content: 'x' })).rejects.toBeInstanceOf(
      PathEscapeError,
    );
    await fs.mkdir(path.join(ws.root, 'dir'));
    expect((await run(writeFileTool, { path: 'dir', content: 'x' })).error).toContain('is a directory');
  });
});

describe('create_directory', () => {
  test('creates nested directories and reports an existing one', async () => {
    expect((await run(createDirectoryTool, { path: 'x/y/z' })).output).toBe('created directory x/y/z');
    expect((await fs.stat(path.join(ws.root, 'x', 'y', 'z'))).isDirectory()).toBe(true);
    expect((await run(createDirectoryTool, { path: 'x/y/z' })).output).toBe('x/y/z already exists');
  });

  test('without recursive, a missing parent is an error', async () => {
    await expect(run(createDirectoryTool, { path: 'p/q', recursive: false })).rejects.toThrow(/no such file/);
  });
});

describe('delete_path', () => {
  test('deletes a file and an empty directory', async () => {
    await ws.write('a.txt', 'x');
    await fs.mkdir(path.join(ws.root, 'empty'));
    expect((await run(deletePathTool, { path: 'a.txt' })).success).toBe(true);
    expect((await run(deletePathTool, { path: 'empty' })).success).toBe(true);
    expect(await fs.readdir(ws.root)).toEqual([]);
  });

  test('a non-empty directory needs recursive', async () => {
    await ws.write('d/a.txt', 'x');
    const refused = await run(deletePathTool, { path: 'd' });
    expect(refused.error).toContain('recursive: true');
    expect(await ws.read('d/a.txt')).toBe('x');
    expect((await run(deletePathTool, { path: 'd', recursive: true })).success).toBe(true);
  });

  test('refuses to delete the workspace root', async () => {
    await ws.write('a.txt', 'x');
    for (const p of ['.', ws.root, 'src/..']) {
      const result = await run(deletePathTool, { path: p, recursive: true });
      expect(result.error).toContain('workspace root');
    }
    expect(await ws.read('a.txt')).toBe('x');
  });

  test('deletes a symlink itself, not what it points to', async () => {
    await fs.mkdir(path.join(ws.base, 'outside'));
    await fs.writeFile(path.join(ws.base, 'outside', 'keep.txt'), 'keep');
    await fs.symlink(path.join(ws.base, 'outside', 'keep.txt'), path.join(ws.root, 'link'));
    expect((await run(deletePathTool, { path: 'link' })).metadata.kind).toBe('symlink');
    expect(await fs.readFile(path.join(ws.base, 'outside', 'keep.txt'), 'utf8')).toBe('keep');
  });
});

describe('diff_files', () => {
  test('gives a unified diff', async () => {
    await ws.write('a.txt', 'one\ntwo\nthree\n');
    await ws.write('b.txt', 'one\n2\nthree\n');
    const result = await run(diffFilesTool, { path_a: 'a.txt', path_b: 'b.txt' });
    expect(result.output).toContain('--- a.txt\n+++ b.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three');
    expect(result.metadata).toMatchObject({ added: 1, removed: 1 });
  });

  test('refuses a file that is not valid UTF-8 instead of diffing replaced bytes', async () => {
    await ws.write('a.txt', 'caf\u00e9\n');
    await ws.write('b.txt', Buffer.from('caf\xe9\n', 'latin1'));
    await expect(run(diffFilesTool, { path_a: 'a.txt', path_b: 'b.txt' })).rejects.toThrow(
      'b.txt is not valid UTF-8: byte 0xE9 at offset 3 (line 1)',
    );
  });

  test('says when files are identical', async () => {
    await ws.write('a.txt', 'same');
    await ws.write('b.txt', 'same');
    expect((await run(diffFilesTool, { path_a: 'a.txt', path_b: 'b.txt' })).output).toBe(
      'files are identical',
    );
  });
});
