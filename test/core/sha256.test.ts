// sha256Hex must give exactly node:crypto's digest: workspace keys (session and state folders) are made with it.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { workspaceKey } from '../../src/config/paths.js';
import { sha256Hex } from '../../src/core/sha256.js';

const nodeSha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sha256Hex', () => {
  it.each([
    ['empty', ''],
    ['a path', '/home/user/projects/keel'],
    ['non-ASCII', '/home/zoë/проект/日本語 folder'],
    ['an astral character', '/tmp/\u{1F600}'],
    ['a lone surrogate (as Buffer.from writes it)', 'a\uD800b'],
    ['64 bytes, one block', 'x'.repeat(64)],
    ['55 and 56 bytes, the padding edge', 'y'.repeat(55) + 'z'.repeat(56)],
    ['long', 'long text\n'.repeat(10_000)],
  ])('matches node:crypto for %s', (_name, text) => {
    expect(sha256Hex(text)).toBe(nodeSha256(text));
  });

  it('keeps workspace keys as they were', () => {
    expect(workspaceKey('/home/user/my project')).toBe(
      `my-project-${nodeSha256('/home/user/my project').slice(0, 12)}`,
    );
  });
});
