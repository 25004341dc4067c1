// `keel trust [--revoke | --list]`: records which workspace folders may set the trust-requiring keys of their
// .keel.yaml (base URLs, modes, ...); see config/trust.ts for the keys.
import { resolve } from 'node:path';
import { trustGrants } from '../config/trust.js';
import {
  readTrustedFolders,
  revokeFolder,
  trustedBy,
  trustFilePath,
  trustFolder,
} from '../config/trusted-folders.js';
import { ExitCode, UsageError } from '../core/errors.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure } from './report.js';

export interface TrustOptions extends GlobalOptions {
  revoke?: boolean;
  list?: boolean;
}

function joinWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

async function list(env: NodeJS.ProcessEnv): Promise<void> {
  const folders = await readTrustedFolders(env);
  if (folders.length === 0) {
    process.stderr.write(`no trusted folders (run \`keel trust\` in one to add it)\n`);
    return;
  }
  for (const folder of folders) process.stdout.write(`${folder}\n`);
}

async function revoke(env: NodeJS.ProcessEnv, dir: string): Promise<void> {
  const { folder, removed } = await revokeFolder(env, dir);
  const still = await trustedBy(env, folder);
  if (still !== undefined) {
    // An ancestor's record still vouches for this folder, whatever was removed here.
    const done = removed ? `removed the record of ${folder}, but it` : folder;
    throw new UsageError(`${done} is still trusted through ${still}`, {
      hint: `revoke that folder instead: keel trust --revoke --cwd ${still}`,
    });
  }
  process.stdout.write(
    removed
      ? `no longer trusted ${folder}: its .keel.yaml cannot set ${joinWords(trustGrants())}\n`
      : `${folder} was not trusted; nothing to revoke\n`,
  );
}

async function trust(env: NodeJS.ProcessEnv, dir: string): Promise<void> {
  const { folder, added } = await trustFolder(env, await resolveWorkspaceDir(dir));
  const grants = joinWords(trustGrants());
  process.stdout.write(
    added
      ? `trusted ${folder}: its .keel.yaml may now set ${grants}\n`
      : `${folder} was already trusted; its .keel.yaml may set ${grants}\n`,
  );
  process.stderr.write(`note: recorded in ${trustFilePath(env)}; \`keel trust --revoke\` undoes it\n`);
}

export async function trustCommand(options: TrustOptions): Promise<number> {
  try {
    if (options.revoke && options.list) {
      throw new UsageError('--revoke and --list cannot be used together', {
        hint: 'run `keel trust --list` to see the folders, then `keel trust --revoke --cwd <dir>`',
      });
    }
    const env = process.env;
    const dir = resolve(options.cwd ?? process.cwd());
    if (options.list) await list(env);
    else if (options.revoke) await revoke(env, dir);
    else await trust(env, dir);
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug });
  }
}
