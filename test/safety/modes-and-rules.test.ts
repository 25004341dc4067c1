// Tests for the modes table, the user's command rules, the read-only flag rules, protected paths and the
// restricted delete rule, through the real policy on real temp workspaces.
import { promises as fs } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LIBRARY_WORDS } from '../../src/api/agent.js';
import { configSchema, type KeelConfig } from '../../src/config/schema.js';
import { ACTIONS, type ActionKind, CLI_WORDS, hintOf, MODES, verdictOf } from '../../src/safety/modes.js';
import { createPolicy, type ExecutionMode, type PolicyOptions } from '../../src/safety/policy.js';
import { InvalidRuleError, parseRules } from '../../src/safety/user-rules.js';
import { openWorkspace, type Workspace } from '../../src/safety/workspace.js';
import { executeToolCall } from '../../src/tools/executor.js';
import { createRegistry, defaultTools } from '../../src/tools/registry.js';
import { makeWorkspace } from '../tools/helpers.js';

let base: string;
let ws: Workspace;
let state: string;

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-modes-')));
  const root = path.join(base, 'work');
  state = path.join(base, 'state');
  for (const dir of ['src/sub', '.git/hooks', '.keel', 'secrets', 'nested/.git']) {
    await fs.mkdir(path.join(root, dir), { recursive: true });
  }
  for (const file of [
    'src/a.ts',
    'src/b.ts',
    '.git/config',
    '.keel.yaml',
    '.env',
    'secrets/k.txt',
    'build.sh',
  ]) {
    await fs.writeFile(path.join(root, file), 'x\n');
  }
  ws = await openWorkspace(root);
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const config = (safety: Record<string, unknown> = {}): KeelConfig => configSchema.parse({ safety });

function decide(mode: ExecutionMode, command: string, options: Partial<PolicyOptions> = {}) {
  return createPolicy({ mode, workspace: ws, stateDir: state, ...options }).decide({
    tool: 'execute_command',
    safety: 'dangerous',
    args: { command },
    preview: { reads: [], writes: [], command, summary: '' },
  });
}

function decideWrite(mode: ExecutionMode, tool: string, rel: string, options: Partial<PolicyOptions> = {}) {
  return createPolicy({ mode, workspace: ws, stateDir: state, ...options }).decide({
    tool,
    safety: tool === 'delete_path' ? 'dangerous' : 'caution',
    args: { path: rel },
    preview: { reads: [], writes: [path.join(ws.root, rel)], summary: '' },
  });
}

describe('the modes table', () => {
  test('every kind of action has a verdict in every mode', () => {
    for (const [kind, row] of Object.entries(ACTIONS)) {
      for (const mode of MODES)
        expect(['allow', 'ask', 'deny']).toContain(verdictOf(kind as ActionKind, mode));
      expect(row.label).not.toBe('');
    }
  });

  test('plan mode allows reads and read-only commands only', () => {
    const allowed = Object.keys(ACTIONS).filter((kind) => verdictOf(kind as ActionKind, 'plan') === 'allow');
    expect(allowed.sort()).toEqual(['network-allowed-domain', 'read', 'read-only-command']);
  });

  test.each<[ActionKind, string, string, string, string]>([
    ['other-command', 'ask', 'deny', 'ask', 'allow'],
    ['sandboxed-command', 'ask', 'deny', 'allow', 'allow'],
    ['create-file', 'allow', 'allow', 'allow', 'allow'],
    ['edit-file', 'ask', 'allow', 'allow', 'allow'],
    ['delete-created-file', 'ask', 'allow', 'allow', 'allow'],
    ['delete-other', 'ask', 'deny', 'ask', 'allow'],
    ['protected-path-write', 'ask', 'ask', 'ask', 'ask'],
    ['secret-path-write', 'ask', 'ask', 'ask', 'ask'],
    ['confirm-command', 'ask', 'deny', 'ask', 'ask'],
    ['denied-command', 'deny', 'deny', 'deny', 'deny'],
    ['user-denied-command', 'deny', 'deny', 'deny', 'deny'],
    ['unverifiable-command', 'ask', 'deny', 'deny', 'deny'],
    ['inline-code', 'ask', 'deny', 'ask', 'ask'],
    ['unseen-command', 'ask', 'deny', 'ask', 'ask'],
    ['other-tool', 'ask', 'allow', 'allow', 'allow'],
  ])('%s: interactive %s, restricted %s, auto %s, full %s', (kind, interactive, restricted, auto, full) => {
    expect(ACTIONS[kind]).toMatchObject({ interactive, restricted, auto, full });
  });

  test("README's modes table says what the table says, row for row", async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const rows = Object.values(ACTIONS).map(
      (row) =>
        `| ${row.label.replaceAll('|', '\\|')} | ${row.interactive} | ${row.restricted} | ${row.auto} | ${row.full} |`,
    );
    const start = readme.indexOf('| action | interactive | restricted | auto | full |');
    expect(start).toBeGreaterThan(0);
    const table = readme.slice(start).split('\n\n')[0]!.split('\n').slice(2);
    expect(table).toEqual(rows);
  });

  test('every refusal of the table says how to allow it', () => {
    for (const row of Object.values(ACTIONS)) {
      if (MODES.some((m) => m !== 'plan' && row[m] !== 'allow')) expect(row.hint(CLI_WORDS)).not.toBe('');
    }
  });

  test("every hint is written in the entry point's words: the library's name no command-line flag", () => {
    for (const kind of Object.keys(ACTIONS) as ActionKind[])
      for (const mode of MODES)
        expect(hintOf(kind, mode, LIBRARY_WORDS)).not.toMatch(/--mode|--allow|keel chat/);
    expect(hintOf('edit-file', 'interactive', LIBRARY_WORDS)).toBe(
      'set the mode option to auto, restricted or full to let edits run without asking',
    );
  });
});

