// File system refusals from the environment become one message naming the path and the fix, never an internal error.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportFailure } from '../../src/cli/report.js';
import { atPath, ExitCode, environmentError } from '../../src/core/errors.js';

const fsError = (code: string, path?: string) =>
  Object.assign(new Error(`${code}: failed, mkdir '${path}'`), {
    code,
    syscall: 'mkdir',
    ...(path ? { path } : {}),
  });

describe('environmentError', () => {
  it.each([
    ['ENOSPC', /no space left on the disk to write \/s\/keel/, /free space/],
    ['EDQUOT', /no space left/, /free space/],
    ['EACCES', /permission denied writing \/s\/keel/, /chown or chmod/],
    ['EPERM', /permission denied writing \/s\/keel/, /chown or chmod/],
    ['EROFS', /\/s\/keel is on a read-only file system/, /mount it writable/],
    ['ENOTDIR', /a file stands where a directory should be/, /move that file away/],
    // Node's recursive mkdir reports a read-only mount as ENOENT.
    ['ENOENT', /^cannot create \/s\/keel/, /make it writable/],
  ])('%s names the path and the fix', (code, message, hint) => {
    const error = environmentError(fsError(code, '/s/keel'));
    expect(error?.message).toMatch(message);
    expect(error?.hint).toMatch(hint);
    expect(error?.hint).toContain('XDG_STATE_HOME');
    expect(error?.exitCode).toBe(ExitCode.failed);
  });

  it('a write to an open file on a full disk (no path in the error) names the file it was given', () => {
    const write = () =>
      Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        syscall: 'write',
      });
    expect(environmentError(write())).toBeUndefined();
    expect(environmentError(atPath(write(), '/d/keel/sessions/s.jsonl'))?.message).toBe(
      'no space left on the disk to write /d/keel/sessions/s.jsonl',
    );
    // A path of its own is kept; what is not a file system error passes as it is.
    expect(environmentError(atPath(fsError('ENOSPC', '/s/keel'), '/other'))?.message).toContain('/s/keel');
    const plain = new Error('boom');
    expect(atPath(plain, '/x')).toBe(plain);
    expect((plain as NodeJS.ErrnoException).path).toBeUndefined();
  });

  it('ENOTDIR names the file that stands in the way', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keel-env-'));
    try {
      await writeFile(join(dir, 'state'), 'x');
      const error = environmentError(fsError('ENOTDIR', join(dir, 'state', 'keel', 'store.lock')));
      expect(error?.message).toBe(
        `cannot use ${join(dir, 'state', 'keel', 'store.lock')}: ${join(dir, 'state')} is a file where a directory should be`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['another code', fsError('EBUSY', '/s/keel')],
    ['ENOENT of a read', Object.assign(fsError('ENOENT', '/s/keel'), { syscall: 'open' })],
    ['no path', fsError('EACCES')],
    ['not an error', 'text'],
  ])('leaves %s alone', (_name, error) => {
    expect(environmentError(error)).toBeUndefined();
  });

  it('reportFailure prints it once, without "internal error" or "report it", and returns exit 1', () => {
    const lines: string[] = [];
    const out = { print: (t: string) => lines.push(t), notice: (t: string) => lines.push(t) };
    const code = reportFailure(fsError('ENOSPC', '/s/keel/sessions'), { out });
    expect(code).toBe(1);
    expect(lines.join('')).toBe(
      'error: no space left on the disk to write /s/keel/sessions\n  hint: free space on that disk, or set XDG_STATE_HOME and XDG_DATA_HOME to a writable directory\n',
    );
  });
});
