// Checkpoints taken by runs and chat turns against the scripted model server, then `keel undo` restoring the real
// tree byte for byte, inside and outside git repositories; and --dry-run changing nothing. The built binary runs
// once (`keel undo`, after a run in process); the rest calls the same code in process.
import { promises as fs } from 'node:fs';
import { realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkpointDir } from '../../src/checkpoint/checkpoints.js';
import { restoreFilesAt } from '../../src/cli/undo-command.js';
import { makeWorkspace, runKeel } from '../support/cli.js';
import { toolMessages, useE2E } from '../support/e2e.js';
import { type ScriptStep, startModelServer } from '../support/model-server.js';
import { exec, shellGit } from '../support/small-shell.js';
import { treeSnapshot } from '../support/tree-snapshot.js';
import { captureOutput, useUndoRuns } from '../support/undo-runs.js';

const { server, workspace } = useE2E();
const keel = useUndoRuns();

const files = {
  'a.txt': 'original A\n',
  'b.txt': 'B to delete\n',
  'dir/c.txt': 'C\n',
  'dir/sub/d.txt': 'D\n',
  'e.txt': 'E removed by rm\n',
  'f.txt': 'F moved by mv\n',
  'h.txt': 'x marks the spot\n',
  '.gitignore': 'build/\n',
  'build/out.js': 'ignored output\n',
};

/** Every kind of change: file tools (overwrite, create, delete file and directory) and shell commands. */
const changes: ScriptStep[] = [
  {
    toolCalls: [
      { name: 'write_file', args: { path: 'a.txt', content: 'overwritten\n' } },
      { name: 'write_file', args: { path: 'new/created.txt', content: 'created\n' } },
      { name: 'delete_path', args: { path: 'b.txt' } },
      { name: 'delete_path', args: { path: 'dir', recursive: true } },
    ],
  },
  {
    toolCalls: [
      { name: 'execute_command', args: { command: 'rm e.txt' } },
      { name: 'execute_command', args: { command: 'mv f.txt g.txt' } },
      { name: 'execute_command', args: { command: 'sed -i s/x/y/ h.txt' } },
      { name: 'execute_command', args: { command: 'echo made > made.txt' } },
    ],
  },
  { text: 'All changed.' },
];

/**
 * The same changes with the shell's in one command: a checkpoint is taken before each call (several git processes
 * each), and restoring a whole run needs only the first.
 */
const fewerCalls: ScriptStep[] = [
  changes[0]!,
  {
    toolCalls: [
      {
        name: 'execute_command',
        args: { command: 'rm e.txt && mv f.txt g.txt && sed -i s/x/y/ h.txt && echo made > made.txt' },
      },
    ],
  },
  { text: 'All changed.' },
];

