// The conversation as Keel sees it: provider-neutral messages and tool calls.

export interface ToolCall {
  id: string;
  name: string;
  /** Arguments as the model sent them: a JSON text (possibly invalid; the executor judges). */
  input: string;
  /** Opaque provider data to send back with this call (Gemini thought signatures, OpenRouter reasoning details). */
  providerMetadata?: Record<string, Record<string, unknown>>;
  /** Set by the loop for a call refused before it runs (arguments over the size limit): the error it gets. */
  refused?: string;
}

export interface Usage {
  /** Every input token of the request, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Of inputTokens: read from the provider's prompt cache (billed at its cache-read price). */
  cacheReadTokens?: number;
  /** Of inputTokens: written to the provider's prompt cache (Anthropic bills these above the input price). */
  cacheWriteTokens?: number;
}

/**
 * An image the user attached or a tool returned, sent beside a message's text (the text stays a string, so
 * everything that reads or counts text is unchanged). In memory `data` holds the bytes; a session keeps only a
 * size-capped copy's `path` and the hash, and a message read back without its bytes tells the model they are gone.
 */
export interface ImagePart {
  type: 'image';
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`. */
  mediaType: string;
  /** The bytes, base64. */
  data?: string;
  /** Where the bytes are kept: the session's copy (or the file they came from). */
  path?: string;
  /** SHA-256 of the bytes, hex. */
  sha256?: string;
  /** Size of the bytes. */
  bytes?: number;
  /** What it was called (a file name), for the user's eyes. */
  name?: string;
}

export type Message =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: ImagePart[] }
  | { role: 'assistant'; content: string; reasoning?: string; toolCalls?: ToolCall[] }
  | {
      role: 'tool';
      toolCallId: string;
      toolName: string;
      content: string;
      isError?: boolean;
      images?: ImagePart[];
    };

/** The image media types Keel sends to models, by file extension. */
export const imageTypes: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** "image.png (image/png, 12 KB)": how an image is named to the user, or to a model that cannot see it. */
export function describeImage(image: ImagePart): string {
  const size = image.bytes === undefined ? '' : `, ${formatBytes(image.bytes)}`;
  return `${image.name ?? 'image'} (${image.mediaType}${size})`;
}

/**
 * A tool result's images as a model reads them: kept for a model that reads images, else named in the text
 * (what, which type, how large) so the model still knows what the tool found.
 */
export function imagesFor(
  readsImages: boolean,
  text: string,
  images: ImagePart[] | undefined,
): { content: string; images?: ImagePart[] } {
  if (!images?.length) return { content: text };
  if (readsImages) return { content: text, images };
  const notes = images.map((image) => `[image: ${describeImage(image)}; this model cannot read images]`);
  return { content: [text, ...notes].filter((part) => part !== '').join('\n') };
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
  const read = (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
  const write = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  if (read > 0) sum.cacheReadTokens = read;
  if (write > 0) sum.cacheWriteTokens = write;
  return sum;
}

export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0 });
