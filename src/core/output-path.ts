// What stops Keel from writing an output file the user named (--record, --report), checked before any work is done.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * What is wrong with `file` as an output file, and the fix; undefined when it can be written. A missing directory
 * is a problem, not made, as most tools refuse an output file's (`curl -o`, `tee`): a typo would write elsewhere.
 */
export async function outputPathProblem(
  file: string,
): Promise<{ problem: string; hint: string } | undefined> {
  if ((await stat(file).catch(() => undefined))?.isDirectory())
    return { problem: 'it is a directory', hint: `name a file in it, such as ${join(file, 'run.json')}` };
  const dir = dirname(file);
  const parent = await stat(dir).catch(() => undefined);
  if (!parent) return { problem: `${dir} does not exist`, hint: `create it first: mkdir -p ${dir}` };
  if (!parent.isDirectory())
    return { problem: `${dir} is not a directory`, hint: 'name a path in a directory' };
  const writable = await access(dir, constants.W_OK).then(
    () => true,
    () => false,
  );
  return writable
    ? undefined
    : { problem: `${dir} is not writable`, hint: 'name a path in a writable directory' };
}
