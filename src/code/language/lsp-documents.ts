// The files a language server has open: opened from disk on first use, re-sent when they changed on disk, given a
// temporary text (an overlay) while diagnostics are checked, and closed when too many are open.
import { promises as fs } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { LspClient } from './lsp-client.js';

interface OpenDocument {
  uri: string;
  version: number;
  /** The text the server has. */
  text: string;
}

/** Open documents kept warm; the oldest unused one is closed past this. */
const MAX_OPEN = 128;

export class LspDocuments {
  readonly #open = new Map<string, OpenDocument>();

  constructor(
    readonly client: LspClient,
    readonly languageId: (absolute: string) => string,
  ) {}

  /** The text the server has for a file, when it is open. */
  text(absolute: string): string | undefined {
    return this.#open.get(absolute)?.text;
  }

  /** Opens the file with its text on disk, or re-sends it when the disk changed; returns its URI. */
  async sync(absolute: string): Promise<string> {
    const disk = await fs.readFile(absolute, 'utf8');
    return this.set(absolute, disk).uri;
  }

  /** Gives the server `text` for the file (opening it if needed); returns the document with its new version. */
  set(absolute: string, text: string): { uri: string; version: number } {
    const open = this.#open.get(absolute);
    if (open) {
      // Most recently used last: Map keeps insertion order.
      this.#open.delete(absolute);
      this.#open.set(absolute, open);
      if (open.text !== text) {
        open.version++;
        open.text = text;
        this.client.notify('textDocument/didChange', {
          textDocument: { uri: open.uri, version: open.version },
          contentChanges: [{ text }],
        });
      }
      return open;
    }
    const uri = pathToFileURL(absolute).href;
    const document = { uri, version: 1, text };
    this.#open.set(absolute, document);
    this.client.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: this.languageId(absolute), version: 1, text },
    });
    this.#trim();
    return document;
  }

  /** Sends the same text again under a new version, so the server publishes fresh diagnostics for it. */
  touch(absolute: string): { uri: string; version: number } {
    const open = this.#open.get(absolute);
    if (!open) throw new Error(`not open: ${absolute}`);
    open.version++;
    this.client.notify('textDocument/didChange', {
      textDocument: { uri: open.uri, version: open.version },
      contentChanges: [{ text: open.text }],
    });
    return open;
  }

  isOpen(absolute: string): boolean {
    return this.#open.has(absolute);
  }

  /**
   * After files changed on disk: open ones are re-sent, the others this server handles are opened (a server adds
   * an opened file to its program at once, while a watched-file event may wait for its next scan), and every
   * change is announced as a watched-file event too.
   */
  async changed(files: readonly string[], handles: (absolute: string) => boolean): Promise<void> {
    const watched: { uri: string; type: number }[] = [];
    for (const absolute of files) {
      const exists = await fs.stat(absolute).then(
        (s) => s.isFile(),
        () => false,
      );
      if (exists && (this.#open.has(absolute) || handles(absolute))) await this.sync(absolute);
      else this.#close(absolute);
      // FileChangeType: 1 created, 2 changed, 3 deleted. Servers treat "changed" of a file they did not know as new.
      watched.push({ uri: pathToFileURL(absolute).href, type: exists ? 2 : 3 });
    }
    if (watched.length > 0) this.client.notify('workspace/didChangeWatchedFiles', { changes: watched });
  }

  close(absolute: string): void {
    this.#close(absolute);
  }

  #close(absolute: string): void {
    const open = this.#open.get(absolute);
    if (!open) return;
    this.#open.delete(absolute);
    this.client.notify('textDocument/didClose', { textDocument: { uri: open.uri } });
  }

  #trim(): void {
    for (const absolute of this.#open.keys()) {
      if (this.#open.size <= MAX_OPEN) break;
      this.#close(absolute);
    }
  }
}
