// `@path` in a chat message: the file's content goes with the message, named, read through the workspace jail
// and capped, so the model need not spend a tool call reading what the user already pointed at. An image (PNG,
// JPEG, GIF, WebP) goes as an image part to a model that reads images; `keel ask` and `keel run -p` attach images only.
import { open, readFile, stat } from 'node:fs/promises';
import { AT_PATH, atPathOf } from '../core/at-paths.js';
import { looksBinary } from '../core/binary.js';
import { UsageError } from '../core/errors.js';
import { IMAGE_EXTENSION, imageFromBytes, imageType, MAX_IMAGE_BYTES } from '../core/images.js';
import type { ImagePart } from '../core/messages.js';
import type { Model } from '../core/model.js';
import type { PromptCommand } from '../core/prompt-command.js';
import { notUtf8Reason } from '../core/utf8.js';
import type { ReadJail } from '../safety/read-jail.js';
import type { Workspace } from '../safety/workspace.js';

/** Attached text beyond this is cut (the model can read the rest with read_file). */
export const ATTACH_MAX_BYTES = 100_000;

/** Whether a file's first bytes are an image Keel sends, whatever its name. */
async function sniffsAsImage(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    return imageType(head.subarray(0, bytesRead)) !== undefined;
  } finally {
    await handle.close();
  }
}

export interface Attachment {
  path: string;
  bytes: number;
  cut: boolean;
}

export interface Attached {
  /** The message as the model reads it: the text, then each file in a <file> block. */
  message: string;
  attached: Attachment[];
  /** Mentions that are not readable files in the workspace, with why; they stay plain text. */
  skipped: { path: string; reason: string }[];
  /** Images to send beside the message. */
  images: ImagePart[];
}

export interface ImageAttaching {
  /** The model reads images; otherwise an image mention is skipped with why. */
  readsImages: boolean;
  /** Named in the reason an image is skipped. */
  model: string;
  /** Attach images only: other mentions stay plain text (keel ask, keel run -p). */
  only?: boolean;
}

/** How a model takes images: whether it reads them, and its name for the reason it cannot. */
export const imagingOf = (model: Model): ImageAttaching => ({
  readsImages: model.capabilities?.images === true,
  model: model.modelId,
});

const cannotRead = (model: string) => `an image, and ${model} cannot read images (choose a model that can)`;

export async function attachFiles(
  text: string,
  workspace: Workspace,
  maxBytes = ATTACH_MAX_BYTES,
  /** Also skips a workspace file that is a link into a secret location or Keel's own directories. */
  jail?: ReadJail,
  imaging: ImageAttaching = { readsImages: false, model: 'this model' },
): Promise<Attached> {
  const images: ImagePart[] = [];
  const attached: Attachment[] = [];
  const skipped: Attached['skipped'] = [];
  const blocks: string[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(AT_PATH)) {
    const requested = atPathOf(match);
    if (seen.has(requested)) continue;
    seen.add(requested);
    // Images only (ask, run -p): a mention not named as an image counts only if it is an image file, and is left as
    // text otherwise (`@types/node`, `@someone`), whatever stands in the way.
    const quiet = imaging.only === true && !IMAGE_EXTENSION.test(requested);
    try {
      const absolute = await workspace.resolve(requested);
      const checked = jail ? await jail.check(requested, workspace.root) : undefined;
      if (checked && 'refused' in checked) {
        if (!quiet) skipped.push({ path: requested, reason: checked.refused });
        continue;
      }
      const info = await stat(absolute);
      if (!info.isFile()) {
        if (!quiet) skipped.push({ path: requested, reason: 'not a file' });
        continue;
      }
      const path = workspace.relative(absolute);
      const imageFile = IMAGE_EXTENSION.test(absolute) || (await sniffsAsImage(absolute));
      if (imaging.only && !imageFile) continue;
      if (imageFile) {
        if (!imaging.readsImages) {
          skipped.push({ path: requested, reason: cannotRead(imaging.model) });
          continue;
        }
        if (info.size > MAX_IMAGE_BYTES) {
          skipped.push({
            path: requested,
            reason: `an image of ${info.size} bytes, over the ${MAX_IMAGE_BYTES / 1024 / 1024} MB limit`,
          });
          continue;
        }
        const image = imageFromBytes(await readFile(absolute), path);
        if (image) {
          images.push(image);
          attached.push({ path, bytes: info.size, cut: false });
          continue;
        }
      }
      const data = await readFile(absolute);
      if (looksBinary(data)) {
        skipped.push({ path: requested, reason: 'a binary file' });
        continue;
      }
      const cut = data.length > maxBytes;
      // Text in another encoding would reach the model as U+FFFD in place of each letter it cannot read.
      const notUtf8 = notUtf8Reason(data.subarray(0, maxBytes), cut);
      if (notUtf8) {
        skipped.push({ path: requested, reason: notUtf8 });
        continue;
      }
      // Cut on a character boundary: a broken UTF-8 sequence at the end would show as U+FFFD.
      const content = new TextDecoder().decode(data.subarray(0, maxBytes)).replace(/\uFFFD$/, '');
      const note = cut ? `\n[cut at ${maxBytes} of ${data.length} bytes; read_file reads the rest]` : '';
      blocks.push(`<file path="${path}">\n${content.replace(/\n$/, '')}${note}\n</file>`);
      attached.push({ path, bytes: data.length, cut });
    } catch (error) {
      if (quiet) continue;
      const code = (error as NodeJS.ErrnoException).code;
      skipped.push({
        path: requested,
        reason: code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error),
      });
    }
  }
  const message = blocks.length > 0 ? `${text}\n\n${blocks.join('\n\n')}` : text;
  return { message, attached, skipped, images };
}

