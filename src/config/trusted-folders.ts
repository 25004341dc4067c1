// The folders the user trusts, kept in the state dir (`trusted-folders.json`), never in a workspace a
// repository could write. A folder is trusted when it or an ancestor is recorded.
import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import * as z from 'zod';
import { ConfigError } from '../core/errors.js';
import { once } from '../core/once.js';
import { replaceFile } from '../core/replace-file.js';
import { stateDir } from './paths.js';

const trustFileSchema = once(() =>
  z
    .object({
      version: z.literal(1),
      folders: z.array(z.string().refine(isAbsolute, 'folders must be absolute paths')),
    })
    .strict(),
);

export function trustFilePath(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'trusted-folders.json');
}

function corrupt(file: string, reason: string, cause?: unknown): ConfigError {
  return new ConfigError(`the trusted-folders file ${file} is not valid: ${reason}`, {
    hint: `fix it to look like {"version": 1, "folders": ["/path"]}, or delete it and run \`keel trust\` again in each folder you trust`,
    cause,
  });
}

/** The recorded folders, in the order they were added; none when the file does not exist. */
export async function readTrustedFolders(env: NodeJS.ProcessEnv): Promise<string[]> {
  const file = trustFilePath(env);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ConfigError(`cannot read the trusted-folders file ${file}: ${String(error)}`, {
      hint: 'check its permissions',
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, 'it is not JSON', error);
  }
  const result = trustFileSchema().safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    const at = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw corrupt(file, `${issue?.message ?? 'unexpected shape'}${at}`);
  }
  return result.data.folders;
}

/** Written to a temp file and renamed over the old one, so a crash never leaves half a file. */
async function writeTrustedFolders(env: NodeJS.ProcessEnv, folders: string[]): Promise<void> {
  const body = `${JSON.stringify({ version: 1, folders }, null, 2)}\n`;
  await replaceFile(trustFilePath(env), body, { dirMode: 0o700 });
}

/** The folder as recorded: symlinks resolved, so a link cannot borrow another folder's trust. */
export async function canonicalFolder(dir: string): Promise<string> {
  return realpath(resolve(dir)).catch(() => resolve(dir));
}

function contains(ancestor: string, folder: string): boolean {
  const rel = relative(ancestor, folder);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The recorded folder that makes `dir` trusted (itself or its nearest recorded ancestor), if any. */
export async function trustedBy(env: NodeJS.ProcessEnv, dir: string): Promise<string | undefined> {
  const folder = await canonicalFolder(dir);
  const matches = (await readTrustedFolders(env)).filter((recorded) => contains(recorded, folder));
  return matches.sort((a, b) => b.length - a.length)[0];
}

/** Records `dir`; returns its canonical path and whether it was newly added. */
export async function trustFolder(
  env: NodeJS.ProcessEnv,
  dir: string,
): Promise<{ folder: string; added: boolean }> {
  const folder = await canonicalFolder(dir);
  const folders = await readTrustedFolders(env);
  if (folders.includes(folder)) return { folder, added: false };
  await writeTrustedFolders(env, [...folders, folder]);
  return { folder, added: true };
}

/** Removes the record of `dir`; returns its canonical path and whether a record was removed. */
export async function revokeFolder(
  env: NodeJS.ProcessEnv,
  dir: string,
): Promise<{ folder: string; removed: boolean }> {
  const folder = await canonicalFolder(dir);
  const folders = await readTrustedFolders(env);
  if (!folders.includes(folder)) return { folder, removed: false };
  await writeTrustedFolders(
    env,
    folders.filter((recorded) => recorded !== folder),
  );
  return { folder, removed: true };
}
