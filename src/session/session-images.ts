// Images in a session: the file never holds their bytes. The store writes a copy (up to a size cap) beside the
// session file, named by its hash, and keeps only the path, hash and size; a resumed session reads the bytes back,
// and an image whose copy is gone (too large to keep, or removed) reaches the model as a note saying so.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AgentEvent, ImageRecord, MessageEvent, PruneEdit } from '../core/events.js';
import type { SessionRecord } from './session-file.js';

/** Larger images are not copied: a session directory must not grow by screenshots of tens of megabytes. */
export const MAX_IMAGE_COPY_BYTES = 4 * 1024 * 1024;

/** `<id>.images/` beside `<id>.jsonl`. */
export function imagesDir(sessionFile: string): string {
  return `${sessionFile.replace(/\.jsonl$/, '')}.images`;
}

const extension: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** The event as the session file keeps it: every image's bytes copied out (or dropped), never inline. */
export function withStoredImages(event: AgentEvent, sessionFile: string): AgentEvent {
  const store = (m: MessageEvent) => storeMessage(m, sessionFile);
  if (event.type === 'message') return store(event);
  if (
    event.type === 'conversation_pruned' ||
    event.type === 'compaction' ||
    event.type === 'conversation_edited'
  ) {
    if (!event.edits.some((edit) => edit.messages.some(hasImages))) return event;
    const edits = event.edits.map(
      (edit): PruneEdit<MessageEvent> => ({ ...edit, messages: edit.messages.map(store) }),
    );
    return { ...event, edits };
  }
  return event;
}

const hasImages = (m: MessageEvent) =>
  (m.role === 'user' || m.role === 'tool') && (m.images?.length ?? 0) > 0;

function storeMessage(message: MessageEvent, sessionFile: string): MessageEvent {
  if ((message.role !== 'user' && message.role !== 'tool') || !message.images?.length) return message;
  return { ...message, images: message.images.map((image) => storeImage(image, sessionFile)) };
}

function storeImage(image: ImageRecord, sessionFile: string): ImageRecord {
  if (image.data === undefined) return image;
  const { data, ...rest } = image;
  const bytes = Buffer.from(data, 'base64');
  const sha256 = image.sha256 ?? createHash('sha256').update(bytes).digest('hex');
  const kept: ImageRecord = { ...rest, sha256, bytes: image.bytes ?? bytes.length };
  if (bytes.length > MAX_IMAGE_COPY_BYTES) {
    delete kept.path;
    return kept;
  }
  const path = join(imagesDir(sessionFile), `${sha256}.${extension[image.media_type] ?? 'img'}`);
  try {
    mkdirSync(imagesDir(sessionFile), { recursive: true, mode: 0o700 });
    // Named by content: the same screenshot twice is one file.
    writeFileSync(path, bytes, { mode: 0o600, flag: 'w' });
    return { ...kept, path };
  } catch {
    // The conversation matters more than the picture: the line is written, the image will read as gone.
    delete kept.path;
    return kept;
  }
}

/** A resumed session's images get their bytes back from the copies (checked against the hash); missing ones stay without. */
export async function loadSessionImages(record: SessionRecord, sessionFile: string): Promise<void> {
  const dir = imagesDir(sessionFile);
  const load = async (m: MessageEvent) => {
    if ((m.role !== 'user' && m.role !== 'tool') || !m.images?.length) return;
    for (const image of m.images) {
      // Only the session's own copies are read back, whatever a line says.
      if (image.data !== undefined || image.path === undefined || dirname(image.path) !== dir) continue;
      const bytes = await readFile(image.path).catch(() => undefined);
      if (!bytes) continue;
      if (image.sha256 && createHash('sha256').update(bytes).digest('hex') !== image.sha256) continue;
      image.data = bytes.toString('base64');
    }
  };
  for (const event of record.events) {
    if (event.type === 'message') await load(event);
    else if (
      event.type === 'conversation_pruned' ||
      event.type === 'compaction' ||
      event.type === 'conversation_edited'
    )
      for (const edit of event.edits) for (const m of edit.messages) await load(m);
  }
}

/** `keel sessions rm`: the copies go with the session. */
export async function removeSessionImages(sessionFile: string): Promise<void> {
  await rm(imagesDir(sessionFile), { recursive: true, force: true });
}
