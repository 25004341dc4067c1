// The read jail for files Keel reads on the user's behalf: links out of the root or into secrets are refused,
// plain files and links staying inside are read; context files and project commands use it.
import { existsSync } from 'node:fs';
import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findContextFiles } from '../../src/agent/context-files.js';
import { attachFiles } from '../../src/cli/chat-attach.js';
import { mcpServerSchema } from '../../src/config/mcp-schema.js';
import { customTools } from '../../src/extend/custom-tool.js';
import { createHooks } from '../../src/extend/hooks.js';
import { loadPromptCommands } from '../../src/extend/prompt-commands.js';
import { startMcpServers } from '../../src/mcp/start.js';
import { createReadJail } from '../../src/safety/read-jail.js';
import { openWorkspace } from '../../src/safety/workspace.js';
import { createRegistry } from '../../src/tools/registry.js';

let root: string;
let home: string;
let workspace: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'keel-read-jail-')));
  home = join(root, 'home');
  workspace = join(home, 'project');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), 'CANARY-KEY\n');
  await mkdir(join(workspace, '.git'), { recursive: true });
  env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: join(home, '.state') };
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createReadJail', () => {
  const cases: [string, () => Promise<void>, 'read' | RegExp][] = [
    ['a plain file inside', () => writeFile(join(workspace, 'f.md'), 'x'), 'read'],
    [
      'a link to another file inside',
      async () => {
        await writeFile(join(workspace, 'real.md'), 'x');
        await symlink('real.md', join(workspace, 'f.md'));
      },
      'read',
    ],
    ['a link out of the root', () => symlink('../.ssh/id_rsa', join(workspace, 'f.md')), /outside/],
    [
      'a link through a directory link and ..',
      async () => {
        await symlink('.', join(workspace, 'here'));
        await symlink('here/../.ssh/id_rsa', join(workspace, 'f.md'));
      },
      /outside/,
    ],
    ['a dangling link', () => symlink('nowhere.md', join(workspace, 'f.md')), /dangling/],
    [
      'a hard link to the SSH key',
      () => link(join(home, '.ssh', 'id_rsa'), join(workspace, 'f.md')),
      /^it is a hard link to the secret file ~\/\.ssh\/id_rsa$/,
    ],
    [
      "a hard link to a file outside that holds no secret (pnpm's store)",
      async () => {
        await writeFile(join(root, 'store.md'), 'x');
        await link(join(root, 'store.md'), join(workspace, 'f.md'));
      },
      'read',
    ],
    [
      'a link to a secret file inside the root',
      async () => {
        await writeFile(join(workspace, '.env'), 'TOKEN=x');
        await symlink('.env', join(workspace, 'f.md'));
      },
      /holds secrets/,
    ],
  ];
  it.each(cases)('%s', async (_name, make, expected) => {
    await make();
    const checked = await createReadJail(env).check('f.md', workspace);
    if (expected === 'read') expect(checked).toEqual({ real: expect.stringContaining(workspace) });
    else expect('refused' in checked ? checked.refused : 'read').toMatch(expected);
  });

  it.each([
    '.ssh/id_rsa',
    '.git-credentials',
    '.config/gh/hosts.yml',
    '.netrc',
    '.pgpass',
    '.npmrc',
    '.docker/config.json',
    '.kube/config',
  ])('refuses a link to ~/%s when the root holds the home directory', async (secret) => {
    await mkdir(join(home, secret, '..'), { recursive: true });
    await writeFile(join(home, secret), 'TOKEN');
    await symlink(secret, join(home, 'AGENTS.md'));
    const checked = await createReadJail(env).check('AGENTS.md', home);
    expect('refused' in checked && checked.refused).toMatch(/secret location/);
  });
});

