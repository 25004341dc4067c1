// The short memory of `keel ask --continue`: the last few exchanges asked from one directory, in one small JSON
// file under the data dir (cmd2ai's per-terminal session). Capped in count and size; secrets redacted before saving.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { workspaceKey } from '../config/paths.js';
import type { Message } from '../core/messages.js';
import { replaceFile } from '../core/replace-file.js';
import { utf8Prefix } from '../core/text.js';

/** Exchanges kept: older ones drop off. */
export const MAX_EXCHANGES = 5;
/** Bytes kept of one question (with its piped input) or answer. */
const MAX_TEXT_BYTES = 16 * 1024;

export interface AskExchange {
  question: string;
  answer: string;
  at: string;
}

// Built when a history is first read (--continue), not as every `keel ask` starts.
let historySchema: z.ZodType<{ directory: string; exchanges: AskExchange[] }> | undefined;
const schema = () =>
  (historySchema ??= z.object({
    directory: z.string(),
    exchanges: z.array(z.object({ question: z.string(), answer: z.string(), at: z.string() })),
  }));

/** `$XDG_DATA_HOME/keel/ask/<directory key>.json`. */
export function askHistoryPath(dataDir: string, directory: string): string {
  return join(dataDir, 'ask', `${workspaceKey(directory)}.json`);
}

/** The saved exchanges, oldest first; none when the file is missing or unreadable (a fresh start, not an error). */
export async function loadAskHistory(file: string): Promise<AskExchange[]> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return [];
  try {
    const parsed = schema().safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.exchanges : [];
  } catch {
    return [];
  }
}

/** Appends one exchange to `previous` and writes the last MAX_EXCHANGES (temp file + rename, 0600). */
export async function saveAskHistory(
  file: string,
  directory: string,
  previous: readonly AskExchange[],
  exchange: Omit<AskExchange, 'at'>,
  redact: (text: string) => string,
): Promise<void> {
  const added: AskExchange = {
    question: redact(clipText(exchange.question)),
    answer: redact(clipText(exchange.answer)),
    at: new Date().toISOString(),
  };
  const exchanges = [...previous, added].slice(-MAX_EXCHANGES);
  await replaceFile(file, `${JSON.stringify({ directory, exchanges }, null, 2)}\n`, { dirMode: 0o700 });
}

export async function clearAskHistory(file: string): Promise<void> {
  await rm(file, { force: true });
}

/** The exchanges as the conversation the next question continues. */
export function historyMessages(exchanges: readonly AskExchange[]): Message[] {
  return exchanges.flatMap((e): Message[] => [
    { role: 'user', content: e.question },
    { role: 'assistant', content: e.answer },
  ]);
}

function clipText(text: string): string {
  const clipped = utf8Prefix(text, MAX_TEXT_BYTES);
  return clipped.length < text.length ? `${clipped}\n[… cut for the ask history …]` : clipped;
}
