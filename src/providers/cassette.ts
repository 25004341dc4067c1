// Cassettes: recorded model responses on disk (JSON, zod-checked on read) and the request fingerprint that guards replay.
//
// The fingerprint is chosen to notice that a run diverged without breaking on harmless differences:
//  - `messages`: how many messages the request carried (a skipped or extra turn changes it);
//  - `toolResults`: for the tool messages after the last assistant message, each tool's name and whether it
//    succeeded, in order (what the model is reacting to).
//  - `images`: the SHA-256 of each image the request carried, when it carried any (a different screenshot is a
//    different run; the bytes themselves stay out of the cassette, the hash is enough to tell).
// Message text, the system prompt and the tools offered are left out, so rewording a prompt or adding a tool
// keeps cassettes valid; replay separately refuses a recorded tool call whose tool this run does not offer, and
// warns when the first user message (the goal) is not the recorded one (`goal`, its hash): a whole other run
// would play back silently otherwise.
import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { ImagePart, Message } from '../core/messages.js';
import type { ResponseEvent } from '../core/model.js';
import { replaceFile } from '../core/replace-file.js';

const fingerprintSchema = z.object({
  messages: z.number().int().nonnegative(),
  toolResults: z.array(z.object({ name: z.string(), ok: z.boolean() })),
  images: z.array(z.string()).optional(),
});
export type RequestFingerprint = z.infer<typeof fingerprintSchema>;

const modelEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), delta: z.string() }),
  z.object({ type: z.literal('reasoning'), delta: z.string() }),
  z.object({
    type: z.literal('tool-call'),
    call: z.object({
      id: z.string(),
      name: z.string(),
      input: z.string(),
      providerMetadata: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    }),
  }),
  z.object({ type: z.literal('citation'), url: z.string(), title: z.string().optional() }),
  z.object({
    type: z.literal('usage'),
    usage: z.object({
      inputTokens: z.number(),
      outputTokens: z.number(),
      cacheReadTokens: z.number().optional(),
      cacheWriteTokens: z.number().optional(),
    }),
  }),
  z.object({
    type: z.literal('finish'),
    reason: z.enum(['stop', 'tool-calls', 'length', 'content-filter', 'error', 'other']),
  }),
]);

export const cassetteSchema = z.object({
  version: z.literal(1),
  provider: z.string(),
  model: z.string(),
  /** The recorded model read images, so a replay sends them as it did (not their descriptions). */
  images: z.boolean().optional(),
  /** The SHA-256 of the first user message the recorded run sent (absent in cassettes made before it was kept). */
  goal: z.string().optional(),
  interactions: z.array(z.object({ request: fingerprintSchema, events: z.array(modelEventSchema) })),
});
export type Cassette = z.infer<typeof cassetteSchema>;
export type Interaction = Cassette['interactions'][number];

// The schema must describe exactly Keel's ResponseEvent (retry events are never recorded); this fails to compile
// if the two drift apart.
const _eventsMatch: [ResponseEvent, z.infer<typeof modelEventSchema>] = [
  {} as z.infer<typeof modelEventSchema>,
  {} as ResponseEvent,
];
void _eventsMatch;

export function fingerprint(messages: Message[]): RequestFingerprint {
  let lastAssistant = -1;
  messages.forEach((message, index) => {
    if (message.role === 'assistant') lastAssistant = index;
  });
  const toolResults = messages
    .slice(lastAssistant + 1)
    .flatMap((message) =>
      message.role === 'tool' ? [{ name: message.toolName, ok: !message.isError }] : [],
    );
  const images = messages.flatMap((message) =>
    message.role === 'user' || message.role === 'tool' ? (message.images ?? []).map(imageHash) : [],
  );
  return { messages: messages.length, toolResults, ...(images.length > 0 ? { images } : {}) };
}

/** The hash of the first user message (the goal a run starts from), if the request has one. */
export function goalPrint(messages: readonly Message[]): string | undefined {
  const goal = messages.find((message) => message.role === 'user');
  return goal && createHash('sha256').update(goal.content).digest('hex');
}

/** An image's hash: the one it carries, else of its bytes, else of its path (bytes gone). */
function imageHash(image: ImagePart): string {
  if (image.sha256) return image.sha256;
  return createHash('sha256')
    .update(image.data !== undefined ? Buffer.from(image.data, 'base64') : `path:${image.path ?? ''}`)
    .digest('hex');
}

/** "read_file (ok), write_file (failed)", or "no tool results". */
export function describeToolResults(results: RequestFingerprint['toolResults']): string {
  if (results.length === 0) return 'no tool results';
  return results.map((result) => `${result.name} (${result.ok ? 'ok' : 'failed'})`).join(', ');
}

/**
 * Writes the cassette atomically (temp file + rename) so a crash leaves the previous complete version; a failed
 * write leaves no temp file behind.
 */
export async function writeCassette(file: string, cassette: Cassette): Promise<void> {
  // The user's own file (often kept in a repository): made with the umask's mode, as any file they write.
  await replaceFile(file, `${JSON.stringify(cassette, null, 2)}\n`, { mode: 0o666 });
}
