// Piped input: read within a memory bound, capped to a byte budget as head and tail with a note.
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import {
  capPiped,
  pipedBlank,
  pipedBudget,
  pipedGoal,
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

  it('makes a goal piped without a question the message itself, the note first when it was cut', async () => {
    expect(pipedGoal({ text: 'fix the build\n' })).toBe('fix the build\n');
    expect(pipedGoal({ text: 'head\n[…]\ntail', note: 'capped' })).toBe('(capped)\nhead\n[…]\ntail');
    expect(pipedGoal({ text: '', binary: 'a PNG image, 9 bytes, not shown', note: 'n' })).toBe(
      'Input piped to keel on stdin: a PNG image, 9 bytes, not shown.',
    );
    expect(pipedBlank(await readPiped(chunks(' \n', '\t')))).toBe(true);
    expect(pipedBlank(await readPiped(chunks(' \n', 'x')))).toBe(false);
  });

  it('puts the input after the question between stdin tags, with the note', () => {
    expect(withPipedInput('why?', { text: 'log\n', note: 'capped' })).toBe(
      'why?\n\nInput piped to keel on stdin:\n(capped)\n<stdin>\nlog\n</stdin>',
    );
  });
});

describe('binary piped input', () => {
  /** A 1×1 PNG. */
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  async function* bytes(data: Buffer) {
    yield data;
  }
  const sees = { readsImages: true, model: 'llava' };
  const blind = { readsImages: false, model: 'qwen3' };

  it('describes binary input (its type and size) instead of sending it decoded, with a warning', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4992, 0xfe)]);
    const capped = capPiped(await readPiped(bytes(elf)), 65_536, sees);
    expect(capped).toEqual({
      text: '',
      binary: 'an ELF executable or library, 5,000 bytes, not shown',
      note: 'stdin holds binary input (an ELF executable or library, 5,000 bytes): not sent to the model, only described',
    });
    const message = withPipedInput('what is this', capped);
    expect(message).toBe(
      'what is this\n\nInput piped to keel on stdin: an ELF executable or library, 5,000 bytes, not shown.',
    );
    expect(message).not.toContain('\u0000');
  });

  it('names binary data of no known type by its size alone', async () => {
    const capped = capPiped(await readPiped(bytes(Buffer.from([1, 2, 0, 3]))), 65_536);
    expect(capped.binary).toBe('binary data, 4 bytes, not shown');
  });

  it('attaches a piped image for a model that reads images; for one that does not, says why', async () => {
    const attached = capPiped(await readPiped(bytes(png)), 65_536, sees);
    expect(attached.binary).toBe(`a PNG image, ${png.length} bytes, attached as an image`);
    expect(attached.image).toMatchObject({
      type: 'image',
      mediaType: 'image/png',
      bytes: png.length,
      name: 'stdin',
    });
    expect(attached.note).toBeUndefined();
    const refused = capPiped(await readPiped(bytes(png)), 65_536, blind);
    expect(refused.image).toBeUndefined();
    expect(refused.note).toContain('qwen3 cannot read images (choose a model that can)');
  });

  it('does not attach an image it did not keep whole', async () => {
    const big = Buffer.concat([png, Buffer.alloc(3000, 1)]);
    const capped = capPiped(await readPiped(bytes(big), 1000), 65_536, sees);
    expect(capped.image).toBeUndefined();
    expect(capped.note).toContain('it is too large to attach');
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
