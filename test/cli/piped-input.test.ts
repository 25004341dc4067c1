// Piped input: read within a memory bound, capped to a byte budget as head and tail with a note.
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import {
  capPiped,
  pipedBudget,
  readPiped,
  stdinMayHoldText,
  withPipedInput,
} from '../../src/cli/piped-input.js';

async function* chunks(...parts: string[]) {
  for (const part of parts) yield Buffer.from(part);
}

describe('piped input', () => {
  it('keeps a small input whole, across chunks', async () => {
    const piped = await readPiped(chunks('ab', 'cd', 'ef'), 4);
    expect(piped.totalBytes).toBe(6);
    expect(capPiped(piped, 100)).toEqual({ text: 'abcdef' });
  });

  it('keeps only the head and the tail of a stream larger than twice the bound', async () => {
    const piped = await readPiped(chunks('0123', '4567', '89ab', 'cdef', 'ghij'), 4);
    expect(piped.head.toString()).toBe('0123');
    expect(piped.tail.toString()).toBe('ghij');
    expect(piped.totalBytes).toBe(20);
  });

  it('caps to the budget with a marker and a note saying how much was left out', async () => {
    const piped = await readPiped(chunks('a'.repeat(1000), 'b'.repeat(1000)));
    const capped = capPiped(piped, 300);
    expect(capped.text).toMatch(/^a{200}\n\[… 1,700 bytes left out …\]\nb{100}$/);
    expect(capped.note).toBe(
      'the piped input was capped: 2,000 bytes, of which the first 200 and the last 100 are shown',
    );
  });

  it('never cuts a multi-byte character in two', async () => {
    const piped = await readPiped(chunks('é'.repeat(500)));
    const capped = capPiped(piped, 101);
    expect(capped.text).not.toContain('\uFFFD');
  });

  it('derives the budget from the context window, within bounds', () => {
    expect(pipedBudget(undefined)).toBe(65_536);
    expect(pipedBudget({ id: 'm', contextWindow: 8192, source: 'table' })).toBe(12_288);
    expect(pipedBudget({ id: 'm', contextWindow: 1_000_000, source: 'table' })).toBe(256 * 1024);
  });

  it('puts the input after the question between stdin tags, with the note', () => {
    expect(withPipedInput('why?', { text: 'log\n', note: 'capped' })).toBe(
      'why?\n\nInput piped to keel on stdin:\n(capped)\n<stdin>\nlog\n</stdin>',
    );
  });
});

describe('stdinMayHoldText', () => {
  test('a device (/dev/null), an empty file or a closed descriptor holds nothing to read; a file with text does', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keel-stdin-'));
    const open = (path: string) => openSync(path, 'r');
    const fds: number[] = [];
    try {
      await writeFile(join(dir, 'empty.txt'), '');
      await writeFile(join(dir, 'text.txt'), 'diff --git a b\n');
      fds.push(open('/dev/null'), open(join(dir, 'empty.txt')), open(join(dir, 'text.txt')));
      expect(fds.map((fd) => stdinMayHoldText(fd))).toEqual([false, false, true]);
      expect(stdinMayHoldText(987_654)).toBe(false);
    } finally {
      for (const fd of fds) closeSync(fd);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