describe('user command rules', () => {
  const rules = config({
    commands: { allow: ['npm test', 'npm run *', "git commit -m 'a b'", './build.sh'] },
  });

  test.each([
    'npm test',
    'npm run build',
    'npm run',
    'npm run lint -- --fix',
    'git commit -m "a b"',
    "git commit -m a' 'b",
    './build.sh',
    'npm test 2>&1 | tail -n 5',
    'npm test > out.txt',
    'ls && npm test',
  ])('restricted allows %s with the rules', async (command) => {
    expect(await decide('restricted', command, { config: rules })).toMatchObject({ decision: 'allow' });
  });

  test.each([
    ['npm test --coverage', 'no * in the rule: exactly these words'],
    ['npm testing', 'words, not a prefix of the string'],
    ['npm test; rm -rf build', 'every part of a compound command must be allowed'],
    ['npm test && make', 'every part'],
    ['npm test $(touch x)', 'an expansion is never matched by an allow rule'],
    ['FOO=1 npm test', 'an assignment changes what runs'],
    ['npm test > ../out.txt', 'a redirect out of the workspace'],
    ['npm test > .git/config', 'a redirect onto a protected path'],
    ['/usr/bin/npm test', 'allow rules name the program as written'],
    ['git commit -m a b', 'quoting in the rule is parsed: "a b" is one word'],
    ['timeout 5 npm test', 'a wrapper is not the command the rule names'],
    ['PATH=/tmp; npm test', 'a line that changes PATH before the command'],
    ['export NODE_OPTIONS=--require=./x.js; npm test', 'a line that exports a variable before the command'],
  ])('restricted refuses %s (%s)', async (command) => {
    expect(await decide('restricted', command, { config: rules })).toMatchObject({ decision: 'deny' });
  });

  test('a rule with leading assignments allows the command with exactly those assignments', async () => {
    const withEnv = config({ commands: { allow: ["CI=1 FORCE_COLOR='0' npm test"] } });
    const allowed = await decide('restricted', 'CI=1 FORCE_COLOR=0 npm test', { config: withEnv });
    expect(allowed).toMatchObject({ decision: 'allow' });
    for (const other of [
      'npm test',
      'CI=2 FORCE_COLOR=0 npm test',
      'FORCE_COLOR=0 CI=1 npm test',
      'CI=1 npm test',
    ])
      expect(await decide('restricted', other, { config: withEnv })).toMatchObject({ decision: 'deny' });
    await expect(parseRules({ allow: ['CI=$X npm test'], ask: [], deny: [] })).rejects.toBeInstanceOf(
      InvalidRuleError,
    );
  });

  test('the hint for a command with leading assignments names a rule that allows it', async () => {
    const refused = await decide('restricted', "CI=1 MSG='a b' npm test", { config: rules });
    expect(refused.hint).toContain(`add "CI=1 MSG='a b' npm test" to safety.commands.allow`);
    const allow = ["CI=1 MSG='a b' npm test"];
    expect(await decide('restricted', "CI=1 MSG='a b' npm test", { allow })).toMatchObject({
      decision: 'allow',
    });
  });

  test('--allow rules count like config allow rules', async () => {
    expect(await decide('restricted', 'make', { allow: ['make'] })).toMatchObject({ decision: 'allow' });
    expect(await decide('restricted', 'make', {})).toMatchObject({ decision: 'deny' });
  });

  test('a command allowed by a rule is not read-only: it is checkpointed and skipped by --dry-run', async () => {
    const decision = await decide('restricted', 'npm test', { config: rules });
    expect(decision.readOnly).toBeUndefined();
    expect((await decide('restricted', 'git status')).readOnly).toBe(true);
  });

  test('deny wins over ask, and ask over allow', async () => {
    const all = config({ commands: { allow: ['git push *'], ask: ['git push *'], deny: ['git push *'] } });
    expect(await decide('full', 'git push origin', { config: all })).toMatchObject({ decision: 'deny' });
    const askAllow = config({ commands: { allow: ['git push *'], ask: ['git push origin *'] } });
    expect(await decide('full', 'git push origin main', { config: askAllow })).toMatchObject({
      decision: 'ask',
    });
    expect(await decide('full', 'git push upstream main', { config: askAllow })).toMatchObject({
      decision: 'allow',
    });
  });

  test.each([
    'git push origin main',
    'ls && git push',
    'timeout 5 git push',
    'env GIT_TRACE=1 git push --force',
    '/usr/bin/git push',
    'bash -c "git push origin"',
    'sh -c "ls; git push"',
  ])('a deny rule finds %s through chains, wrappers and sh -c', async (command) => {
    const deny = config({ commands: { deny: ['git push *'] } });
    const decision = await decide('full', command, { config: deny });
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toContain('matches your deny rule "git push *"');
  });

  test('an ask rule asks even in full mode', async () => {
    const ask = config({ commands: { ask: ['npm publish *'] } });
    expect(await decide('full', 'npm publish --tag next', { config: ask })).toMatchObject({
      decision: 'ask',
    });
  });

  test.each(['npm test && rm x', 'npm $(x)', 'npm test > out', 'npm *.ts', '* foo', ''])(
    'the rule %j is refused with a message',
    async (rule) => {
      await expect(parseRules({ allow: [rule], ask: [], deny: [] })).rejects.toBeInstanceOf(InvalidRuleError);
    },
  );

  test('every reason of a compound command is listed, and the hint names each rule', async () => {
    const decision = await decide('restricted', 'npm test; cargo build --release');
    expect(decision.reasons).toEqual([
      '`npm test` is not a read-only command',
      '`cargo build --release` is not a read-only command',
    ]);
    expect(decision.hint).toBe(
      'add "npm test" and "cargo build --release" to safety.commands.allow, pass --allow "npm test" --allow "cargo build --release", or use --mode full',
    );
    const library = await decide('restricted', 'npm test; cargo build --release', { words: LIBRARY_WORDS });
    expect(library.hint).toBe(
      'add "npm test" and "cargo build --release" to safety.commands.allow, pass allow: ["npm test", "cargo build --release"], or set the mode option to full',
    );
  });
});

