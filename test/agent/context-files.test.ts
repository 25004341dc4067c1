// Context files: which AGENTS.md (or fallback) files are found from the repository root to the workspace, their
// order, the size cap, the user's own file, and the system prompt left unchanged when there are none.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contextSection, findContextFiles } from '../../src/agent/context-files.js';
import { systemPrompt } from '../../src/agent/system-prompt.js';

let root: string;
let repo: string;
let workspace: string;
let userFile: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'keel-context-')));
  repo = join(root, 'repo');
  workspace = join(repo, 'packages', 'app');
  userFile = join(root, 'config', 'keel', 'AGENTS.md');
  await mkdir(workspace, { recursive: true });
  await mkdir(join(repo, '.git'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

const find = (limits?: { totalBytes: number; fileBytes: number }) =>
  findContextFiles({ workspace, userFile, ...(limits ? { limits } : {}) });

describe('findContextFiles', () => {
  it('reads one file per level from the repository root down to the workspace, outermost first', async () => {
    await put(join(repo, 'AGENTS.md'), 'root rules\n');
    await put(join(repo, 'packages', 'CLAUDE.md'), 'packages rules\n');
    await put(join(workspace, 'AGENTS.md'), 'app rules\n');
    const files = await find();
    expect(files.map((f) => f.path)).toEqual([
      join(repo, 'AGENTS.md'),
      join(repo, 'packages', 'CLAUDE.md'),
      join(workspace, 'AGENTS.md'),
    ]);
    expect(files.map((f) => f.content)).toEqual(['root rules\n', 'packages rules\n', 'app rules\n']);
  });

  it('takes AGENTS.md over AGENT.md, CRAFT.md and CLAUDE.md, and the fallbacks in that order', async () => {
    for (const name of ['AGENTS.md', 'AGENT.md', 'CRAFT.md', 'CLAUDE.md'])
      await put(join(workspace, name), name);
    for (const name of ['CRAFT.md', 'CLAUDE.md']) await put(join(repo, name), name);
    const files = await find();
    expect(files.map((f) => f.content)).toEqual(['CRAFT.md', 'AGENTS.md']);
  });

  it('looks no higher than the repository root', async () => {
    await put(join(root, 'AGENTS.md'), 'outside the repository');
    await put(join(workspace, 'AGENTS.md'), 'inside');
    expect((await find()).map((f) => f.content)).toEqual(['inside']);
  });

  it('outside any repository reads only the workspace', async () => {
    await rm(join(repo, '.git'), { recursive: true });
    await put(join(repo, 'AGENTS.md'), 'parent');
    await put(join(workspace, 'AGENTS.md'), 'workspace');
    expect((await find()).map((f) => f.content)).toEqual(['workspace']);
  });

  it("puts the user's own AGENTS.md first, so the project's files win", async () => {
    await put(userFile, 'user rules');
    await put(join(workspace, 'AGENTS.md'), 'project rules');
    expect((await find()).map((f) => f.path)).toEqual([userFile, join(workspace, 'AGENTS.md')]);
  });

  it('caps each file and the total, nearest files first, cutting on a character boundary', async () => {
    await put(userFile, 'u'.repeat(50));
    await put(join(repo, 'AGENTS.md'), 'r'.repeat(50));
    await put(join(workspace, 'AGENTS.md'), `${'é'.repeat(20)}tail`);
    const files = await find({ totalBytes: 60, fileBytes: 31 });
    const [user, rootFile, app] = files;
    // 31 bytes of two-byte characters: 15 whole ones, the split one dropped.
    expect(app).toEqual({ path: join(workspace, 'AGENTS.md'), content: 'é'.repeat(15), cutFrom: 44 });
    expect(rootFile).toEqual({ path: join(repo, 'AGENTS.md'), content: 'r'.repeat(30), cutFrom: 50 });
    // The budget is spent: the file is named, nothing of it shown.
    expect(user).toEqual({ path: userFile, content: '', cutFrom: 50 });
  });

  it('finds nothing when there are no context files', async () => {
    expect(await find()).toEqual([]);
  });
});

describe('the system prompt', () => {
  const base = { workspace: '/w', mode: 'restricted' as const };

  it('is unchanged when there are no context files', () => {
    expect(systemPrompt({ ...base, contextFiles: [] })).toBe(systemPrompt(base));
  });

  it('carries each file under a header naming its path, a cut file with a note', () => {
    const prompt = systemPrompt({
      ...base,
      contextFiles: [
        { path: '/home/u/.config/keel/AGENTS.md', content: 'Answer in French.\n' },
        { path: '/w/AGENTS.md', content: 'Run npm test.', cutFrom: 9000 },
      ],
    });
    expect(prompt.startsWith(systemPrompt(base))).toBe(true);
    expect(prompt).toContain(
      '## /home/u/.config/keel/AGENTS.md\nAnswer in French.\n\n## /w/AGENTS.md\nRun npm test.\n',
    );
    expect(prompt).toContain('[cut: 13 of 9000 bytes shown]');
    expect(prompt.indexOf('/home/u/')).toBeLessThan(prompt.indexOf('/w/AGENTS.md'));
  });

  it('leaves planning advice to todo_write and the steering note, which come only when the tool is offered', () => {
    expect(systemPrompt(base)).not.toContain('todo_write');
  });

  it('names a file left out by the cap without an empty body', () => {
    expect(contextSection([{ path: '/a/AGENTS.md', content: '', cutFrom: 10 }])).toContain(
      '## /a/AGENTS.md\n[cut: 0 of 10 bytes shown]',
    );
  });
});
