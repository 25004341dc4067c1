// A CommonJS package file (the TypeScript compiler: 9 MB of JavaScript) loaded through a V8 code cache kept under
// Keel's cache dir, as the launcher loads Keel's own bundle: a run's first code tool or diagnostics check then skips
// compiling the file, and the functions the run that wrote the cache compiled (here 0.35 s of the first check's
// 1.8 s). Node 20 has no compile cache of its own. V8 refuses a cache made by another V8 or for other source; the
// file's name holds the source's path, size and time, so a changed package gets a cache of its own.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';
import { threadId } from 'node:worker_threads';

export interface CachedModule {
  exports: unknown;
  /** Whether V8 took the cache (false: there was none, or it was refused). */
  fromCache: boolean;
  /**
   * Writes the cache, with every function compiled since, unless V8 took the one there was; once. Never throws: a
   * cache that cannot be written leaves the next run to compile the file again.
   */
  save(): void;
}

/** `file` required through the code cache in `dir` (undefined: a plain require, nothing written). */
export function requireCached(file: string, dir: string | undefined): CachedModule {
  const require = createRequire(file);
  const plain = (): CachedModule => ({ exports: require(file), fromCache: false, save: () => {} });
  if (dir === undefined) return plain();
  let source: string;
  let key: string;
  try {
    const stat = statSync(file);
    key = createHash('sha256')
      .update(`${file}\0${stat.size}\0${stat.mtimeMs}\0${process.version}\0${process.arch}`)
      .digest('hex')
      .slice(0, 16);
    source = readFileSync(file, 'utf8');
  } catch {
    return plain();
  }
  const prefix = `${path.basename(file, '.js')}-`;
  const cacheFile = path.join(dir, `${prefix}${key}.v8`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // None yet.
  }
  // The wrapper Node puts around a CommonJS file; __filename matters (TypeScript finds its lib files beside it).
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} as unknown };
  script.runInThisContext()(module.exports, require, module, file, path.dirname(file));
  const fromCache = cachedData !== undefined && script.cachedDataRejected !== true;
  let saved = fromCache;
  return {
    exports: module.exports,
    fromCache,
    save() {
      if (saved) return;
      saved = true;
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        // Per thread: each TypeScript worker of a process loads the compiler on its own.
        const temp = `${cacheFile}.${process.pid}.${threadId}.tmp`;
        writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
        renameSync(temp, cacheFile);
        // The caches of earlier versions of the file.
        for (const name of readdirSync(dir))
          if (name.startsWith(prefix) && name.endsWith('.v8') && path.join(dir, name) !== cacheFile)
            rmSync(path.join(dir, name), { force: true });
      } catch {
        // Unwritable: the next run compiles the file again.
      }
    },
  };
}
