// Tab completion in the chat: slash commands, and @paths completed in a form the chat reads back as the same file,
// spaces and all.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompleter } from '../../src/cli/chat-complete.js';
import { AT_PATH, atPathOf } from '../../src/core/at-paths.js';
import { openWorkspace, type Workspace } from '../../src/safety/workspace.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function workspaceWith(files: string[]): Promise<Workspace> {
  const root = await mkdtemp(join(tmpdir(), 'keel-complete-'));
  dirs.push(root);
  for (const path of files) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), 'x\n');
  }
  return openWorkspace(root);
}

/** The paths the chat would attach from a message. */
const attached = (message: string) => [...message.matchAll(AT_PATH)].map(atPathOf);

describe('chatCompleter', () => {
  it('completes a slash command, with a space after a single match', async () => {
    const complete = chatCompleter(
      () => ['model', 'mode', 'help'],
      () => undefined,
    );
    expect(await complete('/mo')).toEqual([['/model', '/mode'], '/mo']);
    expect(await complete('/he')).toEqual([['/help '], '/he']);
  });

  it.each([
    // [line typed, the candidates, the part they replace]
    ['look at @src/m', ['@src/main.ts'], '@src/m'],
    ['look at @odd', ['@odd\\ dir/'], '@odd'],
    ['look at @odd\\ dir/ü', ['@odd\\ dir/ünï\\ cödé.txt'], '@odd\\ dir/ü'],
    ['look at @odd\\ d', ['@odd\\ dir/'], '@odd\\ d'],
    ['look at @"odd', ['@"odd dir/'], '@"odd'],
    ['look at @"odd dir/ü', ['@"odd dir/ünï cödé.txt"'], '@"odd dir/ü'],
    ['@notes\\ \\(v', ['@notes\\ \\(v2\\).md'], '@notes\\ \\(v'],
    ['@notes\\ (v', ['@notes\\ (v2\\).md'], '@notes\\ (v'],
    ['see @odd\\', ['@odd\\ dir/'], '@odd\\'],
  ])('completes %j to %j', async (line, candidates, replaced) => {
    const workspace = await workspaceWith(['src/main.ts', 'odd dir/ünï cödé.txt', 'notes (v2).md']);
    const complete = chatCompleter(
      () => [],
      () => workspace,
    );
    expect(await complete(line)).toEqual([candidates, replaced]);
  });

  it('gives a path with spaces that the chat attaches as that file', async () => {
    const workspace = await workspaceWith(['odd dir/ünï cödé.txt']);
    const complete = chatCompleter(
      () => [],
      () => workspace,
    );
    const [[dir]] = await complete('see @od');
    const [[file]] = await complete(`see ${dir}ü`);
    expect(attached(`see ${file} please`)).toEqual(['odd dir/ünï cödé.txt']);
    const [[quoted]] = await complete('see @"odd dir/');
    expect(attached(`see ${quoted} please`)).toEqual(['odd dir/ünï cödé.txt']);
  });
});