describe('files read for the user', () => {
  it('leaves a context file linked out of the repository out of the prompt, with a warning naming it', async () => {
    await symlink('../.ssh/id_rsa', join(workspace, 'AGENTS.md'));
    const warnings: string[] = [];
    const files = await findContextFiles({
      workspace,
      userFile: join(home, '.config', 'keel', 'AGENTS.md'),
      jail: createReadJail(env),
      warn: (message) => warnings.push(message),
    });
    expect(files.map((f) => f.content).join('')).not.toContain('CANARY');
    expect(warnings).toEqual([expect.stringMatching(/context file .*AGENTS\.md skipped: .*outside/)]);
  });

  it('holds a context file in a workspace without .git to the workspace when the home is a dotfiles repository', async () => {
    await rm(join(workspace, '.git'), { recursive: true });
    await mkdir(join(home, '.git'));
    await writeFile(join(home, '.git-credentials'), 'https://u:CANARY-TOKEN@github.com');
    await writeFile(join(home, 'notes.md'), 'CANARY-NOTES');
    await symlink('../.git-credentials', join(workspace, 'AGENTS.md'));
    await symlink('../notes.md', join(workspace, 'CLAUDE.md'));
    const warnings: string[] = [];
    const files = await findContextFiles({
      workspace,
      userFile: join(home, '.config', 'keel', 'AGENTS.md'),
      jail: createReadJail(env),
      warn: (message) => warnings.push(message),
    });
    expect(files.map((f) => f.content).join('')).not.toContain('CANARY');
    expect(warnings).toEqual([
      expect.stringMatching(
        /context file .*project\/AGENTS\.md skipped: it resolves to .*\.git-credentials, outside/,
      ),
    ]);
  });

  it('lets a context file above the workspace link inside the repository root, never to a secret there', async () => {
    await rm(join(workspace, '.git'), { recursive: true });
    await mkdir(join(home, '.git'));
    await mkdir(join(home, 'docs'));
    await writeFile(join(home, 'docs', 'rules.md'), 'house rules');
    await symlink('docs/rules.md', join(home, 'AGENTS.md'));
    const jail = createReadJail(env);
    const userFile = join(home, '.config', 'keel', 'AGENTS.md');
    expect((await findContextFiles({ workspace, userFile, jail })).map((f) => f.content)).toEqual([
      'house rules',
    ]);
    await rm(join(home, 'AGENTS.md'));
    await writeFile(join(home, '.git-credentials'), 'CANARY-TOKEN');
    await symlink('.git-credentials', join(home, 'AGENTS.md'));
    const warnings: string[] = [];
    const files = await findContextFiles({ workspace, userFile, jail, warn: (m) => warnings.push(m) });
    expect(files).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/AGENTS\.md skipped: .*secret location/)]);
  });

  it('leaves out a context file and refuses an @include that are hard links to the SSH key', async () => {
    await link(join(home, '.ssh', 'id_rsa'), join(workspace, 'AGENTS.md'));
    await mkdir(join(workspace, 'sub'));
    await link(join(home, '.ssh', 'id_rsa'), join(workspace, 'sub', 'id'));
    await mkdir(join(workspace, '.keel', 'commands'), { recursive: true });
    await writeFile(join(workspace, '.keel', 'commands', 'z.md'), 'see @sub/id');
    const warnings: string[] = [];
    const files = await findContextFiles({
      workspace,
      userFile: join(home, '.config', 'keel', 'AGENTS.md'),
      jail: createReadJail(env),
      warn: (message) => warnings.push(message),
    });
    expect(files).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(/AGENTS\.md skipped: it is a hard link to the secret file ~\/\.ssh\/id_rsa/),
    ]);
    // A workspace opened without the secret links: the jail alone refuses.
    const loaded = await loadPromptCommands({ workspace: await openWorkspace(workspace), env });
    const command = loaded.commands.find((c) => c.name === 'z');
    await expect(command?.expand('')).rejects.toThrow(
      /@sub\/id is refused: it is a hard link to the secret file/,
    );
  });

  it("reads the user's own context file even when it is a link out", async () => {
    const userFile = join(home, '.config', 'keel', 'AGENTS.md');
    await mkdir(join(home, '.config', 'keel'), { recursive: true });
    await writeFile(join(root, 'mine.md'), 'my rules');
    await symlink(join(root, 'mine.md'), userFile);
    const files = await findContextFiles({ workspace, userFile, jail: createReadJail(env) });
    expect(files.map((f) => f.content)).toEqual(['my rules']);
  });

  it('refuses a project command linked to a credentials file, naming it', async () => {
    await mkdir(join(home, '.aws'));
    await writeFile(join(home, '.aws', 'credentials'), 'CANARY-AWS');
    await mkdir(join(workspace, '.keel', 'commands'), { recursive: true });
    await symlink(join(home, '.aws', 'credentials'), join(workspace, '.keel', 'commands', 'x.md'));
    const loaded = await loadPromptCommands({ workspace: await openWorkspace(workspace), env });
    expect(loaded.commands.map((c) => c.name)).not.toContain('x');
    expect(loaded.refused.get('x')).toMatch(/x\.md: it resolves to .*credentials/);
    expect(loaded.warnings).toEqual([expect.stringMatching(/command file .*x\.md skipped/)]);
  });

  it("refuses a project command's @include of a link into a secret", async () => {
    await writeFile(join(workspace, '.env'), 'CANARY-ENV');
    await symlink('.env', join(workspace, 'notes.txt'));
    await mkdir(join(workspace, '.keel', 'commands'), { recursive: true });
    await writeFile(join(workspace, '.keel', 'commands', 'y.md'), 'look at @notes.txt');
    const loaded = await loadPromptCommands({ workspace: await openWorkspace(workspace), env });
    const command = loaded.commands.find((c) => c.name === 'y');
    await expect(command?.expand('')).rejects.toThrow(/@notes\.txt is refused: .*holds secrets/);
  });
});

