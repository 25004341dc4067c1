// Opens text in the user's editor ($EDITOR, else $VISUAL, else vi) and reads back what they saved, as git does
// for a commit message: a temp file only the user can read, removed afterwards.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type EditResult = { text: string } | { error: string };

export interface EditOptions {
  /** A file name for the temp file, so the editor picks the right syntax (`command.sh`, `a.ts`). */
  file: string;
  env: NodeJS.ProcessEnv;
}

/** Runs the editor on a temp copy of `text` with the terminal (inherited stdio) and returns the saved text. */
export async function editText(text: string, { file, env }: EditOptions): Promise<EditResult> {
  // mkdtemp makes the directory 0700; the name keeps only a safe basename (never `..`).
  const dir = await mkdtemp(join(tmpdir(), 'keel-edit-'));
  const path = join(dir, file.replace(/[^\w.-]/g, '_').replace(/^\.*$/, 'content'));
  const editor = env.EDITOR || env.VISUAL || 'vi';
  try {
    await writeFile(path, text, { mode: 0o600 });
    // Through the shell, as git does, so EDITOR may carry arguments (`code --wait`); the path stays one word.
    const outcome = await new Promise<string | undefined>((resolve) => {
      const child = spawn('/bin/sh', ['-c', `${editor} "$1"`, 'keel-editor', path], {
        stdio: 'inherit',
        env,
      });
      child.on('error', (error) => resolve(`could not start the editor (${editor}): ${error.message}`));
      child.on('exit', (code, signal) => {
        if (code === 0) resolve(undefined);
        else resolve(`the editor (${editor}) exited with ${signal ?? `code ${code}`}; nothing was changed`);
      });
    });
    if (outcome !== undefined) return { error: outcome };
    return { text: await readFile(path, 'utf8') };
  } catch (error) {
    return { error: `could not edit: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
