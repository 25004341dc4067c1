// Text that is not UTF-8 (Latin-1, Windows-1252): piped on stdin, each such byte is read as Windows-1252 with one
// warning (a diff mixing a Latin-1 file with UTF-8 ones keeps every letter); a plan file or an @file (the chat's, a
// command file's) is refused with where and how to convert it. Never sent as U+FFFD; UTF-16 with a byte-order mark is converted.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachFiles, expandCommand } from '../../src/cli/chat-attach.js';
import { type PipedInput, utf8Piped } from '../../src/cli/piped-input.js';
import { includeFiles, type SkippedInclude } from '../../src/extend/file-includes.js';
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

  it("skips a command file's @file in Latin-1 as the chat does, saying why, and includes a UTF-8 one", async () => {
    await writeFile(join(dir, 'latin.txt'), latin1);
    await writeFile(join(dir, 'fine.txt'), 'café\n');
    const skipped: SkippedInclude[] = [];
    const text = await includeFiles(
      'see @latin.txt and @fine.txt',
      await openWorkspace(dir),
      undefined,
      undefined,
      (s) => skipped.push(s),
    );
    expect(skipped).toEqual([
      {
        path: 'latin.txt',
        reason: expect.stringMatching(/^not UTF-8 text \(byte 0xE9 at offset 3 \(line 1\)\); .*iconv/),
      },
    ]);
    expect(text).toBe('see @latin.txt and @fine.txt\n\n<file path="fine.txt">\ncafé\n\n</file>');
  });

  it('includes a long UTF-8 file cut inside a character, and one whose Latin-1 byte lies past the cap', async () => {
    // 99,999 bytes, then é (two bytes): the cap at 100,000 splits it.
    await writeFile(join(dir, 'split.txt'), `${'a'.repeat(99_999)}é and more`);
    await writeFile(join(dir, 'late.txt'), Buffer.concat([Buffer.from('b'.repeat(100_010)), latin1]));
    const skipped: SkippedInclude[] = [];
    const text = await includeFiles(
      '@split.txt @late.txt',
      await openWorkspace(dir),
      undefined,
      undefined,
      (s) => skipped.push(s),
    );
    expect(skipped).toEqual([]);
    expect(text).toContain('<file path="split.txt">');
    expect(text).toContain('<file path="late.txt">');
    expect(text).not.toContain('\uFFFD');
  });

  it("in the chat, a command's skipped @file is said as the chat's own are", async () => {
    const shown: { path: string; reason: string }[][] = [];
    const command = {
      name: 'look',
      description: '',
      source: 'project',
      expand: async (_args: string, _signal?: AbortSignal, skipped?: (s: SkippedInclude) => void) => {
        skipped?.({ path: 'latin.txt', reason: 'not UTF-8 text' });
        return 'look';
      },
    };
    const text = await expandCommand(
      command,
      { name: 'look', args: '' },
      {
        busy: (_label, work) => work(new AbortController().signal),
        screen: { attachments: (_attached, skipped) => void shown.push([...skipped]) },
      },
    );
    expect(text).toBe('look');
    expect(shown).toEqual([[{ path: 'latin.txt', reason: 'not UTF-8 text' }]]);
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
