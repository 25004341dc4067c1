// One turn's tool results together within the turn's cap: the largest cut first, to one level, each cut one saying
// where its whole output is (the file the per-result cap saved, else one saved now).
import { describe, expect, test } from 'vitest';
import { capTurn, type TurnResult } from '../../src/tools/output-cap.js';

const result = (callId: string, bytes: number, fill = callId[0]!): TurnResult => ({
  callId,
  content: fill.repeat(bytes),
});
const bytes = (texts: readonly string[]) => texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);

/** A save that records what it was given and names a file per call. */
function recordingSave() {
  const saved = new Map<string, string>();
  const save = async (callId: string, text: string) => {
    saved.set(callId, text);
    return `/state/out/${callId}.txt`;
  };
  return { saved, save };
}

describe('capTurn', () => {
  test('leaves a turn within the cap as it is, saving nothing', async () => {
    const { saved, save } = recordingSave();
    const results = [result('a', 1000), result('b', 2000)];
    expect(await capTurn(results, 3000, save)).toEqual(results.map((r) => r.content));
    expect(saved.size).toBe(0);
  });

  test.each([
    // sizes, cap, the indexes cut: the largest first, the small ones whole
    [[500, 20_000, 700], 10_000, [1]],
    [[8_000, 8_000, 8_000, 100], 12_000, [0, 1, 2]],
    [[30_000, 9_000, 1_000], 20_000, [0]],
    [Array.from({ length: 40 }, () => 4_400), 6_000, Array.from({ length: 40 }, (_, i) => i)],
  ])('sizes %j under a cap of %i bytes: cuts %j', async (sizes, cap, cut) => {
    const { saved, save } = recordingSave();
    const results = sizes.map((size, i) => result(`c${i}`, size, 'abcdefghij'[i % 10]));
    const capped = await capTurn(results, cap, save);
    capped.forEach((text, i) => {
      if (!cut.includes(i)) {
        expect(text, `result ${i} stays whole`).toBe(results[i]!.content);
        return;
      }
      expect(text).toContain(`this turn's ${sizes.length} results were over ${cap} bytes together`);
      expect(text).toContain(`the whole ${sizes[i]} bytes are saved in /state/out/c${i}.txt`);
      // Head and tail of the result itself.
      expect(text.startsWith(results[i]!.content[0]!)).toBe(true);
      expect(text.endsWith(results[i]!.content[0]!)).toBe(true);
      expect(saved.get(`c${i}`)).toBe(results[i]!.content);
    });
    expect([...saved.keys()].sort()).toEqual(cut.map((i) => `c${i}`).sort());
    // Within the cap where the kept bytes allow it; 40 results keep only a short head and tail each, with the note.
    if (sizes.length < 40) expect(bytes(capped)).toBeLessThanOrEqual(cap);
    else expect(bytes(capped)).toBeLessThan(bytes(results.map((r) => r.content)) / 8);
  });

  test('a result the per-result cap already saved names that file and its whole size; nothing is saved again', async () => {
    const { saved, save } = recordingSave();
    const capped = await capTurn(
      [{ ...result('a', 5_000), saved: { path: '/state/out/a.txt', size: 900_000 } }, result('b', 5_000)],
      4_000,
      save,
    );
    expect(capped[0]).toContain('the whole 900000 bytes are saved in /state/out/a.txt');
    expect(capped[1]).toContain('the whole 5000 bytes are saved in /state/out/b.txt');
    expect([...saved.keys()]).toEqual(['b']);
  });

  test('without a place to save (or when saving fails), a cut result says only what was left out', async () => {
    const [text] = await capTurn([result('a', 9_000), result('b', 9_000)], 4_000);
    expect(text).toMatch(
      /\[\.\.\. \d+ bytes omitted: this turn's 2 results were over 4000 bytes together \.\.\.\]/,
    );
    const failing = async () => {
      throw new Error('disk full');
    };
    const [again] = await capTurn([result('a', 9_000), result('b', 9_000)], 4_000, failing);
    expect(again).not.toContain('saved in');
  });
});
