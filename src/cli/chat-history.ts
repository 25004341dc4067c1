// The chat's input history across sessions: one line per entry in the state dir, the newest last.
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createRedactor } from '../safety/redact.js';

/** Entries kept for recall. */
const KEPT = 500;

export function historyPath(stateDir: string): string {
  return join(stateDir, 'chat-history');
}

/** The saved entries, newest first (as readline takes them); none when there is no file yet. */
export async function loadHistory(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const lines = text.split('\n').filter(Boolean);
  // The file only grows by appends: now and then it is cut back to what is kept.
  if (lines.length > 2 * KEPT)
    await writeFile(file, `${lines.slice(-KEPT).join('\n')}\n`, { mode: 0o600 }).catch(() => {});
  return lines.slice(-KEPT).reverse();
}

/**
 * Appends one entry; a multi-line message is saved as its lines, as readline recalls them. Secrets (the values of
 * secret-looking variables, key shapes) are redacted first, as in sessions: the file outlives the chat. Never throws.
 */
export async function saveHistory(
  file: string,
  entry: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const lines = createRedactor(env)(entry)
    .split('\n')
    .filter((l) => l.trim() !== '');
  if (lines.length === 0) return;
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await appendFile(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  } catch {
    // History is a convenience: a read-only state dir must not stop the chat.
  }
}
