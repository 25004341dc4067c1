// Writes a checkpoint's commit and tree objects and moves its ref without a git process: all are a few bytes in
// formats git defines (a zlib-deflated "<type> <size>\0<body>" named by its SHA-1; a ref file holding a hash), and a
// process per checkpoint costs more than the write.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';

const AUTHOR = 'Keel <keel@localhost>';

/** Whether the store holds an object loose (a packed one is not looked for). */
export function hasLooseObject(gitDir: string, oid: string): Promise<boolean> {
  return fs.stat(join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2))).then(
    () => true,
    () => false,
  );
}

/**
 * The ids of the objects in the store's own packs (objects/pack/*.idx, versions 1 and 2), as hex. A pack index is
 * a fan-out table of 256 counts, then the sorted 20-byte names (version 2, after its 8-byte header) or offset and
 * name pairs (version 1): reading the names is cheap, where finding each object in a pack one by one is not.
 */
export async function packedObjectIds(gitDir: string): Promise<Set<string>> {
  const ids = new Set<string>();
  const folder = join(gitDir, 'objects', 'pack');
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.endsWith('.idx')) continue;
    const idx = await fs.readFile(join(folder, name)).catch(() => undefined);
    if (!idx || idx.length < 1032) continue;
    const v2 = idx.readUInt32BE(0) === 0xff744f63;
    const fanout = v2 ? 8 : 0;
    const count = idx.readUInt32BE(fanout + 255 * 4);
    const first = fanout + 256 * 4;
    const stride = v2 ? 20 : 24;
    const skip = v2 ? 0 : 4;
    if (idx.length < first + count * stride) continue;
    for (let i = 0; i < count; i++) {
      const at = first + i * stride + skip;
      ids.add(idx.toString('hex', at, at + 20));
    }
  }
  return ids;
}

/** Writes an object loose unless it is there; resolves with its hash (`oid`: already known to the caller). */
export async function writeLooseObject(
  gitDir: string,
  type: 'commit' | 'tree' | 'blob',
  body: Buffer,
  oid?: string,
): Promise<string> {
  const header = Buffer.from(`${type} ${body.length}\0`);
  const hash = oid ?? createHash('sha1').update(header).update(body).digest('hex');
  if (await hasLooseObject(gitDir, hash)) return hash;
  const path = join(gitDir, 'objects', hash.slice(0, 2), hash.slice(2));
  const temp = join(gitDir, 'objects', `tmp_obj_${process.pid}_${randomBytes(4).toString('hex')}`);
  await fs.writeFile(temp, deflateSync(Buffer.concat([header, body])), { mode: 0o444 });
  // The store's background repack removes fan-out folders it emptied (prune-packed), maybe between our mkdir and
  // rename: made again and retried, as git does.
  for (let attempt = 0; ; attempt++) {
    await fs.mkdir(dirname(path), { recursive: true });
    try {
      await fs.rename(temp, path);
      return hash;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) {
        await fs.rm(temp, { force: true });
        throw error;
      }
    }
  }
}

/** Writes a commit of `tree` (after `parent`, if any) as a loose object; resolves with its hash. */
export function writeCommit(
  gitDir: string,
  commit: { tree: string; parent?: string; message: string; time?: Date },
): Promise<string> {
  const seconds = Math.floor((commit.time ?? new Date()).getTime() / 1000);
  const stamp = `${AUTHOR} ${seconds} +0000`;
  const body = Buffer.from(
    `tree ${commit.tree}\n${commit.parent ? `parent ${commit.parent}\n` : ''}author ${stamp}\ncommitter ${stamp}\n\n${commit.message}`,
  );
  return writeLooseObject(gitDir, 'commit', body);
}

/**
 * The first parent of a commit the store holds loose (as Keel writes them), read without a git process: '' when it
 * has none; undefined when it is not loose (packed since, or another object), for the caller to ask git.
 */
export async function looseCommitParent(gitDir: string, oid: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{40}$/.test(oid)) return undefined;
  const raw = await fs
    .readFile(join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2)))
    .catch(() => undefined);
  if (!raw) return undefined;
  let text: string;
  try {
    text = inflateSync(raw).toString('latin1');
  } catch {
    return undefined;
  }
  const body = text.indexOf('\0');
  if (!text.startsWith('commit ') || body < 0) return undefined;
  const header = text.slice(body + 1, text.indexOf('\n\n', body));
  return /^parent ([0-9a-f]{40})$/m.exec(header)?.[1] ?? '';
}

/** The hash a ref holds: its own file, else its line in packed-refs. */
export async function readRef(gitDir: string, ref: string): Promise<string | undefined> {
  const loose = await fs.readFile(join(gitDir, ref), 'utf8').catch(() => undefined);
  if (loose !== undefined) return /^[0-9a-f]{40}/.exec(loose)?.[0];
  const packed = await fs.readFile(join(gitDir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    if (line.endsWith(` ${ref}`)) return line.slice(0, 40);
  }
  return undefined;
}

export class RefMovedError extends Error {
  constructor(ref: string) {
    super(`${ref} was moved by another process meanwhile`);
    this.name = 'RefMovedError';
  }
}

/**
 * Points `ref` at `hash` if it still holds `old` (undefined: absent), as `git update-ref <ref> <new> <old>` does:
 * under git's own `<ref>.lock`, so a git process and another Keel see the same lock.
 */
export async function updateRef(gitDir: string, ref: string, hash: string, old: string | undefined) {
  const path = join(gitDir, ref);
  await fs.mkdir(dirname(path), { recursive: true });
  const written = await writeLocked(path, async () => {
    if ((await readRef(gitDir, ref)) !== old) throw new RefMovedError(ref);
    return `${hash}\n`;
  });
  if (!written) throw new Error(`${ref} is being written by another process (${path}.lock exists)`);
}

/**
 * Writes a file as git does: into `<path>.lock`, created exclusively (a git process writing it meanwhile holds that
 * lock), then renamed over it. `content` runs with the lock held. False, and nothing written, when the lock is held.
 */
export async function writeLocked(
  path: string,
  content: () => Promise<string | Uint8Array>,
  mode?: number,
): Promise<boolean> {
  const lock = `${path}.lock`;
  const handle = await fs.open(lock, 'wx', mode).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') return undefined;
    throw error;
  });
  if (!handle) return false;
  try {
    await handle.writeFile(await content());
    await handle.close();
    await fs.rename(lock, path);
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.rm(lock, { force: true });
    throw error;
  }
  return true;
}
