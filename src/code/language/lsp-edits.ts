// LSP positions and edits on plain text: offsets from 0-based UTF-16 positions, TextEdits applied to a file's text,
// and a WorkspaceEdit turned into whole-file changes (refused when it touches files outside the workspace).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Location, Position, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { isInside, realpathDeepest } from '../../safety/workspace.js';
import type { FileChange } from './service.js';

/** Offsets where each line starts; LSP ends lines at \n, \r\n or \r. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) continue;
    if (c === 10 || c === 13) starts.push(i + 1);
  }
  return starts;
}

/** The string offset of an LSP position (JS strings count UTF-16 units, as LSP does); clamped to the line as the spec says. */
export function offsetAt(text: string, starts: number[], position: Position): number {
  if (position.line >= starts.length) return text.length;
  const start = starts[position.line] ?? 0;
  const next = starts[position.line + 1] ?? text.length;
  let end = next;
  while (end > start && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  return Math.min(start + Math.max(0, position.character), end);
}

/** `text` with `edits` applied; edits at one position keep their given order. Throws on overlapping edits. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = lineStarts(text);
  const spans = edits
    .map((edit, index) => ({
      start: offsetAt(text, starts, edit.range.start),
      end: offsetAt(text, starts, edit.range.end),
      newText: edit.newText,
      index,
    }))
    .sort((a, b) => a.start - b.start || a.index - b.index);
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.start < at || span.end < span.start) throw new Error('the server sent overlapping edits');
    out += text.slice(at, span.start) + span.newText;
    at = span.end;
  }
  return out + text.slice(at);
}

/** A file: URI as an absolute path, or undefined for another scheme. */
export function uriPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

/** The edits per URI, from `changes` or `documentChanges`; a string when the edit creates, renames or deletes files. */
export function editsByUri(edit: WorkspaceEdit): Map<string, TextEdit[]> | string {
  const byUri = new Map<string, TextEdit[]>();
  const add = (uri: string, edits: readonly TextEdit[]) =>
    byUri.set(uri, [...(byUri.get(uri) ?? []), ...edits]);
  if (edit.documentChanges) {
    for (const change of edit.documentChanges) {
      if (!('textDocument' in change))
        return `the rename would ${change.kind} files, which Keel does not do here`;
      // AnnotatedTextEdit and SnippetTextEdit share range + newText; a snippet's text is taken as written.
      add(
        change.textDocument.uri,
        change.edits.map((e) => ({
          range: e.range,
          newText: 'newText' in e ? e.newText : e.snippet.value,
        })),
      );
    }
  } else {
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
  }
  return byUri;
}

/**
 * The rename's edit plus the references in files it leaves alone (pyright renames only in its program's files, but
 * finds references in every open one); a string when the edit has file operations.
 */
export function withReferences(
  edit: WorkspaceEdit,
  references: readonly Location[],
  newName: string,
): WorkspaceEdit | string {
  const byUri = editsByUri(edit);
  if (typeof byUri === 'string') return byUri;
  const edited = new Set(byUri.keys());
  for (const reference of references) {
    if (edited.has(reference.uri)) continue;
    byUri.set(reference.uri, [
      ...(byUri.get(reference.uri) ?? []),
      { range: reference.range, newText: newName },
    ]);
  }
  return { changes: Object.fromEntries(byUri) };
}

/**
 * Several renames' edits as one (a method's and its overrides'): an edit two of them make at the same place is
 * made once; a string when one has file operations.
 */
export function mergeEdits(edits: readonly WorkspaceEdit[]): WorkspaceEdit | string {
  if (edits.length === 1) return edits[0]!;
  const merged = new Map<string, TextEdit[]>();
  const seen = new Set<string>();
  for (const edit of edits) {
    const byUri = editsByUri(edit);
    if (typeof byUri === 'string') return byUri;
    for (const [uri, list] of byUri)
      for (const one of list) {
        const { start, end } = one.range;
        const id = `${uri}\0${start.line}:${start.character}-${end.line}:${end.character}\0${one.newText}`;
        if (seen.has(id)) continue;
        seen.add(id);
        merged.set(uri, [...(merged.get(uri) ?? []), one]);
      }
  }
  return { changes: Object.fromEntries(merged) };
}

/**
 * A WorkspaceEdit as whole-file changes of files inside `root` (symlink-free), texts read from `textOf` (the
 * server's view) or disk. A string says why it cannot be applied: a file outside the workspace, a file operation.
 */
export async function workspaceEditChanges(
  edit: WorkspaceEdit,
  root: string,
  textOf: (absolute: string) => string | undefined,
): Promise<FileChange[] | string> {
  const byUri = editsByUri(edit);
  if (typeof byUri === 'string') return byUri;
  const changes: FileChange[] = [];
  for (const [uri, edits] of byUri) {
    const file = uriPath(uri);
    const outside = `the rename would change ${file ?? uri}, outside the workspace; nothing was changed`;
    if (!file) return outside;
    let real: string;
    try {
      real = await realpathDeepest(file, (detail) => {
        throw new Error(detail);
      });
    } catch {
      return outside;
    }
    if (!isInside(root, real)) return outside;
    const before = textOf(file) ?? (await fs.readFile(real, 'utf8'));
    const after = applyTextEdits(before, edits);
    if (after === before) continue;
    const relative = path.relative(root, real).split(path.sep).join('/');
    changes.push({ path: relative, before, after, count: edits.length });
  }
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}
