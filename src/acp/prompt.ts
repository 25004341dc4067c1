// An ACP prompt (text, resource links, embedded resources, images) as the one user message Keel's conversation
// takes. Embedded resources are the editor's own text (an unsaved buffer, a selection), so they go in whole.
import type { ContentBlock } from '@agentclientprotocol/sdk';

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
      // Keel's messages carry text only for now: the model is told an image was left out.
      return `[an image (${block.mimeType}) was attached, but Keel cannot send images to the model yet]`;
    case 'audio':
      return `[an audio clip (${block.mimeType}) was attached, but Keel cannot send audio to the model]`;
    default:
      return '';
  }
}

/** The user's message: the blocks in order, text blocks joined as typed, the rest on lines of their own. */
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