const gitEnv = () => ({ ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' });
const git = (cwd: string, ...args: string[]) => exec('git', args, { cwd, env: gitEnv() });

async function expectChangesMade(ws: string): Promise<void> {
  expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('overwritten\n');
  expect(await fs.readFile(join(ws, 'made.txt'), 'utf8')).toBe('made\n');
  expect(await fs.readFile(join(ws, 'h.txt'), 'utf8')).toBe('y marks the spot\n');
  await expect(fs.stat(join(ws, 'dir'))).rejects.toThrow();
  await expect(fs.stat(join(ws, 'f.txt'))).rejects.toThrow();
}

describe('keel undo (built binary) after a run', () => {
  it('restores a plain directory byte for byte after file tools and shell commands', async () => {
    const ws = await workspace(files);
    // The in-process run's state dir, where the binary's undo finds its checkpoints (a binary run's checkpoints are
    // test/e2e/rewind.test.ts's chat).
    const env = { XDG_STATE_HOME: keel.stateHome() };
    const before = await treeSnapshot(ws);
    const r = await keel.run(await server(fewerCalls), ws, 'change things');
    expect(r.reasons).toEqual(['done']);
    await expectChangesMade(ws);
    // The run's build output is ignored: undo leaves it.
    await fs.writeFile(join(ws, 'build/out.js'), 'rebuilt\n');

    const u = await runKeel(['undo', '--cwd', ws], { env, checkpoints: true });
    expect(u.stderr).toBe('');
    expect(u.code).toBe(0);
    // The ignored build output is a generated tree: named first as what undo cannot restore, then left alone.
    expect(u.stdout).toMatch(
      /^keel undo cannot restore these .*\n {2}build\/ \(generated tree: rebuild it\)\n/,
    );
    // A run id is <stamp>-<pid>, and -2, -3… for a process's further runs in the same second (the in-process run's).
    expect(u.stdout).toMatch(
      /^restored .* to before run \d{8}-\d{6}-\d+(-\d+)?: checkpoint [0-9a-f]{10} of /m,
    );
    expect(u.stdout).toMatch(/removed +made\.txt/);
    expect(u.stdout).toMatch(/brought back +dir\/sub\/d\.txt/);
    expect(u.stdout).toMatch(/restored +a\.txt/);
    expect(u.stdout).toContain('to reverse this undo, run keel undo again');
    expect(await treeSnapshot(ws)).toEqual({ ...before, 'build/out.js': 'file 644 rebuilt\n' });
  });
});

describe('keel undo', () => {
  it('restores files checkout converts (a clean filter, CRLF) as the work tree had them, not as git stores them', async () => {
    const ws = await workspace({
      '.gitattributes': 'assets/*.dat filter=up\n*.txt text eol=crlf\n',
      'assets/x.dat': 'hello\n',
      'a.txt': 'line1\nline2\n',
    });
    // Stored upper case, checked out lower case; the index written well after the files (none racily clean).
    const setup = [
      'git init -q',
      "git config filter.up.clean 'tr a-z A-Z' && git config filter.up.smudge 'tr A-Z a-z'",
      'git add -A && git -c user.name=t -c user.email=t@t commit -qm init',
      'rm assets/x.dat a.txt && git checkout -q -- .',
      "touch -d '1 hour ago' assets/x.dat a.txt .gitattributes && git update-index -q --really-refresh",
    ];
    await exec('sh', ['-c', setup.join(' && ')], { cwd: ws, env: gitEnv() });
    const before = await treeSnapshot(ws, { skip: ['.git'] });
    expect(before['a.txt']).toBe('file 644 line1\r\nline2\r\n');
    expect(before['assets/x.dat']).toBe('file 644 hello\n');
    const command = 'echo more >> assets/x.dat && echo more >> a.txt';
    const steps: ScriptStep[] = [
      { toolCalls: [{ name: 'execute_command', args: { command } }] },
      { text: 'done' },
    ];
    expect((await keel.run(await server(steps), ws, 'append')).reasons).toEqual(['done']);
    expect((await keel.undo(ws)).code).toBe(0);
    expect(await treeSnapshot(ws, { skip: ['.git'] })).toEqual(before);
    await rm(ws, { recursive: true, force: true });
  });

  it('restores a git repository without touching its .git: git status is as before the run', async () => {
    const ws = await workspace(files);
    await exec(
      'sh',
      ['-c', 'git init -q && git add . && git -c user.name=t -c user.email=t@t commit -qm init'],
      {
        cwd: ws,
        env: gitEnv(),
      },
    );
    // The user's own uncommitted work is part of the state to come back to.
    await fs.writeFile(join(ws, 'a.txt'), 'edited, not committed\n');
    await fs.writeFile(join(ws, 'untracked.txt'), 'mine\n');
    const status = await git(ws, 'status', '--porcelain');
    const dotGit = await treeSnapshot(join(ws, '.git'), { mtimes: true });
    const before = await treeSnapshot(ws, { skip: ['.git'] });
    const r = await keel.run(await server(fewerCalls), ws, 'change things');
    expect(r.reasons).toEqual(['done']);
    await expectChangesMade(ws);

    const u = await keel.undo(ws);
    expect(u.code).toBe(0);
    expect(await treeSnapshot(ws, { skip: ['.git'] })).toEqual(before);
    expect(await treeSnapshot(join(ws, '.git'), { mtimes: true })).toEqual(dotGit);
    expect(await git(ws, 'status', '--porcelain')).toBe(status);
  });

  describe('after a run of every kind of change', () => {
    // One run for these tests: the listing reads it, going back by id (which changes the workspace) comes last.
    let ws = '';
    beforeAll(async () => {
      ws = await makeWorkspace(files);
      const s = await startModelServer({ script: changes });
      try {
        expect((await keel.run(s, ws, 'change things')).reasons).toEqual(['done']);
      } finally {
        await s.close();
      }
      return () => rm(ws, { recursive: true, force: true });
    });

    it('lists checkpoints newest first with time, run, tool and files changed', async () => {
      const l = await keel.undo(ws, '--list');
      expect(l.code).toBe(0);
      const lines = l.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^checkpoints of .*, newest first/);
      const entries = lines.filter((line) => /^[0-9a-f]{10} {2}/.test(line));
      expect(entries).toHaveLength(8);
      expect(entries[0]).toMatch(
        /^[0-9a-f]{10} {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}run \d{8}-\d{6}-\d+(-\d+)? turn 2 {2}execute_command: run `echo made > made.txt`$/,
      );
      expect(entries[7]).toMatch(/turn 1 {2}write_file: write a\.txt \(1 line\) {2}\[start of run\]$/);
      expect(l.stdout).toContain('changed after: made.txt (created)');
      expect(l.stdout).toContain('changed after: f.txt (deleted), g.txt (created)');
      expect(l.stdout).toContain('changed after: dir/c.txt (deleted), dir/sub/d.txt (deleted)');
      // --output json: the same checkpoints, for scripts.
      const json = JSON.parse((await keel.undo(ws, '--list', '--json')).stdout);
      expect(json.workspace).toBe(ws);
      expect(json.checkpoints.map((c: { id: string }) => c.id)).toEqual(entries.map((e) => e.slice(0, 10)));
      expect(json.checkpoints[0]).toMatchObject({
        tool: 'execute_command',
        changed: [{ status: 'A', path: 'made.txt' }],
      });
    });

    it('names an unknown id and changes nothing', async () => {
      const unknown = await keel.undo(ws, 'deadbeef');
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('checkpoint id "deadbeef" is not a checkpoint of this workspace');
      expect(unknown.stderr).toContain('keel undo --list shows the ids');
      await expectChangesMade(ws);
    });

    it('goes back to one checkpoint by id: before that call', async () => {
      const l = await keel.undo(ws, '--list');
      const line = l.stdout.split('\n').find((x) => x.includes('sed -i'));
      const id = line?.slice(0, 10) ?? '';
      const u = await keel.undo(ws, id);
      expect(u.code).toBe(0);
      expect(u.stdout).toContain('to before execute_command (run `sed -i s/x/y/ h.txt`)');
      // Before the sed call: the edit and the later echo are gone, earlier changes stay.
      expect(await fs.readFile(join(ws, 'h.txt'), 'utf8')).toBe('x marks the spot\n');
      await expect(fs.stat(join(ws, 'made.txt'))).rejects.toThrow();
      expect(await fs.readFile(join(ws, 'g.txt'), 'utf8')).toBe('F moved by mv\n');
      expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('overwritten\n');
      // And the undo itself is undone by the next keel undo.
      const again = await keel.undo(ws);
      expect(again.code).toBe(0);
      await expectChangesMade(ws);
    });
  });

  it('undoes one chat turn at a time', async () => {
    const ws = await workspace({ 'a.txt': 'zero\n' });
    const s = await server([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'one\n' } }] },
      { text: 'wrote one' },
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'two\n' } }] },
      { text: 'wrote two' },
    ]);
    // Two turns of one conversation, as the chat runs them; restricted edits existing files without a question.
    const r = await keel.run(s, ws, ['write one', 'write two'], { mode: () => 'restricted' });
    expect(r.reasons).toEqual(['done', 'done']);
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('two\n');
    expect((await keel.undo(ws)).code).toBe(0);
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('says when there is nothing to undo', async () => {
    const ws = await workspace({ 'a.txt': 'A\n' });
    const none = await keel.undo(ws);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('error: nothing to undo: no checkpoints for this workspace');
    expect((await keel.undo(ws, '--list')).stdout).toMatch(/^no checkpoints for .*: nothing to undo\n$/);
  });
});

