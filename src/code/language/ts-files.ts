// The texts the TypeScript projects read, shared by all of a workspace's projects: a file's version is its
// mtime and size, checked again after `changed` (workspace files) or after anything may have changed (all files,
// node_modules and lib.d.ts included); an overlay serves texts not yet on disk (a rename checked before writing).
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface Entry {
  stamp: string;
  text: string | undefined;
  /** The generation this entry was last checked against the disk. */
  checked: number;
}

export class SourceTexts {
  readonly #entries = new Map<string, Entry>();
  /** Bumped when workspace files may have changed; `#outside` when anything may have (a command ran). */
  #workspace = 0;
  #outside = 0;
  #overlay: ReadonlyMap<string, string> = new Map();
  #overlaySerial = 0;

  constructor(readonly root: string) {}

  /** Absolute paths → texts served instead of the disk's until `withOverlay`'s callback returns. */
  withOverlay<T>(overlay: ReadonlyMap<string, string> | undefined, run: () => T): T {
    if (!overlay || overlay.size === 0) return run();
    this.#overlaySerial += 1;
    this.#overlay = overlay;
    try {
      return run();
    } finally {
      this.#overlay = new Map();
    }
  }

  /**
   * Changes whenever what exists may have: files changed, or an overlay is served or taken away. A module
   * resolution cache is good for one generation.
   */
  get generation(): string {
    return `${this.#workspace}:${this.#outside}:${this.#overlay.size > 0 ? this.#overlaySerial : 0}`;
  }

  /** Files of the overlay that are not on disk (new files a change would create). */
  overlayFiles(): string[] {
    return [...this.#overlay.keys()];
  }

  inWorkspace(file: string): boolean {
    const rel = path.relative(this.root, file);
    return (
      rel !== '' &&
      !rel.startsWith('..') &&
      !path.isAbsolute(rel) &&
      !rel.split(path.sep).includes('node_modules')
    );
  }

  #entry(file: string): Entry {
    const generation = this.inWorkspace(file) ? this.#workspace + this.#outside : this.#outside;
    const known = this.#entries.get(file);
    if (known && known.checked === generation) return known;
    let stamp = 'missing';
    try {
      const stat = statSync(file);
      if (stat.isFile()) stamp = `${stat.mtimeMs}:${stat.size}`;
    } catch {}
    if (known && known.stamp === stamp) {
      known.checked = generation;
      return known;
    }
    const entry: Entry = { stamp, text: undefined, checked: generation };
    if (stamp !== 'missing') {
      try {
        entry.text = readFileSync(file, 'utf8');
      } catch {
        entry.stamp = 'missing';
      }
    }
    this.#entries.set(file, entry);
    return entry;
  }

  version(file: string): string {
    return this.#overlay.has(file) ? `overlay-${this.#overlaySerial}` : this.#entry(file).stamp;
  }

  text(file: string): string | undefined {
    return this.#overlay.get(file) ?? this.#entry(file).text;
  }

  exists(file: string): boolean {
    return this.#overlay.has(file) || this.#entry(file).stamp !== 'missing';
  }

  /** Workspace files changed (or all files, `everything`: a command may have written anywhere). */
  changed(everything: boolean): void {
    if (everything) this.#outside += 1;
    else this.#workspace += 1;
  }
}