describe('the read-only set and its flag rules', () => {
  test.each([
    'git status',
    'git status --short',
    'git diff HEAD~1',
    'git diff --stat -- src',
    'git log --oneline -n 5',
    'git show HEAD:src/a.ts',
    'git rev-parse --show-toplevel',
    'git branch',
    'git branch --list "feat*"',
    'git branch -a -v',
    'wc -l src/a.ts',
    'sort src/a.ts | uniq -c',
    'cut -d, -f1 src/a.ts',
    'diff src/a.ts src/b.ts',
    'file src/a.ts',
    'stat src',
    'du -sh src',
    'tree -L 2',
    'rg -n TODO src',
    'rg /api/ src',
    'grep -rn "/etc/passwd" src',
    'cat < src/a.ts',
    'wc -l < src/a.ts',
    'uniq src/a.ts',
  ])('%s is read-only in restricted mode', async (command) => {
    expect(await decide('restricted', command)).toMatchObject({ decision: 'allow', readOnly: true });
  });

  test.each([
    ['git -c user.name=x log', 'is not a setting known to only change how git prints'],
    ['git log -c', '`git log -c` can write files or run programs'],
    ['git log --output=x', '`git log --output=x`'],
    ['git diff --ext-diff', '`git diff --ext-diff`'],
    ['git show --textconv HEAD', '`git show --textconv`'],
    ['git log --paginate', '`git log --paginate`'],
    ['git diff --config-env=a=b', '`git diff --config-env=a=b`'],
    ['git branch feature', 'only listing is read-only'],
    ['git branch -D main', '`git branch -D` is not a listing option'],
    ['git push', 'not a read-only command'],
    ['git commit -m x', 'not a read-only command'],
    ['rg --pre cat x', '`rg --pre`'],
    ['rg --pre=cat x', '`rg --pre=cat`'],
    ['rg -nz x', '`rg -nz`'],
    ['rg --search-zip x', '`rg --search-zip`'],
    ['rg --hostname-bin=x y', '`rg --hostname-bin=x`'],
    ['sort -o out src/a.ts', '`sort -o`'],
    ['sort -no out src/a.ts', '`sort -no`'],
    ['sort --output=out src/a.ts', '`sort --output=out`'],
    ['sort --files0-from=list', '`sort --files0-from=list`'],
    ['wc --files0-from=list', '`wc --files0-from=list`'],
    ['tree -o out', '`tree -o`'],
    ['uniq src/a.ts out.txt', 'writes the last one'],
    ['file -C -m magic', '`file -C`'],
    ['find . -fprint out', '`find -fprint`'],
    ['find . -delete', '`find -delete`'],
    ['diff -r src secrets', 'follows symbolic links'],
    ['diff src secrets', 'is a directory'],
    ['cat < /etc/passwd', '`/etc/passwd` is outside the workspace'],
    ['cat < ../x', 'is outside the workspace'],
    ['grep x src > out.txt', 'redirects to `out.txt`'],
    ['grep -e x /etc/passwd', '`/etc/passwd` is outside the workspace'],
    ['rg x /etc', '`/etc` is outside the workspace'],
  ])('%s is not read-only', async (command, why) => {
    const decision = await decide('restricted', command);
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toContain(why);
  });
});