describe('files over checkpoints.max_file_mb', () => {
  it('are named in the listing and by undo, which says it cannot bring them back', async () => {
    const big = Buffer.alloc(1.5 * 1024 * 1024, 7);
    const ws = await makeWorkspace({ 'a.txt': 'A\n', '.keel.yaml': 'checkpoints:\n  max_file_mb: 1\n' });
    await fs.writeFile(join(ws, 'big.bin'), big);
    const s = await startModelServer({
      script: [
        { toolCalls: [{ name: 'execute_command', args: { command: 'rm big.bin; echo B > a.txt' } }] },
        { text: 'done' },
      ],
    });
    try {
      expect((await keel.run(s, ws, 'clean up')).reasons).toEqual(['done']);
    } finally {
      await s.close();
    }
    const l = await keel.undo(ws, '--list');
    expect(l.stdout).toContain('changed after: a.txt (modified)');
    expect(l.stdout).toContain(
      'over checkpoints.max_file_mb, named by size and hash only (undo cannot restore them): big.bin (1.5 MB)',
    );
    const u = await keel.undo(ws);
    expect(u.code).toBe(0);
    expect(u.stdout).toContain('big.bin (1.5 MB, deleted since then: NOT restored)');
    // Said before the restore acts, with what it cannot bring back.
    expect(u.stdout.indexOf('NOT restored')).toBeLessThan(u.stdout.indexOf('restored '));
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('A\n');
    await rm(ws, { recursive: true, force: true });
  });
});

