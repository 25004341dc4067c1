// Where a session export goes (`/save <file>`, `keel sessions export --out <file>`): the format a file name asks
// for, and one clear error when the place cannot take the file. Light on purpose: the exporters load only to export.
import { writeFile } from 'node:fs/promises';
import type { ExportFormat } from './export.js';
import { SessionError } from './session-file.js';

/** The format of `file`'s extension: `.md`/`.markdown`, `.html`/`.htm`, `.json`; undefined for any other. */
export function exportFormatOf(file: string): ExportFormat | undefined {
  if (/\.(md|markdown)$/i.test(file)) return 'md';
  if (/\.html?$/i.test(file)) return 'html';
  if (/\.json$/i.test(file)) return 'json';
  return undefined;
}

const REASONS: Record<string, string> = {
  ENOENT: 'its directory does not exist',
  ENOTDIR: 'a parent is not a directory',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
};

/** Writes an export (0600); a path that cannot take it is a usage error naming it and why. */
export async function writeExport(target: string, text: string): Promise<void> {
  try {
    await writeFile(target, text, { mode: 0o600 });
  } catch (error) {
    const reason = REASONS[(error as NodeJS.ErrnoException).code ?? ''];
    if (reason === undefined) throw error;
    throw new SessionError(
      `cannot write the export to ${target}: ${reason}`,
      'name a file in an existing directory you can write to',
      true,
    );
  }
}
