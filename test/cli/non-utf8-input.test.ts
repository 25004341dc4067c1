// Text that is not UTF-8 (Latin-1, Windows-1252), given on stdin, as a plan file or as an @file: refused with where
// and how to convert it, never sent as U+FFFD; UTF-16 with a byte-order mark is converted. The built CLI shows the
// refusal of `printf 'caf\xe9' | keel ask` before any model request.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachFiles } from '../../src/cli/chat-attach.js';
import { type PipedInput, utf8Piped } from '../../src/cli/piped-input.js';
import { UsageError } from '../../src/core/errors.js';
import { loadPlan } from '../../src/plan/parse.js';
import { openWorkspace } from '../../src/safety/workspace.js';
import { runKeel } from '../support/cli.js';
import { useE2E } from '../support/e2e.js';

const whole = (bytes: Buffer): PipedInput => ({
  head: bytes,
  tail: Buffer.alloc(0),
  totalBytes: bytes.length,
});
const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9]); // "café" in Latin-1

describe('utf8Piped', () => {
  it('refuses Latin-1 naming the byte, its offset and line, and how to convert it', () => {
    const bytes = Buffer.concat([Buffer.from('line one\n'), latin1]);
    expect(() => utf8Piped(whole(bytes))).toThrow(UsageError);
    try {
      utf8Piped(whole(bytes));
    } catch (error) {
      expect((error as UsageError).message).toBe(
        'stdin is not UTF-8 text: byte 0xE9 at offset 12 (line 2) is not valid UTF-8',
      );
      expect((error as UsageError).hint).toContain('iconv -f WINDOWS-1252 -t UTF-8');
    }
  });

  it('passes UTF-8 through, and binary input (left for capPiped to describe)', () => {
    const text = whole(Buffer.from('café ✓\n'));
    expect(utf8Piped(text)).toBe(text);
    const binary = whole(Buffer.from([0x00, 0xe9, 0xff, 0x01]));
    expect(utf8Piped(binary)).toBe(binary);
  });

  it('converts UTF-16 with a byte-order mark (little and big endian)', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('café', 'utf16le')]);
    expect(utf8Piped(whole(le)).head.toString('utf8')).toBe('café');
    const be = Buffer.from(le.subarray(2)).swap16();
    expect(utf8Piped(whole(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).head.toString('utf8')).toBe(
      'café',
    );
  });

  it('takes a character cut where only the head and tail of a long input were kept as no fault', () => {
    const e = Buffer.from('é'); // two bytes
    const piped = {
      head: Buffer.concat([Buffer.from('ab'), e.subarray(0, 1)]),
      tail: e.subarray(1),
      totalBytes: 100,
    };
    expect(utf8Piped(piped)).toBe(piped);
    const bad = {
      head: Buffer.from('ab'),
      tail: Buffer.concat([Buffer.from('xy'), latin1]),
      totalBytes: 100,
    };
    expect(() => utf8Piped(bad)).toThrow(/byte 0xE9 at offset 99 is not valid UTF-8$/);
  });
});

describe('files given as text', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-non-utf8-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refuses a plan file in Latin-1, naming the file and the byte', async () => {
    const file = join(dir, 'plan.md');
    await writeFile(file, Buffer.concat([Buffer.from('# Plan\n- '), latin1, Buffer.from('\n')]));
    await expect(loadPlan(file)).rejects.toThrow(
      `plan file ${file} is not UTF-8 text: byte 0xE9 at offset 12 (line 2) is not valid UTF-8`,
    );
  });

  it('skips an @file in Latin-1, saying why, and attaches a UTF-8 one', async () => {
    await writeFile(join(dir, 'latin.txt'), latin1);
    await writeFile(join(dir, 'fine.txt'), 'café\n');
    const attached = await attachFiles('see @latin.txt and @fine.txt', await openWorkspace(dir));
    expect(attached.skipped).toEqual([
      {
        path: 'latin.txt',
        reason: expect.stringMatching(/^not UTF-8 text \(byte 0xE9 at offset 3 \(line 1\)\); .*iconv/),
      },
    ]);
    expect(attached.message).toContain('<file path="fine.txt">\ncafé\n</file>');
    expect(attached.message).not.toContain('\uFFFD');
  });
});

const { server, workspace } = useE2E();

describe('keel ask with Latin-1 piped in', () => {
  it('exits 2 with one message on stderr before asking the model anything', async () => {
    const ws = await workspace();
    const s = await server([{ text: 'never asked' }]);
    const r = await runKeel(['ask', 'translate', '--base-url', s.ollamaUrl, '--cwd', ws], {
      input: latin1 as unknown as string,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'error: stdin is not UTF-8 text: byte 0xE9 at offset 3 (line 1) is not valid UTF-8',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(s.requests).toHaveLength(0);
  });
});