describe('inline interpreter code', () => {
  test.each([
    'python3 -c "import os"',
    'node -e "require(\'fs\')"',
    'perl -ne "print" src/a.ts',
    "ruby -e 'puts 1'",
    'awk \'{ system("id") }\' src/a.ts',
    'timeout 5 python3 -c x',
    'python3 <<EOF\nprint(1)\nEOF',
    // Standard input named as the script runs the here-document too.
    "python3 /dev/stdin <<'EOF'\nprint(1)\nEOF",
    "perl /dev/fd/0 <<'EOF'\nprint 1\nEOF",
    "node - <<'EOF'\nconsole.log(1)\nEOF",
  ])('full mode without a sandbox asks about %j', async (command) => {
    const decision = await decide('full', command);
    expect(decision.decision).toBe('ask');
    expect(decision.reason).toMatch(/runs inline \w+ code/);
    expect(decision.hint).toContain('write the code to a file in the workspace');
  });

  test.each(['python3 script.py -c x', "awk '{print $1}' src/a.ts", 'node build.js', 'bash -c "ls"'])(
    'full mode runs %j, a program from a file or checked text',
    async (command) => {
      expect(await decide('full', command)).toMatchObject({ decision: 'allow' });
    },
  );

  test('a sandbox makes inline code an ordinary command', async () => {
    expect(await decide('full', 'python3 -c "print(1)"', { sandboxed: true })).toMatchObject({
      decision: 'allow',
    });
  });
});

