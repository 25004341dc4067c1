// keel undo after two Keels ran in one workspace: their checkpoints interleave, and undo says how far it goes back.
import { describe, expect, test } from 'vitest';
import type { Checkpoint } from '../../src/checkpoint/checkpoints.js';
import { undoTarget } from '../../src/checkpoint/checkpoints.js';
import { interleaved } from '../../src/cli/undo-command.js';

const checkpoint = (id: string, run: string, first = false): Checkpoint => ({
  id,
  run,
  first,
  time: '2026-11-27T09:00:00.000Z',
  call: id,
  tool: 'write_file',
  summary: `write ${id}`,
  paths: [],
});

describe('interleaved', () => {
  test("names the other run, how many calls this undo takes back, and the id of the run's start", () => {
    // Newest first: run a's last two calls, then b's, then a's first.
    const list = [
      checkpoint('a3', 'a'),
      checkpoint('a2', 'a'),
      checkpoint('b2', 'b'),
      checkpoint('b1', 'b', true),
      checkpoint('a1', 'a', true),
    ];
    const target = undoTarget(list);
    expect(target.id).toBe('a2');
    expect(interleaved(list, target)).toBe(
      "run a ran alongside run b in this workspace: this undo takes back only its 2 calls since then. keel undo a1 goes back to its start, taking the other run's changes since then too.",
    );
  });

  test('says nothing when the run ran alone', () => {
    const list = [checkpoint('a2', 'a'), checkpoint('a1', 'a', true), checkpoint('b1', 'b', true)];
    expect(interleaved(list, undoTarget(list))).toBeUndefined();
  });
});
