// An ACP prompt (text, resource links, embedded resources, images) as the one user message Keel's conversation
// takes. Embedded resources are the editor's own text (an unsaved buffer, a selection), so they go in whole;
// images go beside the text as the message's image parts.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { describeImage, type ImagePart, imageTypes } from '../core/messages.js';

const SENT_TYPES = new Set(Object.values(imageTypes));

/** The URI as the model reads it: a file URI as its path. */
function shownUri(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[@${block.name}](${shownUri(block.uri)})`;
    case 'resource': {
      const { resource } = block;
      const uri = shownUri(resource.uri);
      if ('text' in resource) return `\n<context ref="${uri}">\n${resource.text}\n</context>\n`;
      return `[binary resource ${uri} (${resource.mimeType ?? 'unknown type'}): not included]`;
    }
    case 'image':
      // A type Keel does not send (SVG, TIFF...) is named instead, so the model knows it was there.
      return SENT_TYPES.has(block.mimeType)
        ? ''
        : `[an image (${block.mimeType}) was attached; Keel cannot send this type]`;
    case 'audio':
      return `[an audio clip (${block.mimeType}) was attached, but Keel cannot send audio to the model]`;
    default:
      return '';
  }
}

/** An image block Keel can send, as the message's image part. */
export function imagePart(block: ContentBlock, index: number): ImagePart | undefined {
  if (block.type !== 'image' || !SENT_TYPES.has(block.mimeType)) return undefined;
  const name = block.uri ? shownUri(block.uri).split('/').pop() : `image-${index + 1}`;
  return {
    type: 'image',
    mediaType: block.mimeType,
    data: block.data,
    bytes: Buffer.byteLength(block.data, 'base64'),
    ...(name ? { name } : {}),
  };
}

/** A prompt as the user's message: its text and the images beside it. */
export interface UserPrompt {
  content: string;
  images: ImagePart[];
}

/** The user's message: the text (see promptText) and the images it carries; no text when the prompt says nothing. */
export function promptMessage(blocks: readonly ContentBlock[]): UserPrompt {
  const images = blocks.flatMap((block, index) => imagePart(block, index) ?? []);
  const content = promptText(blocks);
  // A message of images alone still says what it holds, for whatever reads text only (titles, the model's notes).
  return { content: content || images.map(describeImage).join('\n'), images };
}

/** The user's message text: the blocks in order, text blocks joined as typed, the rest on lines of their own. */
export function promptText(blocks: readonly ContentBlock[]): string {
  let message = '';
  for (const block of blocks) {
    const part = blockText(block);
    if (!part) continue;
    const separate = block.type !== 'text' && message !== '' && !message.endsWith('\n');
    message += separate ? `\n${part}` : part;
  }
  return message.trim();
}
