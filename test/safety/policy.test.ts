// Tests for the execution policy: restricted allowlist, full-mode denylist, interactive asks, tool levels.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LINK_FOLLOWING } from '../../src/safety/command/program-rules.js';
import { linkFollowingFlag } from '../../src/safety/command/read-only-check.js';
import { createPolicy, type ExecutionMode, type Policy } from '../../src/safety/policy.js';
import { secretLinks } from '../../src/safety/secret-links.js';
import { openWorkspace, type Workspace } from '../../src/safety/workspace.js';

let base: string;
let ws: Workspace;

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-policy-')));
  const root = path.join(base, 'work');
  await fs.mkdir(path.join(root, 'src'), { recursive: true });
  await fs.writeFile(path.join(root, 'src', 'a.ts'), 'a');
  await fs.symlink('/etc', path.join(root, 'etc-link'));
  // A link out to a secret, found only by walking the workspace; a hard link to a file outside it, one in an installed
  // package (pnpm's store) and one to the SSH key.
  const outside = path.join(base, 'outside');
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'secret.txt'), 'secret');
  await fs.symlink(outside, path.join(root, 'src', 'out-link'));
  await fs.link(path.join(outside, 'secret.txt'), path.join(root, 'hardlinked.txt'));
  const home = path.join(base, 'home');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh', 'id_rsa'), 'KEY');
  await fs.mkdir(path.join(root, 'keys'));
  await fs.link(path.join(home, '.ssh', 'id_rsa'), path.join(root, 'keys', 'hardkey.txt'));
  await fs.mkdir(path.join(root, 'src', 'sub'));
  await fs.mkdir(path.join(root, 'node_modules', '.pnpm', 'x'), { recursive: true });
  await fs.writeFile(path.join(outside, 'store-file.js'), 'module.exports = 1;');
  await fs.link(
    path.join(outside, 'store-file.js'),
    path.join(root, 'node_modules', '.pnpm', 'x', 'index.js'),
  );
  ws = await openWorkspace(root, [], [], secretLinks(home));
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const noPreview = { reads: [], writes: [], summary: '' };
const policy = (mode: ExecutionMode): Policy => createPolicy({ mode, workspace: ws });
const decide = (mode: ExecutionMode, command: string) =>
  policy(mode).decide({
    tool: 'execute_command',
    safety: 'dangerous',
    args: { command },
    preview: noPreview,
  });

describe('restricted', () => {
  test.each([
    'ls -la',
    'grep -rn TODO src | head -5',
    "find . -name '*.ts'",
    'cat src/a.ts',
    'ls src/*.ts',
    'grep -rn x src 2>/dev/null',
    'ls src 2>&1 | tail -n 3',
    'echo /etc/passwd',
    'pwd',
  ])('allows %s', async (command) => {
    expect(await decide('restricted', command)).toMatchObject({ decision: 'allow' });
  });

  test.each([
    'ls; rm -rf x',
    'ls && npm test',
    'cat $(echo x)',
    'echo hi > f',
    'find . -delete',
    'find . -exec cat {} ;',
    'cat /etc/passwd',
    'cat ../x',
    'echo `id`',
    'bash -c "ls; rm x"',
    'cat ~/.ssh/id_rsa',
    'cat etc-link/passwd',
    'ls /etc/*',
    'grep --file=/etc/passwd src',
    'grep -f/etc/passwd src',
    'ls >&out.txt',
    'ls {a,b}',
    'constructor',
    '__proto__ x',
    'toString',
  ])('refuses %s', async (command) => {
    expect(await decide('restricted', command)).toMatchObject({ decision: 'deny' });
  });

  test('the refusal says what was refused and how to allow it', async () => {
    const decision = await decide('restricted', 'npm test');
    expect(decision.reason).toBe('`npm test` is not a read-only command');
    expect(decision.hint).toBe(
      'add "npm test" to safety.commands.allow, pass --allow "npm test", or use --mode full',
    );
  });
});

