// The walls of issue 17 as decision tables over the policy, in every mode, with and without the sandbox: paths
// resolved as the kernel does, git's program settings never written, `.git` in the confirm tier, and full mode
// without a sandbox asking about what it cannot see.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPolicy, type ExecutionMode } from '../../src/safety/policy.js';
import { openWorkspace, type Workspace } from '../../src/safety/workspace.js';

let base: string;
let home: string;
let ws: Workspace;

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-walls-')));
  home = path.join(base, 'home');
  const root = path.join(home, 'proj');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh', 'id_rsa'), 'canary');
  await fs.writeFile(path.join(home, '.bashrc'), '# canary');
  for (const dir of ['packages/lib', 'node_modules/@acme', '.git', 'out']) {
    await fs.mkdir(path.join(root, dir), { recursive: true });
  }
  await fs.writeFile(path.join(root, '.git', 'config'), '');
  await fs.writeFile(path.join(root, 'a.txt'), 'a');
  await fs.symlink('.', path.join(root, 'here'));
  await fs.symlink('../../packages/lib', path.join(root, 'node_modules', '@acme', 'lib'));
  ws = await openWorkspace(root);
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

type Row = [restricted: string, interactive: string, full: string, fullSandboxed: string];

async function decisions(command: string, allow: string[] = []): Promise<Row> {
  const decide = async (mode: ExecutionMode, sandboxed: boolean) =>
    (
      await createPolicy({
        mode,
        workspace: ws,
        sandboxed,
        allow,
        env: { HOME: home, PATH: process.env.PATH },
        stateDir: path.join(base, 'state'),
      }).decide({
        tool: 'execute_command',
        safety: 'dangerous',
        args: { command },
        preview: { reads: [], writes: [], summary: '' },
      })
    ).decision;
  return [
    await decide('restricted', false),
    await decide('interactive', false),
    await decide('full', false),
    await decide('full', true),
  ];
}

const DENY: Row = ['deny', 'deny', 'deny', 'deny'];
const CONFIRM: Row = ['deny', 'ask', 'ask', 'ask'];
const UNSEEN: Row = ['deny', 'ask', 'ask', 'allow'];

describe('paths resolved as the kernel resolves them', () => {
  test.each([
    'cat here/../.ssh/id_rsa',
    'cat here/here/../.ssh/id_rsa',
    'cat node_modules/@acme/lib/../../../.ssh/id_rsa',
    'cat < here/../.ssh/id_rsa',
    'echo x > here/../.bashrc',
    'cp a.txt here/../.bashrc',
    'cd here && cat ../.ssh/id_rsa',
    'cd here/.. && cat proj/a.txt',
    'git -C here/.. status',
    'git --work-tree=here/.. status',
    'rm -rf here/../.ssh',
  ])('%s is refused in every mode', async (command) => {
    expect(await decisions(command)).toEqual(DENY);
  });

  test.each(['cat node_modules/@acme/lib/../../a.txt', 'cat here/a.txt', 'ls here'])(
    '%s stays inside and is read-only',
    async (command) => {
      expect(await decisions(command)).toEqual(['allow', 'allow', 'allow', 'allow']);
    },
  );
});

describe("git's program settings are never written", () => {
  test.each([
    "git config --file .git/config core.fsmonitor 'touch pwned'",
    "git config -f .git/config alias.x '!sh -c id'",
    'git config --local core.hooksPath hooks',
    'git config --worktree core.pager less',
    'git config set core.sshCommand x',
    'git config set --file .git/config core.editor vim',
    'git config --global core.gitProxy x',
    'git config --system core.askPass x',
    'git config filter.lfs.clean x',
    'git config filter.x.process x',
    'git config diff.x.textconv x',
    'git config diff.x.command x',
    'git config merge.x.driver x',
    'git config credential.helper store',
    'git config include.path ../evil.cfg',
    'git config includeIf.gitdir:/x.path ../evil.cfg',
    'git config extensions.worktreeConfig true',
    'git config --local extensions.worktreeconfig false',
    'git config set --file .git/config Extensions.WorktreeConfig true',
    'git config --worktree core.worktree sub',
    'git -c extensions.worktreeConfig=true status',
    'git config --rename-section evil extensions',
    "echo '[core] fsmonitor = x' > .git/config.worktree",
    'echo ../evil > .git/commondir',
    'cp evil.cfg .git/worktrees/wt/config.worktree',
    "echo '[core] fsmonitor = x' >> .git/modules/sub/config",
    'cp evil.cfg .git/modules/vendor/lib/modules/nested/config',
    'cp hook.sh .git/modules/sub/hooks/post-checkout',
    'git config --rename-section evil core',
    'git config --edit',
    'git -C . config core.fsmonitor x',
    "echo '[core] fsmonitor = x' >> .git/config",
    "printf '[core]\\n' > here/.git/config",
    'GIT_CONFIG_PARAMETERS="x" git status',
    'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=sh git log',
    'export GIT_CONFIG_COUNT=1',
    'git -c core.fsmonitor=x status',
    "git -c 'alias.x=!sh' x",
    "git -c core.pager='sh -c id' log",
    'git --config-env=core.pager=EVIL log',
    'git init --template=./tpl',
  ])('%s is refused in every mode', async (command) => {
    expect(await decisions(command)).toEqual(DENY);
  });

  test.each([
    'git -c core.pager=cat log',
    'git -c color.ui=never log',
    'git config user.name x',
    'git config alias.st status',
    'git config --get core.pager',
  ])('%s is not denied (full mode runs it)', async (command) => {
    expect((await decisions(command))[2]).toBe('allow');
  });
});

