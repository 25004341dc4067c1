// findSession: the session an id names, a prefix allowed where a person types the id (--resume, keel sessions) and
// the whole id only where a program holds one (keel acp's session/load).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSession } from '../../src/session/session-file.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keel-sessions-'));
  for (const id of ['20261127-101010-7', '20261127-101010-7-2', '20261127-111111-8'])
    await writeFile(join(dir, `${id}.jsonl`), '');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('findSession', () => {
  it.each([
    ['a whole id', '20261127-101010-7', false, '20261127-101010-7'],
    ['a whole id, exactly', '20261127-101010-7', true, '20261127-101010-7'],
    ['the prefix of one session', '20261127-1111', false, '20261127-111111-8'],
  ])('finds %s', async (_what, id, exact, found) => {
    expect(await findSession(dir, id, exact)).toBe(found);
  });

  it.each([
    ['a prefix, when the whole id is asked for', '20261127-1111', true, /no session "20261127-1111"/],
    ['an empty id, when the whole id is asked for', '', true, /a session id is needed/],
    ['an empty id, as a prefix', '', false, /a session id is needed, and the one given is empty/],
    ['an id of spaces', '  ', false, /a session id is needed/],
    ['a prefix naming two', '20261127-10', false, /names 2 sessions/],
    ['a path', '../x', true, /no session/],
  ])('finds nothing for %s', async (_what, id, exact, message) => {
    await expect(findSession(dir, id, exact)).rejects.toThrow(message);
  });
});