describe('files changed inside a nested git repository', () => {
  const commit = 'git -c user.name=t -c user.email=t@t commit -qm c';
  /** A repository of these files with one commit, to clone or add as a submodule. */
  const committedRepo = async (files: Record<string, string>) => {
    const repo = await makeWorkspace(files);
    await exec('sh', ['-c', `git init -q && git add -A && ${commit}`], { cwd: repo, env: gitEnv() });
    return repo;
  };

  it('by a shell command, in a submodule and in a clone inside it, are undone too; their .git is not touched', async () => {
    const lib = await committedRepo({ 'lib.txt': 'lib\n', 'deep/d.txt': 'd\n', '.gitignore': '*.log\n' });
    const ws = await workspace({ 'top.txt': 'top\n' });
    await exec(
      'sh',
      [
        '-c',
        [
          `git init -q && git add -A && ${commit}`,
          `git -c protocol.file.allow=always submodule add -q ${lib} sub && ${commit}`,
          `git clone -q ${lib} clone && git init -q clone/inner`,
          'echo mine > sub/untracked.txt && echo kept > clone/run.log && echo i > clone/inner/i.txt',
        ].join(' && '),
      ],
      { cwd: ws, env: gitEnv() },
    );
    // Everything but the workspace's own .git: the nested repositories' .git folders must stay byte for byte.
    const before = await treeSnapshot(ws, { skip: ['.git'] });
    const command = [
      'rm -r sub/deep sub/untracked.txt clone/run.log clone/inner/i.txt',
      'echo z >> sub/lib.txt && echo n > clone/new.txt && echo t >> top.txt',
    ].join(' && ');
    const steps: ScriptStep[] = [
      { toolCalls: [{ name: 'execute_command', args: { command } }] },
      { text: 'done' },
    ];
    expect((await keel.run(await server(steps), ws, 'change them')).reasons).toEqual(['done']);
    expect(await fs.readFile(join(ws, 'sub/lib.txt'), 'utf8')).toBe('lib\nz\n');
    const u = await keel.undo(ws);
    expect(u.code).toBe(0);
    expect(u.stdout).toMatch(/brought back +sub\/deep\/d\.txt/);
    expect(u.stdout).toMatch(/brought back +clone\/run\.log/);
    expect(u.stdout).toMatch(/removed +clone\/new\.txt/);
    expect(await treeSnapshot(ws, { skip: ['.git'] })).toEqual(before);
    expect(await git(join(ws, 'sub'), 'status', '--porcelain')).toBe('?? untracked.txt\n');
    await rm(ws, { recursive: true, force: true });
    await rm(lib, { recursive: true, force: true });
  });

  it('in a submodule checked out during the run are undone: its files removed again, its .git file left and named', async () => {
    const lib = await committedRepo({ 'lib.txt': 'lib\n' });
    const ws = await workspace({ 'top.txt': 'top\n' });
    await exec(
      'sh',
      [
        '-c',
        `git init -q && git add -A && ${commit} && git -c protocol.file.allow=always submodule add -q ${lib} sub && ${commit} && git submodule deinit -q -f sub`,
      ],
      { cwd: ws, env: gitEnv() },
    );
    const update = 'git -c protocol.file.allow=always submodule update -q --init';
    const steps: ScriptStep[] = [
      { toolCalls: [{ name: 'execute_command', args: { command: `${update} && echo x >> sub/lib.txt` } }] },
      {
        toolCalls: [
          { name: 'execute_command', args: { command: 'echo y >> sub/lib.txt && echo n > sub/n.txt' } },
        ],
      },
      { text: 'done' },
    ];
    expect((await keel.run(await server(steps), ws, 'check it out')).reasons).toEqual(['done']);
    expect(await fs.readFile(join(ws, 'sub/lib.txt'), 'utf8')).toBe('lib\nx\ny\n');
    // The second call's checkpoint held the submodule's files as the first call left them.
    const list = await keel.undo(ws, '--list');
    expect(list.stdout).toMatch(/changed after: sub\/lib\.txt \(modified\), sub\/n\.txt \(created\)/);
    const u = await keel.undo(ws);
    expect(u.code).toBe(0);
    expect(await fs.readdir(join(ws, 'sub'))).toEqual(['.git']);
    expect(u.stdout).toContain(
      'left as it is: sub/.git, a repository made since that checkpoint (undo never touches a .git; remove sub if you do not want it)\n',
    );
    await rm(ws, { recursive: true, force: true });
    await rm(lib, { recursive: true, force: true });
  });

  it('by file tools are put back by undo, a file made there removed; undoing the undo brings the changes back', async () => {
    const ws = await makeWorkspace({ 'top.txt': 'top\n', 'vendor/lib/lib.txt': 'lib\n' });
    await git(join(ws, 'vendor/lib'), 'init', '-q');
    const s = await startModelServer({
      script: [
        { toolCalls: [{ name: 'write_file', args: { path: 'vendor/lib/lib.txt', content: 'changed\n' } }] },
        { toolCalls: [{ name: 'write_file', args: { path: 'vendor/lib/new.txt', content: 'new\n' } }] },
        {
          toolCalls: [
            {
              name: 'edit_file',
              args: { path: 'vendor/lib/lib.txt', old_string: 'changed', new_string: 'twice' },
            },
          ],
        },
        { toolCalls: [{ name: 'write_file', args: { path: 'top.txt', content: 'changed\n' } }] },
        { text: 'done' },
      ],
    });
    try {
      expect((await keel.run(s, ws, 'change both')).reasons).toEqual(['done']);
    } finally {
      await s.close();
    }
    const listed = await keel.undo(ws, '--list');
    expect(listed.stdout).toMatch(/changed after: vendor\/lib\/lib\.txt \(modified\)\n/);
    expect(listed.stdout).toMatch(/changed after: vendor\/lib\/new\.txt \(created\)\n/);
    const u = await keel.undo(ws);
    expect(u.code).toBe(0);
    expect(u.stdout).toContain('  restored     vendor/lib/lib.txt\n');
    expect(u.stdout).toContain('  removed      vendor/lib/new.txt\n');
    expect(u.stdout).not.toContain('nested git repository');
    expect(await fs.readFile(join(ws, 'vendor/lib/lib.txt'), 'utf8')).toBe('lib\n');
    await expect(fs.access(join(ws, 'vendor/lib/new.txt'))).rejects.toThrow();
    expect(await fs.readFile(join(ws, 'top.txt'), 'utf8')).toBe('top\n');
    // The undo's own checkpoint held them as they were: undoing it puts the run's changes back.
    expect((await keel.undo(ws)).code).toBe(0);
    expect(await fs.readFile(join(ws, 'vendor/lib/lib.txt'), 'utf8')).toBe('twice\n');
    expect(await fs.readFile(join(ws, 'vendor/lib/new.txt'), 'utf8')).toBe('new\n');
    expect(await fs.readFile(join(ws, 'top.txt'), 'utf8')).toBe('changed\n');
    await rm(ws, { recursive: true, force: true });
  });
});

