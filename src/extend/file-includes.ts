// `@path` in a custom command's text (`@"a path"` or `@a\ path` with spaces, as in the chat): the file, jailed to the
// workspace and cut at a size cap, appended to the message. A path leading outside the workspace is an error; a word that names no file (`@decorator`) stays text, and
// so does a binary file's (an image goes as an image: cli/chat-attach.ts). A file that is not UTF-8 stays text too,
// skipped with the reason as the chat skips it.
import { open, stat } from 'node:fs/promises';
import { AT_PATH, atPathOf } from '../core/at-paths.js';
import { looksBinary } from '../core/binary.js';
import { UsageError } from '../core/errors.js';
import { notUtf8Reason } from '../core/utf8.js';
import type { ReadJail } from '../safety/read-jail.js';
import { PathEscapeError, type Workspace } from '../safety/workspace.js';

/** Bytes of one included file, at most. */
export const INCLUDE_CAP = 100_000;

/** An @file left as text, and why (said to the user as the chat says it). */
export interface SkippedInclude {
  path: string;
  reason: string;
}

/**
 * The file's text, cut at the cap; undefined for a binary file (an image is attached as one by the caller), a reason
 * for text that is not UTF-8 (decoded, each letter Keel cannot read would reach the model as U+FFFD).
 */
async function readCapped(file: string): Promise<{ text: string; size: number } | string | undefined> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, INCLUDE_CAP));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead);
    if (looksBinary(head)) return undefined;
    const notUtf8 = notUtf8Reason(head, size > bytesRead);
    if (notUtf8) return notUtf8;
    const text = head.toString('utf8');
    // A cut may split a character: its broken tail goes.
    return { text: size > INCLUDE_CAP ? text.replace(/\uFFFD+$/, '') : text, size };
  } finally {
    await handle.close();
  }
}

export async function includeFiles(
  text: string,
  workspace: Workspace,
  signal?: AbortSignal,
  /** Refuses what a link inside the workspace carries into a secret; without it, the workspace jail alone. */
  jail?: ReadJail,
  /** Told of each file left as text with a reason (not UTF-8). */
  skipped?: (skip: SkippedInclude) => void,
): Promise<string> {
  const blocks: string[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(AT_PATH)) {
    signal?.throwIfAborted();
    const requested = atPathOf(match);
    if (!requested || seen.has(requested)) continue;
    let absolute: string;
    try {
      absolute = await workspace.resolve(requested);
    } catch (error) {
      if (error instanceof PathEscapeError) {
        throw new UsageError(`@${requested}: ${error.message}`, {
          hint: 'a command may include only files inside the workspace, and no secret under another name',
        });
      }
      throw error;
    }
    const info = await stat(absolute).catch(() => undefined);
    if (!info?.isFile()) continue;
    const checked = jail ? await jail.check(requested, workspace.root) : undefined;
    if (checked && 'refused' in checked) {
      throw new UsageError(`@${requested} is refused: ${checked.refused}`, {
        hint: 'a command may include only files inside the workspace',
      });
    }
    seen.add(requested);
    const read = await readCapped(absolute);
    if (!read) continue;
    if (typeof read === 'string') {
      skipped?.({ path: requested, reason: read });
      continue;
    }
    const { text: content, size } = read;
    const cut = size > INCLUDE_CAP ? `\n[cut: the first ${INCLUDE_CAP} of ${size} bytes]` : '';
    blocks.push(`<file path="${workspace.relative(absolute)}">\n${content}${cut}\n</file>`);
  }
  return blocks.length === 0 ? text : `${text.trimEnd()}\n\n${blocks.join('\n\n')}`;
}
