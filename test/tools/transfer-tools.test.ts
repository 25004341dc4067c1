// move_path, copy_path and append_file on real files: what they change, what they refuse (overwrites, the root,
// paths out of the workspace) and what their previews say they write.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { appendFileTool } from '../../src/tools/append-file.js';
import { copyPathTool } from '../../src/tools/copy-path.js';
import { movePathTool } from '../../src/tools/move-path.js';
import type { Tool, ToolResult } from '../../src/tools/tool.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await makeWorkspace();
});

afterEach(async () => {
  await ws.cleanup();
});

const run = (tool: Tool, args: unknown): Promise<ToolResult> => tool.execute(tool.schema.parse(args), ws.ctx);
const preview = (tool: Tool, args: unknown) => tool.preview!(tool.schema.parse(args), ws.ctx);
const exists = (rel: string) =>
  fs.lstat(path.join(ws.root, rel)).then(
    () => true,
    () => false,
  );

describe('move_path', () => {
  test('renames a file into new parent directories', async () => {
    await ws.write('a.txt', 'A\n');
    const result = await run(movePathTool, { source: 'a.txt', destination: 'docs/b.txt' });
    expect(result.output).toBe('moved a.txt to docs/b.txt');
    expect(await ws.read('docs/b.txt')).toBe('A\n');
    expect(await exists('a.txt')).toBe(false);
  });

  test('moves a directory with its tree', async () => {
    await ws.write('src/x/y.ts', 'y\n');
    await run(movePathTool, { source: 'src', destination: 'lib' });
    expect(await ws.read('lib/x/y.ts')).toBe('y\n');
    expect(await exists('src')).toBe(false);
  });

  test('refuses to overwrite unless told, then replaces the file', async () => {
    await ws.write('a.txt', 'A\n');
    await ws.write('b.txt', 'B\n');
    const refused = await run(movePathTool, { source: 'a.txt', destination: 'b.txt' });
    expect(refused.error).toBe('b.txt exists; pass overwrite: true to replace it');
    expect(await ws.read('b.txt')).toBe('B\n');
    const done = await run(movePathTool, { source: 'a.txt', destination: 'b.txt', overwrite: true });
    expect(done.output).toContain('replaced the existing file');
    expect(await ws.read('b.txt')).toBe('A\n');
  });

  test('refuses the root, a directory into itself and an existing directory as destination', async () => {
    await ws.write('d/f.txt', '');
    await ws.write('e/g.txt', '');
    expect((await run(movePathTool, { source: '.', destination: 'x' })).error).toContain('workspace root');
    expect((await run(movePathTool, { source: 'd', destination: 'd/inner' })).error).toContain(
      'inside itself',
    );
    expect((await run(movePathTool, { source: 'd/f.txt', destination: 'e' })).error).toContain(
      'e is an existing directory',
    );
  });

  test('moves a symlink itself, not the file it points to', async () => {
    await ws.write('target.txt', 'T\n');
    await fs.symlink('target.txt', path.join(ws.root, 'link.txt'));
    await run(movePathTool, { source: 'link.txt', destination: 'moved-link.txt' });
    expect((await fs.lstat(path.join(ws.root, 'moved-link.txt'))).isSymbolicLink()).toBe(true);
    expect(await ws.read('target.txt')).toBe('T\n');
  });

  test('refuses a source or destination outside the workspace, moving nothing', async () => {
    await ws.write('a.txt', 'A\n');
    await fs.writeFile(path.join(ws.base, 'outside.txt'), 'O\n');
    await expect(run(movePathTool, { source: 'a.txt', destination: '../stolen.txt' })).rejects.toThrow(
      /outside the workspace/,
    );
    await expect(run(movePathTool, { source: '../outside.txt', destination: 'in.txt' })).rejects.toThrow(
      /outside the workspace/,
    );
    await fs.symlink(ws.base, path.join(ws.root, 'up'));
    await expect(run(movePathTool, { source: 'a.txt', destination: 'up/stolen.txt' })).rejects.toThrow(
      /outside the workspace/,
    );
    expect(await ws.read('a.txt')).toBe('A\n');
    expect(await exists('../stolen.txt')).toBe(false);
  });

  test('the preview lists source and destination as written', async () => {
    await ws.write('a.txt', 'A\n');
    const p = await preview(movePathTool, { source: 'a.txt', destination: 'b/c.txt' });
    expect(p.writes).toEqual([path.join(ws.root, 'a.txt'), path.join(ws.root, 'b/c.txt')]);
    expect(p.summary).toBe('move a.txt → b/c.txt');
  });
});

