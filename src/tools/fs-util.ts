// Shared file helpers for the tools: readable fs error messages and a checked text-file read.
import { promises as fs } from 'node:fs';

const FS_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent is not a directory',
  EEXIST: 'already exists',
  ENOTEMPTY: 'directory is not empty',
};

/** "no such file or directory: src/x.ts" instead of Node's message with an absolute path. */
export function fsErrorMessage(error: unknown, shown: string): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  const words = FS_ERRORS[code];
  if (words) return `${words}: ${shown}`;
  return error instanceof Error ? error.message : String(error);
}

/** Runs a file operation, rethrowing fs errors with a message that names the workspace path. */
export async function withFsErrors<T>(shown: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw new Error(fsErrorMessage(error, shown));
  }
}

const BINARY_SNIFF_BYTES = 8192;

/** Reads a regular text file, refusing directories, files over maxBytes and binaries (NUL in the first 8 KB). */
export async function readTextFile(absolute: string, shown: string, maxBytes: number): Promise<string> {
  const stat = await withFsErrors(shown, () => fs.stat(absolute));
  if (stat.isDirectory()) throw new Error(`${shown} is a directory; use list_files to see its entries`);
  if (!stat.isFile()) throw new Error(`${shown} is not a regular file`);
  if (stat.size > maxBytes) {
    throw new Error(
      `${shown} is ${stat.size} bytes, over the ${maxBytes}-byte read limit (agent.tools.max_file_read_size); ` +
        'read parts of it with grep or head via execute_command',
    );
  }
  const data = await withFsErrors(shown, () => fs.readFile(absolute));
  if (data.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    throw new Error(
      `${shown} looks like a binary file (NUL byte in the first 8 KB); only text files can be read`,
    );
  }
  return data.toString('utf8');
}
