// read_file: returns a text file's content, whole or a range of lines. A file over the read limit
// (agent.tools.max_file_read_size) is read only in ranges, streamed: the lines up to the last one wanted. An
// image (PNG, JPEG, GIF, WebP) comes back as an image part; the loop names it instead to a model without vision.
import { promises as fs } from 'node:fs';
import * as z from 'zod';
import { IMAGE_EXTENSION, imageFromBytes, MAX_IMAGE_BYTES } from '../core/images.js';
import { describeImage } from '../core/messages.js';
import { editorText, readTextFile, withFsErrors } from './fs-util.js';
import { readLineRange } from './line-range.js';
import { defineTool, fail, ok, readPreview, type ToolContext, type ToolResult } from './tool.js';
import { decodeUtf8 } from './utf8.js';

const schema = z.strictObject({
  path: z.string(),
  offset: z.number().int().min(1).max(1e9).optional().describe('first line (1-based)'),
  limit: z.number().int().min(1).max(1e9).optional(),
});

/** Bytes kept free for the `[file: lines a-b of n; …]` header. */
const HEADER_ROOM = 200;

/** The end (exclusive) of the longest run of lines from start, up to wanted, that fits in maxBytes; at least one line. */
function fittingEnd(lines: string[], start: number, wanted: number, maxBytes: number): number {
  let bytes = 0;
  for (let i = start; i < wanted; i++) {
    bytes += Buffer.byteLength(lines[i]!) + 1;
    if (bytes > maxBytes) return Math.max(i, start + 1);
  }
  return wanted;
}

export const readFileTool = defineTool({
  name: 'read_file',
  description: 'Read a text file (or limit lines from offset), or an image.',
  schema,
  safety: 'safe',
  preview: (args, ctx) => readPreview(ctx, args.path, (shown) => `read ${shown}`),
  async execute(args, ctx) {
    const absolute = await ctx.workspace.resolveForRead(args.path);
    const shown = ctx.workspace.relative(absolute);
    // The editor's buffer when Keel runs inside one (keel acp), unsaved changes included.
    const edited = await editorText(ctx, absolute);
    const stat =
      edited === undefined ? await withFsErrors(shown, () => fs.stat(absolute), absolute) : undefined;
    if (stat?.isFile() && IMAGE_EXTENSION.test(absolute)) {
      const image = await readImage(absolute, shown, stat.size);
      if (image) return image;
    }
    if (stat?.isFile() && stat.size > ctx.limits.maxFileReadSize) {
      // Asked for whole: its first lines, as many as one result holds, and how to go on (a log's head is what is
      // usually wanted; refusing cost the model a turn).
      const whole = args.offset === undefined && args.limit === undefined;
      return readBigRange(absolute, shown, args.offset ?? 1, args.limit, ctx, whole ? stat.size : undefined);
    }
    const text = edited ?? (await readTextFile(absolute, shown, ctx.limits.maxFileReadSize));
    // A run that may edit this file has its language service load meanwhile (LanguageServices.warm).
    ctx.languages?.warm(shown);
    const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
    const total = text === '' ? 0 : lines.length;
    const whole = args.offset === undefined && args.limit === undefined;
    if (whole && Buffer.byteLength(text) <= ctx.limits.maxOutputSize) {
      const summary = `read ${shown} (${total} lines)`;
      return ok(text === '' ? '(empty file)' : text, { path: shown, lines: total }, summary);
    }
    const start = (args.offset ?? 1) - 1;
    if (start >= total) return fail(`offset ${start + 1} is past the end of ${shown} (${total} lines)`);
    const wanted = Math.min(total, args.limit === undefined ? total : start + args.limit);
    // A range larger than one result may hold is cut at a line boundary, saying where to go on.
    const end = fittingEnd(lines, start, wanted, ctx.limits.maxOutputSize - HEADER_ROOM);
    const more = end < wanted ? `; continue with offset ${end + 1}` : '';
    const header = `[${shown}: lines ${start + 1}-${end} of ${total}${more}]`;
    const body = lines.slice(start, end).join('\n');
    return ok(
      `${header}\n${body}`,
      { path: shown, lines: end - start },
      `read ${shown} lines ${start + 1}-${end}`,
    );
  },
});

/** An image file as an image part, or undefined when its bytes are not an image (read as text then). */
async function readImage(absolute: string, shown: string, size: number): Promise<ToolResult | undefined> {
  if (size > MAX_IMAGE_BYTES)
    return fail(
      `${shown} is an image of ${size} bytes, over the ${MAX_IMAGE_BYTES / 1024 / 1024} MB limit for images`,
    );
  const image = imageFromBytes(await withFsErrors(shown, () => fs.readFile(absolute), absolute), shown);
  if (!image) return undefined;
  const described = describeImage(image);
  return {
    ...ok(
      `image ${described}`,
      { path: shown, image: image.mediaType, bytes: size },
      `read image ${described}`,
    ),
    images: [image],
  };
}

/**
 * Lines of a file over the whole-file read limit, streamed; the total is named when the read reached the end.
 * `wholeSize`: the file was asked for whole, so the header says how big it is and how to read the rest.
 */
async function readBigRange(
  absolute: string,
  shown: string,
  offset: number,
  limit: number | undefined,
  ctx: ToolContext,
  wholeSize?: number,
): Promise<ToolResult> {
  const wanted = limit ?? Number.MAX_SAFE_INTEGER;
  const range = await withFsErrors(shown, () =>
    readLineRange(absolute, offset - 1, wanted, ctx.limits.maxOutputSize - HEADER_ROOM, {
      signal: ctx.signal,
      ...(ctx.lineIndexes ? { indexes: ctx.lineIndexes } : {}),
    }),
  );
  if (range.binary) {
    throw new Error(
      `${shown} looks like a binary file (NUL byte in the first 8 KB); only text files can be read`,
    );
  }
  if (range.count === 0) return fail(`offset ${offset} is past the end of ${shown} (${range.total} lines)`);
  const end = offset + range.count - 1;
  const of = range.total === undefined ? '' : ` of ${range.total}`;
  const more =
    range.count < wanted && (range.total === undefined || end < range.total)
      ? `; continue with offset ${end + 1}`
      : '';
  if (range.cut) {
    // The model must not take the start of a long line (a minified bundle, a JSON dump) for all of it.
    const of = wholeSize === undefined ? '' : ` of a ${wholeSize}-byte file`;
    const header = `[${shown}: line ${offset}${of}, only its first ${range.data.length} bytes (the line is longer than one result holds; search it with grep)${more}]`;
    return ok(
      `${header}\n${decodeUtf8(range.data, shown)}`,
      { path: shown, lines: 1 },
      `read ${shown} line ${offset} (cut)`,
    );
  }
  const lines = `${shown}: lines ${offset}-${end}${of}`;
  const header =
    wholeSize !== undefined && more
      ? `[${lines} of a ${wholeSize}-byte file (over agent.tools.max_file_read_size)${more}, or search it with grep]`
      : `[${lines}${more}]`;
  return ok(
    `${header}\n${decodeUtf8(range.data, shown)}`,
    { path: shown, lines: range.count },
    `read ${shown} lines ${offset}-${end}`,
  );
}
