// Import cycles are real loops along real imports: a group of files that import each other is listed as its
// shortest cycles, never as one loop through all its files (which names imports that do not exist).
import { describe, expect, test } from 'vitest';
import { findCycles, LISTED_CYCLES } from '../../src/code/import-cycles.js';

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

describe('findCycles', () => {
  test.each<[string, Record<string, string[]>, { files: string[]; cycles: string[][]; count: number }[]]>([
    ['no cycle', { a: ['b'], b: ['c'], c: [] }, []],
    ['a self-import', { a: ['a'] }, [{ files: ['a'], cycles: [['a']], count: 1 }]],
    ['two files', { a: ['b'], b: ['a'] }, [{ files: ['a', 'b'], cycles: [['a', 'b']], count: 1 }]],
    [
      // ws-cyc: c→d→e→c and d→e→f→d share d→e; f does not import c, so c→d→e→f→c is no cycle.
      'two loops sharing an import, beside a separate pair',
      { a: ['b'], b: ['a'], c: ['a', 'd'], d: ['e'], e: ['c', 'f'], f: ['d'] },
      [
        { files: ['a', 'b'], cycles: [['a', 'b']], count: 1 },
        {
          files: ['c', 'd', 'e', 'f'],
          cycles: [
            ['c', 'd', 'e'],
            ['d', 'e', 'f'],
          ],
          count: 2,
        },
      ],
    ],
    [
      'shortest first, each cycle once, starting at its first file',
      { a: ['b', 'c'], b: ['a', 'c'], c: ['a', 'b'] },
      [
        {
          files: ['a', 'b', 'c'],
          cycles: [
            ['a', 'b'],
            ['a', 'c'],
            ['b', 'c'],
            ['a', 'b', 'c'],
            ['a', 'c', 'b'],
          ],
          count: 5,
        },
      ],
    ],
  ])('%s', (_, edges, expected) => {
    const groups = findCycles(graph(edges));
    expect(groups.map(({ files, cycles, count }) => ({ files, cycles, count }))).toEqual(expected);
    expect(groups.every((g) => !g.atLeast)).toBe(true);
  });

  test('every listed cycle follows real imports, and a group with more cycles than listed says how many', () => {
    // flask's shape: a hub every module imports back, and a ring through the rest.
    const names = Array.from({ length: 8 }, (_, i) => `m${i}`);
    const edges: Record<string, string[]> = { hub: [...names] };
    names.forEach((name, i) => {
      edges[name] = ['hub', names[(i + 1) % names.length]!];
    });
    const [group] = findCycles(graph(edges));
    expect(group!.files).toHaveLength(9);
    expect(group!.cycles).toHaveLength(LISTED_CYCLES);
    expect(group!.count).toBeGreaterThan(LISTED_CYCLES);
    for (const cycle of group!.cycles) {
      expect(cycle).toHaveLength(2);
      cycle.forEach((file, i) => {
        expect(edges[file]).toContain(cycle[(i + 1) % cycle.length]);
      });
    }
  });

  test('a dense group stops counting at a bound and says the count is a lower one', () => {
    // 14 files each importing every other: billions of simple cycles.
    const names = Array.from({ length: 14 }, (_, i) => `f${String(i).padStart(2, '0')}`);
    const edges = Object.fromEntries(names.map((n) => [n, names.filter((m) => m !== n)]));
    const [group] = findCycles(graph(edges));
    expect(group!.atLeast).toBe(true);
    expect(group!.count).toBeGreaterThanOrEqual(1000);
    expect(group!.cycles.every((c) => c.length === 2)).toBe(true);
  });
});
