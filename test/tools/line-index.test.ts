// Tests for counting newlines (the WebAssembly SIMD counter against a plain count) and the run's line indexes of big
// files: ranges read through an index match ranges read without one, and a file that changed is counted afresh.
import { mkdtemp, open, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FileVersion, LineIndex, LineIndexes, strideFor } from '../../src/tools/line-index.js';
import { readLineRange } from '../../src/tools/line-range.js';
import { newlineCounter } from '../../src/tools/newline-count.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'keel-line-index-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const numbered = (from: number, to: number, width = 6): string =>
  Array.from({ length: to - from + 1 }, (_, i) => `${String(from + i).padStart(width, '0')}\n`).join('');

const version = async (file: string): Promise<FileVersion> => {
  const s = await stat(file, { bigint: true });
  return { dev: s.dev, ino: s.ino, size: s.size, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs };
};

describe('newline counter', () => {
  test('counts the newlines of any range as a plain count does', () => {
    const counter = newlineCounter();
    const [buffer] = counter.buffers(1, 4096) as [Buffer];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < buffer.length; i++) buffer[i] = random() < 0.2 ? 10 : 97;
    for (const [from, to] of [
      [0, 0],
      [0, 1],
      [3, 17],
      [0, 64],
      [1, 65],
      [5, 4096],
      [0, 4096],
      [4000, 4095],
    ] as const) {
      let want = 0;
      for (let i = from; i < to; i++) if (buffer[i] === 10) want++;
      expect(counter.count(buffer, from, to), `${from}-${to}`).toBe(want);
    }
  });

  test('a buffer of its own (not its memory) is counted too', () => {
    expect(newlineCounter().count(Buffer.from('a\nb\n\nc'), 0, 6)).toBe(3);
  });

  test("a released counter's memory serves the next one, which counts in it; an unreleased one is not shared", () => {
    const first = newlineCounter();
    const [a] = first.buffers(1, 4096) as [Buffer];
    first.release();
    const second = newlineCounter();
    const [b] = second.buffers(1, 4096) as [Buffer];
    const third = newlineCounter();
    const [c] = third.buffers(1, 4096) as [Buffer];
    if ('WebAssembly' in globalThis) expect(b.buffer).toBe(a.buffer);
    expect(c.buffer).not.toBe(b.buffer);
    b.write('x\ny\n', 0, 'latin1');
    expect(second.count(b, 0, 4)).toBe(2);
    // Once released, its buffers are not its memory any more: counted the plain way, still right.
    second.release();
    expect(second.count(b, 0, 4)).toBe(2);
    third.release();
  });
});

describe('line index', () => {
  test('names the furthest point before a line starts', () => {
    const index = new LineIndex(100);
    for (const [offset, lines] of [
      [100, 3],
      [200, 3],
      [300, 9],
      [500, 12], // not the next point: ignored
    ] as const)
      index.record(offset, lines);
    const table: [number, { offset: number; line: number }][] = [
      [0, { offset: 0, line: 0 }],
      [3, { offset: 0, line: 0 }],
      [4, { offset: 200, line: 3 }],
      [9, { offset: 200, line: 3 }],
      [10, { offset: 300, line: 9 }],
      [1000, { offset: 300, line: 9 }],
    ];
    for (const [line, want] of table) expect(index.before(line), `line ${line}`).toEqual(want);
  });

  test('the stride grows with the file so the index stays bounded', () => {
    expect(strideFor(0, 4)).toBe(4);
    expect(strideFor(1000, 256)).toBe(256);
    expect(strideFor(2 ** 40, 2 ** 18) / 2 ** 18).toBe(Math.ceil(2 ** 40 / 16_384 / 2 ** 18));
    expect(strideFor(2 ** 40, 2 ** 18) % 2 ** 18).toBe(0);
  });

  test('keeps a few files, dropping the least recently read', () => {
    const indexes = new LineIndexes();
    const v = (ino: number): FileVersion => ({
      dev: 1n,
      ino: BigInt(ino),
      size: 10n,
      mtimeNs: 1n,
      ctimeNs: 1n,
    });
    const first = indexes.of('/a', v(1), 4);
    for (const n of [2, 3, 4]) indexes.of(`/f${n}`, v(n), 4);
    expect(indexes.of('/a', v(1), 4)).toBe(first);
    indexes.of('/f5', v(5), 4);
    expect(indexes.size).toBe(4);
    expect(indexes.of('/a', v(1), 4)).toBe(first);
    expect(indexes.of('/a', { ...v(1), mtimeNs: 2n }, 4)).not.toBe(first);
  });
});

describe('ranges through the line index', () => {
  test('successive reads through one index name the same lines as reads without one', async () => {
    const file = path.join(dir, 'paged.log');
    const text = numbered(1, 400);
    await writeFile(file, text);
    const lines = text.slice(0, -1).split('\n');
    const indexes = new LineIndexes();
    for (const chunkSize of [4096, 7, 64]) {
      for (const [start, limit] of [
        [300, 2],
        [10, 3],
        [399, 5],
        [250, 1],
        [400, 1],
        [0, 2],
      ] as const) {
        const where = `chunk ${chunkSize}, lines ${start}+${limit}`;
        const plain = await readLineRange(file, start, limit, 10_000, { chunkSize });
        const indexed = await readLineRange(file, start, limit, 10_000, { chunkSize, indexes });
        expect(indexed, where).toEqual(plain);
        expect(indexed.data.toString(), where).toBe(lines.slice(start, start + limit).join('\n'));
      }
    }
    // The reads left points behind: a later line is found from one of them, not from the top.
    expect(indexes.of(file, await version(file), 64).before(390).offset).toBeGreaterThan(0);
  });

  test('a file that changed is counted afresh, not from the index of its old version', async () => {
    const file = path.join(dir, 'changing.log');
    await writeFile(file, numbered(1, 300));
    const indexes = new LineIndexes();
    const read = async (start: number) =>
      (await readLineRange(file, start, 1, 10_000, { chunkSize: 16, indexes })).data.toString();
    expect(await read(250)).toBe('000251');

    // Rewritten in place at the same size (the same inode), lines shifted by one: a new modification time.
    const handle = await open(file, 'r+');
    await handle.write(`${numbered(0, 299)}`, 0);
    await handle.close();
    await utimes(file, new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect(await read(250)).toBe('000250');

    // Lines put in front, so every old point is wrong: a new size.
    await writeFile(file, `x\ny\n${numbered(0, 299)}`);
    expect(await read(250)).toBe('000248');
  });
});