describe('names no checkpoint can hold', () => {
  it('undo shows a line break in a name quoted, and names a file whose name is not UTF-8 as left as it is', async () => {
    const ws = await makeWorkspace({ 'a.txt': 'A\n' });
    await git(ws, 'init', '-q');
    await git(ws, 'add', '-A');
    await git(ws, '-c', 'user.email=k@e', '-c', 'user.name=k', 'commit', '-qm', 'base');
    // ANSI-C quoting: names written literally, which the policy can check (a substitution it cannot).
    const command = "printf x > $'caf\\351.txt' && printf y > $'two\\nlines.txt' && echo B > a.txt";
    const s = await startModelServer({
      script: [{ toolCalls: [{ name: 'execute_command', args: { command } }] }, { text: 'done' }],
    });
    try {
      expect((await keel.run(s, ws, 'make files')).reasons).toEqual(['done']);
    } finally {
      await s.close();
    }
    const latin1 = Buffer.concat([
      Buffer.from(`${ws}/`),
      Buffer.from([0x63, 0x61, 0x66, 0xe9]),
      Buffer.from('.txt'),
    ]);
    await fs.access(latin1);
    const u = await keel.undo(ws);
    expect(u.code).toBe(0);
    expect(u.stdout).toContain('  removed      "two\\nlines.txt"\n');
    expect(u.stdout).toContain(
      'left as they are (their names are not UTF-8: no checkpoint can hold them):\n  caf\uFFFD.txt\n',
    );
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('A\n');
    await rm(ws, { recursive: true, force: true });
  });
});

