// Text that is not UTF-8 (Latin-1, Windows-1252): piped on stdin, each such byte is read as Windows-1252 with one
// warning (a diff mixing a Latin-1 file with UTF-8 ones keeps every letter); a plan file or an @file is refused with
// where and how to convert it. Never sent as U+FFFD; UTF-16 with a byte-order mark is converted.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachFiles } from '../../src/cli/chat-attach.js';
import { type PipedInput, utf8Piped } from '../../src/cli/piped-input.js';
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
  it('reads each byte that is not UTF-8 as Windows-1252, keeping the UTF-8 around it, and says where', () => {
    const bytes = Buffer.concat([
      Buffer.from('line ✓ one\n'),
      latin1,
      Buffer.from(' – “ok”\n'),
      Buffer.from([0x93, 0x94]),
    ]);
    const read = utf8Piped(whole(bytes));
    expect(read.head.toString('utf8')).toBe('line ✓ one\ncafé – “ok”\n“”');
    expect(read.totalBytes).toBe(read.head.length);
    expect(read.note).toBe(
      'stdin is not all UTF-8: 3 bytes, the first byte 0xE9 at offset 16 (line 2), read as Windows-1252 (Latin-1); if the text is in another encoding, convert it first (iconv -f <encoding> -t UTF-8)',
    );
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
    const read = utf8Piped(bad);
    expect(read.tail.toString('utf8')).toBe('xycafé');
    expect(read.totalBytes).toBe(101);
    expect(read.note).toMatch(/^stdin is not all UTF-8: byte 0xE9 at offset 99, read as Windows-1252/);
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
  it('asks with the letters read as Windows-1252 and one warning on stderr', async () => {
    const ws = await workspace();
    const s = await server([{ text: 'coffee' }]);
    const r = await runKeel(['ask', 'translate', '--base-url', s.ollamaUrl, '--cwd', ws], {
      input: latin1 as unknown as string,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: stdin is not all UTF-8: byte 0xE9 at offset 3 (line 1)');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(JSON.stringify(s.requests[0]!.body)).toContain('café');
    expect(JSON.stringify(s.requests[0]!.body)).not.toContain('\\ufffd');
  });
});
