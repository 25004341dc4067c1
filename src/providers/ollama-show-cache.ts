// What Ollama's /api/show said of a model (tool support, vision, context length), kept between runs in the cache
// directory, so a run's first chat request need not wait for it: Ollama servers before the metadata cache of
// August 2026 read the model file's metadata for every /api/show (hundreds of milliseconds for a large model), and a
// remote server costs a round trip. A run with a kept answer asks again in the background and keeps the new answer
// for the next run. A kept answer gone stale is safe: with tool_protocol auto a model refusing native tool calls is
// answered through the text protocol (text-tools.ts), and a "no tools" that would refuse a run (tool_protocol
// native) is never taken from here (providers/index.ts asks first).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../config/paths.js';
import { replaceFile } from '../core/replace-file.js';
import { sha256Hex } from '../core/sha256.js';
import type { ServerCapabilities } from './capabilities.js';

/** A kept answer older than this is asked for before the first request again. */
export const KEPT_SHOW_MS = 7 * 24 * 60 * 60 * 1000;
/** Answers kept: the most recently asked models. */
const MAX_ENTRIES = 64;

interface Entry {
  at: number;
  contextWindow?: number;
  tools?: boolean;
  images?: boolean;
}

const cacheFile = (env: NodeJS.ProcessEnv): string => join(cacheDir(env), 'ollama-show.json');

/** The entry's key: the server and the model, hashed (a base URL may carry a user name and password). */
const keyOf = (root: string, model: string): string => sha256Hex(`${root}\n${model}`);

function readEntries(file: string): Record<string, unknown> {
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof kept === 'object' && kept !== null && !Array.isArray(kept))
      return kept as Record<string, unknown>;
  } catch {
    // No cache yet, or an unreadable one: ask.
  }
  return {};
}

/** What /api/show said of `model` on `root` within KEPT_SHOW_MS, or undefined (ask it). */
export function keptShow(
  env: NodeJS.ProcessEnv,
  root: string,
  model: string,
  now = Date.now(),
): ServerCapabilities | undefined {
  const entry = readEntries(cacheFile(env))[keyOf(root, model)];
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { at, contextWindow, tools, images } = entry as Record<string, unknown>;
  if (typeof at !== 'number' || now - at > KEPT_SHOW_MS || at > now) return undefined;
  return {
    id: model,
    ...(typeof contextWindow === 'number' && contextWindow > 0 ? { contextWindow } : {}),
    ...(typeof tools === 'boolean' ? { tools } : {}),
    ...(typeof images === 'boolean' ? { images } : {}),
    streaming: true,
  };
}

/** Keeps what /api/show said of `model` on `root`, with the latest others; never throws. */
export async function keepShow(
  env: NodeJS.ProcessEnv,
  root: string,
  model: string,
  show: ServerCapabilities,
  now = Date.now(),
): Promise<void> {
  const file = cacheFile(env);
  try {
    const entry: Entry = {
      at: now,
      ...(show.contextWindow !== undefined ? { contextWindow: show.contextWindow } : {}),
      ...(show.tools !== undefined ? { tools: show.tools } : {}),
      ...(show.images !== undefined ? { images: show.images } : {}),
    };
    const others = Object.entries(readEntries(file))
      .filter(([key, value]) => key !== keyOf(root, model) && typeof (value as Entry)?.at === 'number')
      .sort(([, a], [, b]) => (b as Entry).at - (a as Entry).at)
      .slice(0, MAX_ENTRIES - 1);
    const kept = Object.fromEntries([[keyOf(root, model), entry], ...others]);
    // Written aside and renamed: a run reading it meanwhile sees the old file or the new one, never half of one.
    await replaceFile(file, `${JSON.stringify(kept)}\n`, { dirMode: 0o700 });
  } catch {
    // A cache: the next run asks again.
  }
}