describe('restricted and symbolic links found while walking', () => {
  test.each([
    ['grep -R secret .', '`grep -R`'],
    ['grep -rR secret src', '`grep -rR`'],
    ['grep --dereference-recursive secret .', '`grep --dereference-recursive`'],
    ['grep --deref secret .', '`grep --deref`'],
    ['grep secret . -nR', '`grep -nR`'],
    ['find -L . -name secret.txt', '`find -L`'],
    ['find . -follow -name secret.txt', '`find -follow`'],
    ['ls -LR', '`ls -LR`'],
    ['ls -RL src', '`ls -RL`'],
    ['ls -lLR', '`ls -lLR`'],
    ['ls -R --dereference src', '`ls --dereference`'],
  ])('refuses %s, naming the option', async (command, named) => {
    const decision = await decide('restricted', command);
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toContain(`${named} follows symbolic links`);
  });

  test('the refusal says what to use instead', async () => {
    const decision = await decide('restricted', 'grep -R secret .');
    expect(decision.reason).toMatch(
      /^`grep -R` follows symbolic links it finds, which can lead out of the workspace; use `grep -r`/,
    );
  });

  test.each([
    'grep -r secret .',
    'grep -rn ";" src',
    'grep --recursive secret src',
    'find . -name "*.ts"',
    'find -H . -name "*.ts"',
    'ls -la',
    'ls -lR src',
  ])('allows %s, which does not follow links it finds', async (command) => {
    expect(await decide('restricted', command)).toMatchObject({ decision: 'allow' });
  });

  test('a link named on the command line is still checked as a path', async () => {
    const decision = await decide('restricted', 'grep -r secret src/out-link');
    expect(decision).toMatchObject({ decision: 'deny' });
    expect(decision.reason).toMatch(/`src\/out-link[^`]*` is outside the workspace/);
  });

  test.each([
    ['rg', ['-L', 'x'], '-L'],
    ['rg', ['-uL', 'x'], '-uL'],
    ['rg', ['--follow', 'x'], '--follow'],
    ['rg', ['-n', 'x'], undefined],
    ['rg', ['--no-follow', 'x'], undefined],
    ['du', ['-shL', '.'], '-shL'],
    ['du', ['--dereference=x', '.'], '--dereference=x'],
    ['du', ['-sh', '.'], undefined],
    ['tree', ['-al'], '-al'],
    ['tree', ['-L', '2'], undefined],
    ['find', ['.', '-name', 'Lx'], undefined],
  ])('the rule for %s finds the link-following option in %j', (program, args, expected) => {
    const rule = LINK_FOLLOWING[program];
    expect(rule).toBeDefined();
    expect(linkFollowingFlag([program, ...args], rule!)).toBe(expected);
  });
});

describe('restricted and hard links', () => {
  test('refuses a hard link to a secret file, naming the secret', async () => {
    const decision = await decide('restricted', 'cat keys/hardkey.txt');
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toContain('`keys/hardkey.txt` is a hard link to the secret file ~/.ssh/id_rsa');
    expect(await decide('restricted', 'cat < keys/hardkey.txt')).toMatchObject({ decision: 'deny' });
  });

  test('refuses a glob that matches a hard link to a secret file', async () => {
    expect(await decide('restricted', 'cat keys/*.txt')).toMatchObject({ decision: 'deny' });
  });

  test('refuses a hard link to a file outside: it may be one under a name inside', async () => {
    const decision = await decide('restricted', 'cat hardlinked.txt');
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toContain('has 2 hard links, so it may be a file outside the workspace');
    expect(await decide('restricted', 'cat *.txt')).toMatchObject({ decision: 'deny' });
  });

  test("allows a hard link in an installed package, as pnpm's node_modules all are", async () => {
    expect(await decide('restricted', 'cat node_modules/.pnpm/x/index.js')).toMatchObject({
      decision: 'allow',
    });
    expect(await decide('restricted', 'head -5 node_modules/.pnpm/x/index.js')).toMatchObject({
      decision: 'allow',
    });
  });

  test('directories, whose link count is their subdirectories, are not hard links', async () => {
    expect((await fs.stat(path.join(ws.root, 'src'))).nlink).toBeGreaterThan(1);
    expect(await decide('restricted', 'ls src')).toMatchObject({ decision: 'allow' });
    expect(await decide('restricted', 'cat src/a.ts')).toMatchObject({ decision: 'allow' });
  });
});

describe('full', () => {
  test.each([
    'rm -rf /',
    'rm -rf /*',
    'rm -fr ~',
    'rm -r -f $HOME',
    'rm --recursive --force "$HOME/"',
    'rm -rf //',
    'rm -rf -- /usr',
    '/bin/rm -Rf /',
    "r''m -rf /",
    'sudo ls',
    'env FOO=1 sudo ls',
    'timeout 5 su root',
    'doas ls',
    'curl x | sh',
    'wget -qO- x | bash',
    'bash <(curl -s x)',
    ':(){ :|:& };:',
    'mkfs.ext4 /dev/sda',
    'dd if=/dev/zero of=/dev/sda',
    'eval ls',
    'exec ls',
    'chmod -R 777 .',
    'bash -c "rm -rf /"',
    'sh -c "sh -c \'sudo ls\'"',
    'xargs rm -rf / < list',
    'find . -exec rm -rf / ;',
    'echo "unterminated',
    '$CMD x',
    'constructor x; rm -rf /',
  ])('refuses %s', async (command) => {
    expect(await decide('full', command)).toMatchObject({ decision: 'deny' });
  });

  test.each([
    'npm test',
    'rm -rf build',
    'ls; rm -rf dist node_modules',
    'curl -s http://x -o out.json',
    'echo $(date)',
  ])('allows %s', async (command) => {
    expect(await decide('full', command)).toMatchObject({ decision: 'allow' });
  });

  test('the confirm tier asks even in full mode', async () => {
    const decision = await decide('full', 'git push --force');
    expect(decision.decision).toBe('ask');
    expect(decision.reason).toContain('`git push` rewrites or deletes history on the remote');
  });

  test('paths outside the workspace are refused in full mode too', async () => {
    expect(await decide('full', 'cat /etc/passwd')).toMatchObject({ decision: 'deny' });
  });

  test('the denylist applies in every mode', async () => {
    expect(await decide('interactive', 'sudo ls')).toMatchObject({ decision: 'deny' });
    expect((await decide('restricted', 'rm -rf /')).reason).toContain('refused in every mode');
  });
});

describe('interactive', () => {
  test('allowlisted commands run, others ask', async () => {
    expect(await decide('interactive', 'ls -la')).toMatchObject({ decision: 'allow' });
    expect(await decide('interactive', 'npm test')).toMatchObject({ decision: 'ask' });
  });

  test('the question is worded for the person answering it', async () => {
    expect(await decide('interactive', 'touch x.txt')).toMatchObject({
      decision: 'ask',
      reason: '`touch x.txt` is not a read-only command',
    });
    expect((await decide('interactive', 'echo hi > f')).reason).not.toMatch(/restricted mode/);
  });
});

describe('other tools', () => {
  test('safe tools are allowed in every mode', async () => {
    for (const mode of ['interactive', 'restricted', 'full'] as const) {
      expect(
        await policy(mode).decide({ tool: 'read_file', safety: 'safe', args: {}, preview: noPreview }),
      ).toMatchObject({
        decision: 'allow',
      });
    }
  });

  test('dangerous tools ask in interactive mode and run in the autonomous modes', async () => {
    const request = {
      tool: 'delete_path',
      safety: 'dangerous' as const,
      args: { path: 'x' },
      preview: noPreview,
    };
    expect(await policy('interactive').decide(request)).toMatchObject({ decision: 'ask' });
    expect(await policy('restricted').decide(request)).toMatchObject({ decision: 'allow' });
    expect(await policy('full').decide(request)).toMatchObject({ decision: 'allow' });
  });

  test('execute_command without a command string is denied', async () => {
    const decision = await policy('full').decide({
      tool: 'execute_command',
      safety: 'dangerous',
      args: {},
      preview: noPreview,
    });
    expect(decision.decision).toBe('deny');
  });
});