describe('--dry-run', () => {
  it('changes nothing, runs read-only tools, and tells the model what would have happened', async () => {
    const ws = await workspace({ 'a.txt': 'original A\n', 'b.txt': 'B\n', 'dir/c.txt': 'C\n' });
    const before = await treeSnapshot(ws, { mtimes: true });
    const s = await server([
      {
        toolCalls: [
          { name: 'read_file', args: { path: 'a.txt' } },
          { name: 'list_files', args: { path: '.' } },
          { name: 'write_file', args: { path: 'a.txt', content: 'new A\n' } },
          { name: 'write_file', args: { path: 'n.txt', content: 'N\n' } },
          { name: 'delete_path', args: { path: 'dir', recursive: true } },
          { name: 'create_directory', args: { path: 'made' } },
          { name: 'execute_command', args: { command: 'rm b.txt && echo x > new.txt' } },
        ],
      },
      { text: 'Would have changed things.' },
    ]);
    const r = await keel.run(s, ws, 'change things', { dryRun: true });
    expect(r.reasons).toEqual(['done']);
    expect(await treeSnapshot(ws, { mtimes: true })).toEqual(before);
    const [read, list, write, create, del, mkdir, command] = toolMessages(s.requests[1]!.body);
    expect(read).toContain('original A');
    expect(list).toContain('dir/');
    for (const result of [write, create, del, mkdir, command]) {
      expect(result).toMatch(/^\[dry run\] not applied: would /);
      expect(result).toContain('Nothing was changed; continue as if it had been applied, or finish.');
    }
    expect(write).toContain('-original A');
    expect(write).toContain('+new A');
    expect(del).toContain('would delete dir (recursive)');
    expect(command).toContain('$ rm b.txt && echo x > new.txt');
    expect(s.requests[0]!.rawBody).toContain('This is a dry run');
    // No checkpoint was taken: there is nothing to undo.
    await expect(
      fs.stat(checkpointDir(join(keel.stateHome(), 'keel'), await realpath(ws))),
    ).rejects.toThrow();
  });

  it('runs read-only commands in restricted mode', async () => {
    const ws = await workspace({ 'a.txt': 'read me\n' });
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: 'cat a.txt' } }] },
      { text: 'done' },
    ]);
    const r = await keel.run(s, ws, 'read', { dryRun: true, mode: () => 'restricted' });
    expect(r.reasons).toEqual(['done']);
    expect(toolMessages(s.requests[1]!.body)[0]).toContain('read me');
  });
});

describe("the chat's /undo", () => {
  it('names the keel undo that takes it back (not /undo again, which takes back the turn before), and that works', async () => {
    const ws = await workspace({ 'a.txt': 'zero\n' });
    const s = await server([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'one\n' } }] },
      { text: 'wrote one' },
    ]);
    const sent = new Date().toISOString();
    await keel.run(s, ws, 'write one');
    const out = captureOutput();
    expect(await restoreFilesAt(sent, { cwd: ws, output: 'text', startGit: shellGit }, out)).toBe(true);
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('zero\n');
    const id = out.out.match(
      /to reverse this undo, run keel undo (\S+) in a shell \(\/undo again takes back/,
    )?.[1];
    expect(id, out.out).toBeDefined();
    const back = await keel.undo(ws, id!);
    expect(back.code, back.stderr).toBe(0);
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
  });
});