describe('.git is in the confirm tier', () => {
  test.each([
    'rm -rf .git',
    'rm -rf ./.git/',
    'rm .git/index',
    'rm -rf .git/objects',
    'rm -rf .g*',
    'mv .git old-git',
    'find . -delete',
    'find . -type f -delete',
    'find . -exec rm -rf {} +',
    "find . ! -name '*.ts' -delete",
    "find . -name '*' -delete",
  ])('%s asks even in full mode', async (command) => {
    expect(await decisions(command)).toEqual(CONFIRM);
  });

  test.each(['rm -rf .', 'rm -rf *', 'rm -rf here/'])(
    '%s (the whole workspace) is refused',
    async (command) => {
      expect(await decisions(command)).toEqual(DENY);
    },
  );

  test.each(["find . -name '*.pyc' -delete", 'find out -delete', 'rm -rf out'])(
    '%s keeps .git and runs in full mode',
    async (command) => {
      expect((await decisions(command))[2]).toBe('allow');
    },
  );

  test('an allow rule naming the command lets it run without asking', async () => {
    expect((await decisions('rm -rf .git', ['rm -rf .git']))[2]).toBe('allow');
  });
});

describe('full mode without a sandbox asks about what it cannot see', () => {
  test.each([
    'b=$HOME; cat $b/.ssh/id_rsa',
    'cat $(echo ../.bashrc)',
    'cat `echo ../.bashrc`',
    'for f in *.txt; do cat $f; done',
    'read f; cat "$f"',
    'f=$(ls); cat "$f"',
    'echo x > "$OUT"',
    'tar xf evil.tar -P',
    'tar -xPf evil.tar -C out',
    'tar --absolute-names -xf evil.tar',
    'tar xf evil.tar',
    'tar -cf /dev/null a.txt --checkpoint=1 --checkpoint-action=exec=sh',
    'unzip evil.zip',
    'unzip -: evil.zip -d out',
    'cpio -idv < a.cpio',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    'echo "${v=aa\\140 env\\140}${v@P}"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    'echo ${!x}',
  ])('%s: restricted refuses, interactive and full ask, the sandbox allows', async (command) => {
    expect(await decisions(command)).toEqual(UNSEEN);
  });

  test.each([
    'tar -xf evil.tar -C out',
    'tar -C out -xzf evil.tar',
    'unzip evil.zip -d out',
    'unzip -l evil.zip',
    'echo $HOME',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    'echo "${!prefix*}"',
    "cat <<'EOF' > notes.txt\nhello\nEOF",
  ])('%s runs in full mode without a sandbox', async (command) => {
    expect((await decisions(command))[2]).toBe('allow');
  });

  test.each([
    'cat <<EOF > ~/.bashrc\nx\nEOF',
    'cat <<EOF >> here/../.bashrc\nx\nEOF',
    'cat <<EOF && rm -rf ~\nx\nEOF',
    'unzip evil.zip -d ..',
    'tar -xf evil.tar -C here/..',
  ])(
    '%s is refused in every mode (what follows a here-document, a target directory outside)',
    async (command) => {
      expect(await decisions(command)).toEqual(DENY);
    },
  );
});

describe('secret files: a file tool reads what a command may name, no more', () => {
  const modes: ExecutionMode[] = ['interactive', 'restricted', 'auto', 'full'];
  const fileDecisions = async (tool: string, reads: string[], writes: string[] = []) =>
    Promise.all(
      modes.map(
        async (mode) =>
          (
            await createPolicy({
              mode,
              workspace: ws,
              env: { HOME: home, PATH: process.env.PATH },
              stateDir: path.join(base, 'state'),
            }).decide({ tool, safety: 'safe', args: {}, preview: { reads, writes, summary: '' } })
          ).decision,
      ),
    );

  test.each(['.env', 'config/.env.local', 'prod.env', 'deploy/key.pem', 'id_rsa', '.npmrc'])(
    'read_file %s is refused in every mode, as cat is',
    async (file) => {
      expect(await decisions(`cat ${file}`)).toEqual(DENY);
      expect(await fileDecisions('read_file', [path.join(ws.root, file)])).toEqual([
        'deny',
        'deny',
        'deny',
        'deny',
      ]);
    },
  );

  test('a home secret reached from a workspace that holds the home is refused too', async () => {
    expect(await fileDecisions('read_file', [path.join(home, '.ssh', 'id_rsa')])).toEqual([
      'deny',
      'deny',
      'deny',
      'deny',
    ]);
  });

  test.each(['.env.example', 'env.ts', 'id_rsa.pub', 'a.txt'])(
    'read_file %s is read as any file',
    async (file) => {
      expect(await fileDecisions('read_file', [path.join(ws.root, file)])).toEqual([
        'allow',
        'allow',
        'allow',
        'allow',
      ]);
    },
  );

  test('copying a secret file out is refused; editing one is a secret write, asked', async () => {
    const env = path.join(ws.root, '.env');
    const copy = await fileDecisions('copy_path', [env], [path.join(ws.root, 'env.txt')]);
    expect(copy).toEqual(['deny', 'deny', 'deny', 'deny']);
    expect(await fileDecisions('edit_file', [env], [env])).toEqual(['ask', 'ask', 'ask', 'ask']);
  });
});