describe('scripts and directories a project names', () => {
  const refuser =
    (jail = createReadJail(env)) =>
    async (file: string) => {
      const checked = await jail.check(file, workspace);
      return 'refused' in checked ? checked.refused : undefined;
    };

  it('leaves out a chat @attachment linked to the SSH key, saying why', async () => {
    await symlink('../.ssh/id_rsa', join(workspace, 'key.txt'));
    const attached = await attachFiles(
      'see @key.txt',
      await openWorkspace(workspace),
      undefined,
      createReadJail(env),
    );
    expect(attached.message).not.toContain('CANARY');
    expect(attached.skipped).toEqual([{ path: 'key.txt', reason: expect.stringMatching(/outside/) }]);
  });

  it('leaves out a chat @attachment that is a hard link to the SSH key, saying why', async () => {
    await link(join(home, '.ssh', 'id_rsa'), join(workspace, 'key.txt'));
    const attached = await attachFiles(
      'see @key.txt',
      await openWorkspace(workspace),
      undefined,
      createReadJail(env),
    );
    expect(attached.message).not.toContain('CANARY');
    expect(attached.skipped).toEqual([
      { path: 'key.txt', reason: 'it is a hard link to the secret file ~/.ssh/id_rsa' },
    ]);
  });

  it("skips a project file's hook whose script links out of the workspace; the user's own hooks run", async () => {
    // The linked script would leave a mark outside the workspace if it ran.
    await writeFile(join(root, 'evil.sh'), `touch ${join(root, 'ran-$1')}`);
    await symlink('../../evil.sh', join(workspace, 'hook.sh'));
    const hook = (which: string) => ({ command: `bash ./hook.sh ${which}`, match: '*', timeout_seconds: 5 });
    const config = { session_start: [hook('project')], pre_tool: [], post_tool: [], stop: [hook('user')] };
    const warnings: string[] = [];
    const hooks = createHooks(config, {
      workspace,
      sessionId: 's',
      env,
      emit: (event) => event.type === 'warning' && warnings.push(event.message),
      jail: {
        reads: createReadJail(env),
        sources: {
          'hooks.session_start': 'project file /w/.keel.yaml:2 (trusted folder)',
          'hooks.stop': 'user file /u.yaml:1',
        },
      },
    });
    await hooks?.sessionStart();
    await hooks?.stop({ reason: 'done', turns: 1 });
    expect(existsSync(join(root, 'ran-project'))).toBe(false);
    expect(existsSync(join(root, 'ran-user'))).toBe(true);
    expect(warnings).toEqual([
      expect.stringMatching(
        /session_start hook `bash \.\/hook\.sh project` skipped: \.\/hook\.sh: .*outside/,
      ),
    ]);
  });

  it("leaves out a project's custom tool whose script links out of the workspace", async () => {
    await writeFile(join(root, 'evil.sh'), 'cat ~/.ssh/id_rsa');
    await symlink('../../evil.sh', join(workspace, 'tool.sh'));
    const warnings: string[] = [];
    const def = { description: 'x', script: 'tool.sh', parameters: {}, template_validations: {} };
    const tools = await customTools({ mine: def } as never, {
      scriptDirs: [workspace],
      refuseScript: refuser(),
      warn: (message) => warnings.push(message),
    });
    expect(tools).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(/tool mine left out: its script .*tool\.sh is skipped: .*outside/),
    ]);
  });

  it('does not start an MCP server whose cwd links out of the workspace', async () => {
    await symlink('..', join(workspace, 'up'));
    const warnings: string[] = [];
    const servers = startMcpServers({
      servers: { x: mcpServerSchema.parse({ command: 'keel-no-such-server', cwd: 'up' }) },
      registry: createRegistry([]),
      env,
      workspace,
      warn: (message) => warnings.push(message),
      jail: { reads: createReadJail(env), project: false },
    });
    await servers?.close();
    expect(warnings).toEqual([
      expect.stringMatching(/MCP server x not started: its cwd up is skipped: .*outside/),
    ]);
  });
});