/**
 * `keel ask` and `keel run -p`: the images the text mentions, for the user message. An image the model cannot read
 * (or that cannot be read) is a usage error: a one-shot run has nobody to tell and go on.
 */
export async function attachImages(
  text: string,
  workspace: Workspace,
  jail: ReadJail | undefined,
  imaging: Omit<ImageAttaching, 'only'>,
): Promise<ImagePart[]> {
  const { images, skipped } = await attachFiles(text, workspace, ATTACH_MAX_BYTES, jail, {
    ...imaging,
    only: true,
  });
  const problem = skipped[0];
  if (problem) throw new UsageError(`cannot attach @${problem.path}: ${problem.reason}`);
  return images;
}

/**
 * `@name <message>` where `name` is an agent and no file of that name exists (an `@path` attachment wins): the
 * agent and the rest of the message; undefined for any other message.
 */
export async function agentMention(
  text: string,
  agents: readonly { name: string }[],
  workspace: Workspace,
): Promise<{ agent: string; message: string } | undefined> {
  const match = /^\s*@([\w.-]+)(?:\s+([\s\S]*))?$/.exec(text);
  const name = match?.[1];
  if (!name || !agents.some((a) => a.name === name)) return undefined;
  const file = await workspace
    .resolve(name)
    .then((absolute) => stat(absolute))
    .catch(() => undefined);
  if (file) return undefined;
  return { agent: name, message: (match[2] ?? '').trim() };
}

/** The user's message for an agent they named: the main agent hands it over with the task tool. */
export function forAgent(agent: string, message: string): string {
  return `${message}\n\n[Keel: the user addressed this to the "${agent}" agent: call task with agent "${agent}" and this request as its prompt, then relay its answer.]`;
}

/** The chat's user message: `@agent <message>` handed to that agent (see agentMention), `@path` files attached. */
export async function chatMessage(
  text: string,
  run: { workspace: Workspace; subagents?: { agents: readonly { name: string }[] } },
  jail?: ReadJail,
  imaging?: ImageAttaching,
): Promise<Attached> {
  const { workspace } = run;
  const named = await agentMention(text, run.subagents?.agents ?? [], workspace);
  const attached = await attachFiles(
    named ? named.message : text,
    workspace,
    ATTACH_MAX_BYTES,
    jail,
    imaging,
  );
  return named ? { ...attached, message: forAgent(named.agent, attached.message) } : attached;
}

/**
 * A prompt command's message for `args`, expanded while the chat shows it waits (`busy`): each @file of a command file
 * left as text (not UTF-8) is said as the chat says its own (extend/file-includes.ts).
 */
export async function expandCommand(
  prompt: PromptCommand,
  typed: { name: string; args: string },
  chat: {
    busy: (label: string, work: (signal: AbortSignal) => Promise<string>) => Promise<string>;
    screen: { attachments(attached: readonly Attachment[], skipped: Attached['skipped']): void };
  },
): Promise<string> {
  const skipped: Attached['skipped'] = [];
  const text = await chat.busy(`expanding /${typed.name}`, (signal) =>
    prompt.expand(typed.args, signal, (skip) => skipped.push(skip)),
  );
  chat.screen.attachments([], skipped);
  return text;
}
