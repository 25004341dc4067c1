// The hashes of files over checkpoints.max_file_mb kept in the shadow store: reused while a file's stat data holds,
// and a hash under way given up with the stage that asked for it.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LARGE_HASHES_FILE, largeHashes } from '../../src/checkpoint/large-hashes.js';
import { useCleanup } from '../support/cleanup.js';

const track = useCleanup();

async function dirs() {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'keel-large-hashes-')));
  track(() => rm(root, { recursive: true, force: true }));
  const gitDir = join(root, '.shadow');
  await fs.mkdir(gitDir);
  return { root, gitDir };
}

describe('large file hashes', () => {
  it('are kept in the store and reused while the stat data holds', async () => {
    const { root, gitDir } = await dirs();
    await fs.writeFile(join(root, 'a.bin'), 'first');
    const first = largeHashes(gitDir, root);
    const hashed = await first.of('a.bin', await fs.stat(join(root, 'a.bin')));
    await first.save();
    const kept = JSON.parse(await fs.readFile(join(gitDir, LARGE_HASHES_FILE), 'utf8'));
    expect(kept['a.bin'].sha256).toBe(hashed.sha256);
    kept['a.bin'].sha256 = 'b'.repeat(64);
    await fs.writeFile(join(gitDir, LARGE_HASHES_FILE), JSON.stringify(kept));
    const later = largeHashes(gitDir, root);
    expect((await later.of('a.bin', await fs.stat(join(root, 'a.bin')))).sha256).toBe('b'.repeat(64));
  });

  it('a hash under way stops when its stage is given up, and nothing is kept for it', async () => {
    const { root, gitDir } = await dirs();
    // Sparse: 2 GB to read, no disk taken.
    await fs.writeFile(join(root, 'huge.bin'), '');
    await fs.truncate(join(root, 'huge.bin'), 2 * 1024 ** 3);
    const hashes = largeHashes(gitDir, root);
    const controller = new AbortController();
    const hashing = hashes.of('huge.bin', await fs.stat(join(root, 'huge.bin')), controller.signal);
    controller.abort();
    await expect(hashing).rejects.toThrow(/abort/i);
    await hashes.save();
    await expect(fs.readFile(join(gitDir, LARGE_HASHES_FILE), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});