describe('copy_path', () => {
  test('copies a file, keeping the original', async () => {
    await ws.write('a.sh', '#!/bin/sh\n');
    await fs.chmod(path.join(ws.root, 'a.sh'), 0o755);
    const result = await run(copyPathTool, { source: 'a.sh', destination: 'bin/b.sh' });
    expect(result.output).toBe('copied a.sh to bin/b.sh');
    expect(await ws.read('bin/b.sh')).toBe('#!/bin/sh\n');
    expect((await fs.stat(path.join(ws.root, 'bin/b.sh'))).mode & 0o777).toBe(0o755);
    expect(await ws.read('a.sh')).toBe('#!/bin/sh\n');
  });

  test('copies a directory tree; links leading out of the workspace are skipped and named', async () => {
    await ws.write('src/a.ts', 'a\n');
    await ws.write('src/deep/b.ts', 'b\n');
    await fs.writeFile(path.join(ws.base, 'secret.txt'), 'S\n');
    await fs.symlink('a.ts', path.join(ws.root, 'src/inside-link.ts'));
    await fs.symlink(path.join(ws.base, 'secret.txt'), path.join(ws.root, 'src/outside-link.txt'));
    const result = await run(copyPathTool, { source: 'src', destination: 'copy' });
    expect(result.output).toBe(
      'copied directory src to copy (2 files)\nskipped 1 symlinks pointing outside the workspace: src/outside-link.txt',
    );
    expect(await ws.read('copy/deep/b.ts')).toBe('b\n');
    expect(await fs.readlink(path.join(ws.root, 'copy/inside-link.ts'))).toBe('a.ts');
    expect(await exists('copy/outside-link.txt')).toBe(false);
  });

  test('refuses to overwrite unless told', async () => {
    await ws.write('a.txt', 'A\n');
    await ws.write('b.txt', 'B\n');
    expect((await run(copyPathTool, { source: 'a.txt', destination: 'b.txt' })).error).toContain('exists');
    await run(copyPathTool, { source: 'a.txt', destination: 'b.txt', overwrite: true });
    expect(await ws.read('b.txt')).toBe('A\n');
  });

  test('refuses paths outside the workspace and a directory into itself', async () => {
    await ws.write('d/f.txt', '');
    await expect(run(copyPathTool, { source: 'd', destination: '../d2' })).rejects.toThrow(
      /outside the workspace/,
    );
    await expect(run(copyPathTool, { source: '/etc/hostname', destination: 'h' })).rejects.toThrow(
      /outside the workspace/,
    );
    expect((await run(copyPathTool, { source: 'd', destination: 'd/again' })).error).toContain(
      'inside itself',
    );
  });

  test('the preview lists the destination as written', async () => {
    await ws.write('a.txt', 'A\n');
    const p = await preview(copyPathTool, { source: 'a.txt', destination: 'b.txt' });
    expect(p).toMatchObject({ reads: [path.join(ws.root, 'a.txt')], writes: [path.join(ws.root, 'b.txt')] });
  });
});

describe('append_file', () => {
  test('appends to a file, and creates a missing one', async () => {
    await ws.write('log.txt', 'one\n');
    const result = await run(appendFileTool, { path: 'log.txt', content: 'two\n' });
    expect(result.output).toBe('appended 4 bytes to log.txt');
    expect(await ws.read('log.txt')).toBe('one\ntwo\n');
    const created = await run(appendFileTool, { path: 'new/notes.md', content: '# Notes\n' });
    expect(created.output).toBe('appended 8 bytes to new/notes.md (new file)');
    expect(await ws.read('new/notes.md')).toBe('# Notes\n');
  });

  test('appends in the file’s line endings, and says when the last line had no newline', async () => {
    await ws.write('win.txt', 'a\r\nb');
    const result = await run(appendFileTool, { path: 'win.txt', content: 'c\nd\n' });
    expect(result.output).toContain('continues its last line');
    expect(await ws.read('win.txt')).toBe('a\r\nbc\r\nd\r\n');
  });

  test('appends to a CR-only file in CR line endings', async () => {
    await ws.write('mac.txt', 'a\rb\r');
    const result = await run(appendFileTool, { path: 'mac.txt', content: 'c\nd\r\n' });
    expect(result.output).toBe('appended 4 bytes to mac.txt');
    expect(await ws.read('mac.txt')).toBe('a\rb\rc\rd\r');
  });

  test('the preview lists the file with a diff', async () => {
    await ws.write('log.txt', 'one\n');
    const p = await preview(appendFileTool, { path: 'log.txt', content: 'two\n' });
    expect(p.writes).toEqual([path.join(ws.root, 'log.txt')]);
    expect(p.diff).toContain(' one\n+two');
    expect(p.summary).toBe('append 4 bytes to log.txt');
  });

  test('a file with another name (a hard link to a file outside, as pnpm links node_modules) leaves that file as it was', async () => {
    const outside = path.join(ws.base, 'store-file.sh');
    await fs.writeFile(outside, '#!/bin/sh\necho hi\n', { mode: 0o755 });
    await fs.link(outside, path.join(ws.root, 'linked.sh'));
    const result = await run(appendFileTool, { path: 'linked.sh', content: 'echo more\n' });
    expect(result.output).toBe(
      'appended 10 bytes to linked.sh (it had another name, a hard link, which keeps the text it had)',
    );
    expect(await ws.read('linked.sh')).toBe('#!/bin/sh\necho hi\necho more\n');
    expect(await fs.readFile(outside, 'utf8')).toBe('#!/bin/sh\necho hi\n');
    const stat = await fs.stat(path.join(ws.root, 'linked.sh'));
    expect([stat.nlink, stat.mode & 0o777]).toEqual([1, 0o755]);
  });

  test('refuses a path outside the workspace and a directory', async () => {
    await ws.write('d/x', '');
    await expect(run(appendFileTool, { path: '../out.txt', content: 'x' })).rejects.toThrow(
      /outside the workspace/,
    );
    expect((await run(appendFileTool, { path: 'd', content: 'x' })).error).toContain('is a directory');
  });
});
