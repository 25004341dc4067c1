// A run's sparse line indexes of the big files read_file has paged through: how many lines start before every
// stride-th byte, so the next range of the same file starts near its line instead of rescanning from the top (a
// model paging through a log). Keyed by the file's identity and version (device, inode, size, mtime, ctime), so
// a file that changed is scanned afresh; a few files, a bounded number of entries each.

/** The identity and version of an open file, from fstat with bigint times. */
export interface FileVersion {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** Entries per file at most: a file's stride grows with its size so its index stays within this. */
const MAX_ENTRIES = 16_384;
/** Files indexed at once; the least recently read is dropped first. */
const MAX_FILES = 4;

/** One file's index: `newlines[k - 1]` newline bytes lie before byte k × stride. */
export class LineIndex {
  readonly newlines: number[] = [];
  constructor(readonly stride: number) {}

  /** The furthest indexed point before line `line` (0-based) starts: its byte offset and the lines before it. */
  before(line: number): { offset: number; line: number } {
    // The last k with newlines[k - 1] < line: that point lies inside or before the line's start.
    let lo = 0;
    let hi = this.newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.newlines[mid]! < line) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? { offset: 0, line: 0 } : { offset: lo * this.stride, line: this.newlines[lo - 1]! };
  }

  /** Records that `newlines` newline bytes lie before `offset`, when it is the next stride point. */
  record(offset: number, newlines: number): void {
    if (offset === (this.newlines.length + 1) * this.stride && this.newlines.length < MAX_ENTRIES)
      this.newlines.push(newlines);
  }
}

/** The stride of a file's index: a multiple of `block` (the scan's read size) keeping it within MAX_ENTRIES. */
export function strideFor(size: number, block: number): number {
  return Math.max(1, Math.ceil(size / MAX_ENTRIES / block)) * block;
}

const keyOf = (v: FileVersion): string => `${v.dev}:${v.ino}:${v.size}:${v.mtimeNs}:${v.ctimeNs}`;

/** The run's indexes, by file version (see the file comment). */
export class LineIndexes {
  private readonly files = new Map<string, { path: string; index: LineIndex }>();

  /** The index of this version of `path`, made empty when there is none; the file is kept as most recently read. */
  of(path: string, version: FileVersion, block: number): LineIndex {
    const key = keyOf(version);
    const found = this.files.get(key);
    let index = found?.path === path && found.index.stride % block === 0 ? found.index : undefined;
    this.files.delete(key);
    // Another version of the same path is stale now.
    for (const [other, entry] of this.files) if (entry.path === path) this.files.delete(other);
    index ??= new LineIndex(strideFor(Number(version.size), block));
    this.files.set(key, { path, index });
    while (this.files.size > MAX_FILES) this.files.delete(this.files.keys().next().value!);
    return index;
  }

  /** How many files are indexed (tests). */
  get size(): number {
    return this.files.size;
  }
}
