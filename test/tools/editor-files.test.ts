// The file tools with an editor's view of the files (keel acp's FileAccess): reads see the unsaved buffer, writes
// go through the editor, and a file the editor cannot give is read from disk.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FileAccess } from '../../src/core/file-access.js';
import { appendFileTool } from '../../src/tools/append-file.js';
import { editFileTool } from '../../src/tools/edit-file.js';
import { readFileTool } from '../../src/tools/read-file.js';
import { writeFileTool } from '../../src/tools/write-file.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

let ws: TestWorkspace;
const buffers = new Map<string, string>();
const written: [string, string][] = [];
const files: FileAccess = {
  readText: async (path) => buffers.get(path),
  writeText: async (path, content) => {
    written.push([path, content]);
  },
};

beforeAll(async () => {
  ws = await makeWorkspace();
  ws.ctx = { ...ws.ctx, files };
  await ws.write('a.txt', 'on disk\n');
  await ws.write('b.txt', 'disk only\n');
  buffers.set(`${ws.root}/a.txt`, 'in the buffer\n');
});

afterAll(() => ws.cleanup());

describe('file tools with an editor', () => {
  test("read_file returns the editor's unsaved buffer", async () => {
    const result = await readFileTool.execute(readFileTool.schema.parse({ path: 'a.txt' }), ws.ctx);
    expect(result.output).toBe('in the buffer\n');
  });

  test('read_file reads the disk for a file the editor does not hold', async () => {
    const result = await readFileTool.execute(readFileTool.schema.parse({ path: 'b.txt' }), ws.ctx);
    expect(result.output).toBe('disk only\n');
  });

  test('edit_file edits the buffer and writes through the editor, leaving the disk to it', async () => {
    const args = editFileTool.schema.parse({ path: 'a.txt', old_string: 'buffer', new_string: 'editor' });
    const result = await editFileTool.execute(args, ws.ctx);
    expect(result.success).toBe(true);
    expect(written.at(-1)).toEqual([`${ws.root}/a.txt`, 'in the editor\n']);
    expect(await ws.read('a.txt')).toBe('on disk\n');
  });

  test('append_file adds to the buffer and writes through the editor, leaving the disk to it', async () => {
    buffers.set(`${ws.root}/log.txt`, 'unsaved line\n');
    await ws.write('log.txt', 'saved line\n');
    const args = appendFileTool.schema.parse({ path: 'log.txt', content: 'added\n' });
    const result = await appendFileTool.execute(args, ws.ctx);
    expect(result.output).toBe('appended 6 bytes to log.txt');
    expect(written.at(-1)).toEqual([`${ws.root}/log.txt`, 'unsaved line\nadded\n']);
    expect(await ws.read('log.txt')).toBe('saved line\n');
  });

  test("write_file's preview diffs against the buffer", async () => {
    const preview = await writeFileTool.preview?.(
      writeFileTool.schema.parse({ path: 'a.txt', content: 'replaced\n' }),
      ws.ctx,
    );
    expect(preview?.diff).toContain('-in the buffer');
  });
});