describe('protected and secret paths for file tools', () => {
  test.each([
    ['write_file', '.git/hooks/pre-commit'],
    ['write_file', '.git/config'],
    ['write_file', 'nested/.git/HEAD'],
    ['write_file', '.keel.yaml'],
    ['write_file', '.keel/rules.yaml'],
    ['create_directory', '.keel/new'],
    ['delete_path', '.git'],
    ['delete_path', 'nested'],
    ['write_file', '.env'],
    ['write_file', 'config/.env.production'],
    ['write_file', 'certs/server.pem'],
  ])('%s %s asks in every mode', async (tool, rel) => {
    for (const mode of MODES) {
      const decision = await decideWrite(mode, tool, rel);
      expect(decision.decision, mode).toMatch(/ask|deny/);
      expect(decision.reasons.join(' ')).toContain('protected');
    }
    expect(await decideWrite('full', tool, rel)).toMatchObject({ decision: 'ask' });
  });

  test('safety.protected_paths globs are protected too, relative to the workspace', async () => {
    const options = { config: config({ protected_paths: ['secrets/**', '*.lock'] }) };
    expect(await decideWrite('full', 'write_file', 'secrets/k.txt', options)).toMatchObject({
      decision: 'ask',
    });
    expect(await decideWrite('full', 'write_file', 'yarn.lock', options)).toMatchObject({ decision: 'ask' });
    expect(await decideWrite('full', 'write_file', 'src/yarn.lock', options)).toMatchObject({
      decision: 'allow',
    });
    expect(await decideWrite('full', 'write_file', 'secrets/k.txt')).toMatchObject({ decision: 'allow' });
  });

  test("Keel's state directory is protected when the workspace holds it", async () => {
    const inner = path.join(ws.root, 'state-inside');
    const decision = await createPolicy({ mode: 'full', workspace: ws, stateDir: inner }).decide({
      tool: 'write_file',
      safety: 'caution',
      args: {},
      preview: { reads: [], writes: [path.join(inner, 'trusted-folders.json')], summary: '' },
    });
    expect(decision).toMatchObject({ decision: 'ask' });
    expect(decision.reason).toContain("Keel's state directory");
  });

  test('an example env file is not a secret', async () => {
    expect(await decideWrite('full', 'write_file', '.env.example')).toMatchObject({ decision: 'allow' });
  });
});

describe('file tools per mode', () => {
  test('interactive creates new files, asks before an edit and before any delete', async () => {
    expect(await decideWrite('interactive', 'write_file', 'src/new.ts')).toMatchObject({ decision: 'allow' });
    expect(await decideWrite('interactive', 'create_directory', 'lib')).toMatchObject({ decision: 'allow' });
    expect(await decideWrite('interactive', 'write_file', 'src/a.ts')).toMatchObject({ decision: 'ask' });
    expect(await decideWrite('interactive', 'delete_path', 'src/a.ts')).toMatchObject({ decision: 'ask' });
  });

  test('restricted edits, and refuses to delete a directory or a file it did not create', async () => {
    expect(await decideWrite('restricted', 'write_file', 'src/a.ts')).toMatchObject({ decision: 'allow' });
    const file = await decideWrite('restricted', 'delete_path', 'src/a.ts');
    expect(file).toMatchObject({ decision: 'deny' });
    expect(file.reason).toContain('which this run did not create');
    expect(file.hint).toContain('--mode full');
    expect(await decideWrite('restricted', 'delete_path', 'src/sub')).toMatchObject({ decision: 'deny' });
    expect(await decideWrite('full', 'delete_path', 'src')).toMatchObject({ decision: 'allow' });
  });

  test('restricted deletes a file this run created, through the executor', async () => {
    const t = await makeWorkspace({ mode: 'restricted' });
    try {
      const registry = createRegistry(defaultTools());
      const run = (name: string, args: unknown) =>
        executeToolCall({ id: name, name, input: JSON.stringify(args) }, 1, { registry, ...t.held }, t.ctx);
      await t.write('old.txt', 'old');
      expect((await run('write_file', { path: 'new.txt', content: 'n' })).success).toBe(true);
      expect((await run('delete_path', { path: 'new.txt' })).success).toBe(true);
      const refused = await run('delete_path', { path: 'old.txt' });
      expect(refused.error).toContain('refused by policy: delete_path deletes the file old.txt');
      expect(refused.error).toContain('to allow it: ');
      expect(await t.read('old.txt')).toBe('old');
      // Overwriting an existing file does not make it "created this run".
      expect((await run('write_file', { path: 'old.txt', content: 'new' })).success).toBe(true);
      expect((await run('delete_path', { path: 'old.txt' })).success).toBe(false);
    } finally {
      await t.cleanup();
    }
  });
});
