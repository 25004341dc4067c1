// The read-only set judged by what commands write and run, in every mode: operands counted after `--` and glob
// expansion (item 5), and the printing forms of sed, awk, git, shells and small tools allowed (item 6).
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openWorkspace, type Workspace } from '../../../src/safety/workspace.js';
import { commandDecider, expectReadOnlyIn } from './decide.js';

let base: string;
/** Two files at the top: `uniq *` names both. */
let ws: Workspace;
/** A file named `-o` at the top: `sort *` hands sort an option. */
let dashWs: Workspace;

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-read-only-')));
  const root = path.join(base, 'work');
  await fs.mkdir(path.join(root, 'sub', 'pkg'), { recursive: true });
  await fs.writeFile(path.join(root, 'sub', 'pkg', 'core.py'), 'def f(): pass\n');
  // A folder outside the workspace, linked from inside it: globs through the link lead out.
  await fs.mkdir(path.join(base, 'outside'));
  await fs.writeFile(path.join(base, 'outside', 'core.py'), 'secret\n');
  await fs.symlink(path.join(base, 'outside'), path.join(root, 'sub', 'link'));
  await fs.writeFile(path.join(root, 'a.txt'), '1 a\n5 b\n');
  await fs.writeFile(path.join(root, 'keep.txt'), 'keep\n');
  // A repository inside the workspace (a clone, or one a command unpacked): its own settings, unwatched.
  await fs.mkdir(path.join(root, 'sub', 'vendored', '.git'), { recursive: true });
  ws = await openWorkspace(root);
  const dash = path.join(base, 'dash');
  await fs.mkdir(dash);
  await fs.writeFile(path.join(dash, '-o'), '');
  await fs.writeFile(path.join(dash, 'a.txt'), 'a\n');
  dashWs = await openWorkspace(dash);
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const decide = commandDecider(() => ws);
const expectReadOnly = (command: string) => expectReadOnlyIn(decide, command);

/** Not read-only: refused in restricted, asked in interactive, run in full after a checkpoint (readOnly unset). */
async function expectNotReadOnly(command: string, reason?: string, workspace = ws): Promise<void> {
  const restricted = await decide('restricted', command, workspace);
  expect(restricted.decision).toBe('deny');
  if (reason) expect(restricted.reason).toContain(reason);
  expect((await decide('interactive', command, workspace)).decision).toBe('ask');
  const full = await decide('full', command, workspace);
  expect(full.decision, full.reason).toBe('allow');
  expect(full.readOnly).toBeUndefined();
}

describe('commands judged by what they write (item 5)', () => {
  test.each([
    ['uniq -- -f keep.txt', 'with 2 operands writes the last one (`keep.txt`)'],
    ['uniq *', 'with 3 operands writes the last one (`sub`)'],
    ['uniq *.txt', 'with 2 operands writes the last one (`keep.txt`)'],
    ['uniq a.txt keep.txt', 'writes the last one'],
    ['uniq -c a.txt -- keep.txt', 'writes the last one'],
    ['uniq -f 1 a.txt keep.txt', 'writes the last one'],
    ['sort -o keep.txt a.txt', '`sort -o`'],
    ['sort a.txt -okeep.txt', '`sort -okeep.txt`'],
    ['sort --output=keep.txt a.txt', '`sort --output=keep.txt`'],
    ['sort --o=keep.txt a.txt', '`sort --o=keep.txt`'],
    ['tee keep.txt', 'not a read-only command'],
    ['split a.txt', 'not a read-only command'],
    ['csplit a.txt 1', 'not a read-only command'],
    ['dd if=a.txt of=keep.txt', 'not a read-only command'],
    ['tree -o keep.txt', '`tree -o`'],
    ['tree --output keep.txt', '`tree --output`'],
    ['base64 -o keep.txt a.txt', '`base64 -o`'],
    ['base64 --output=keep.txt a.txt', '`base64 --output=keep.txt`'],
    ['sed -n "w keep.txt" a.txt', 'writes a file'],
    ['awk \'{ print > "keep.txt" }\' a.txt', 'may redirect output to a file'],
    ['git log --output=keep.txt', '`git log --output=keep.txt`'],
  ])('%s is not read-only', async (command, reason) => {
    await expectNotReadOnly(command, reason);
  });

  test.each([
    'uniq a.txt',
    'uniq -- a.txt',
    'uniq -f 1 a.txt',
    'uniq -cf 1 a.txt',
    'uniq --skip-fields 1 a.txt',
    'sort a.txt',
    'sort -- -o',
    'cat -- a.txt',
  ])('%s writes nothing and is read-only', async (command) => {
    await expectReadOnly(command);
  });

  test('a glob matching a name that starts with - is an option nobody wrote', async () => {
    await expectNotReadOnly('sort *', '`*` matches `-o`, which sort would read as an option', dashWs);
  });

  test('a word after -- is checked as a path whatever it looks like', async () => {
    const decision = await decide('restricted', 'cat -- -k/../../x');
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toContain('is outside the workspace');
  });
});

describe('fewer false refusals (item 6)', () => {
  test.each([
    'sed -n 1,5p a.txt',
    "sed -n '/x/p' a.txt",
    "sed 's/a/b/g' a.txt",
    "sed -E 's/(a)+/[&]/2' a.txt",
    "sed -e 1d -e '$d' a.txt",
    "sed -ne '2,/b/{p;=}' a.txt",
    "sed '1!G;h;$!d' a.txt",
    "sed 'y/ab/ba/' a.txt",
    "sed -n 'l;2q' a.txt",
    "sed '0~2d' a.txt",
    "sed ':a;N;$!ba;s/\\n/ /g' a.txt",
    "sed '1i\\\nheader' a.txt",
    // The text of `a` runs to the end of the line: the `w` is text, as sed reads it.
    "sed '$a footer; w keep.txt' a.txt",
    'sed --posix -s -n p a.txt',
    "sed -r 's/x/y/' -- a.txt",
    "awk '{print $1}' a.txt",
    "awk -F: '{print $1}' a.txt",
    "awk '$1 > 3' a.txt",
    "awk '$1 > 3 { print $2 }' a.txt",
    "awk '{ if ($1 > 3) print $2 }' a.txt",
    'awk \'{ print "a > b | system(x)" }\' a.txt',
    "awk '/sys|getline/ { n++ } END { print n }' a.txt",
    "awk 'BEGIN { x = 10 / 2; y = x / 5; print x, y }'",
    "awk -v n=2 'NR == n || NR > 5 && NR < 9' a.txt",
    "awk 'NR % 2 == 0 { print length($0) }' a.txt",
    'tac a.txt',
    'nl -ba a.txt',
    'base64 a.txt',
    'base64 -d a.txt',
    'numfmt --to=iec 1048576',
    'whereis ls',
    'which ls',
    'sleep 1',
    'git blame a.txt',
    'git remote get-url origin',
    'git remote -v',
    'git remote',
    'git ls-files',
    'git ls-tree -r HEAD',
    'git cat-file -p HEAD',
    'git describe --tags',
    'git shortlog -sn',
    'git -C . branch --show-current',
    'git -C sub log --oneline',
    'git --no-pager log -n 3',
    'git -c core.pager=cat log',
    'git -c color.ui=always diff',
    'git --no-pager -c color.ui=never -C sub status',
    "bash -lc 'git status'",
    "bash -c 'ls && pwd'",
    "sh -c 'cat a.txt | wc -l'",
    'zsh -lc ls',
    'bash -lc "sed -n \'1,5p\' a.txt"',
    'true',
    'seq 3',
  ])('%s is read-only', async (command) => {
    await expectReadOnly(command);
  });

  test.each([
    ['sed -i s/a/b/ a.txt', '`sed -i`'],
    ['sed --in-place s/a/b/ a.txt', '`sed --in-place`'],
    ['sed --in s/a/b/ a.txt', '`sed --in`'],
    ['sed -f script.sed a.txt', '`sed -f`'],
    ["sed 's/a/b/w out' a.txt", 'the `w` flag'],
    ["sed 's/a/b/gpw out' a.txt", 'the `w` flag'],
    ["sed 'e ls' a.txt", 'runs a command'],
    ["sed 'r other.txt' a.txt", 'reads a file'],
    ["sed 'R other.txt' a.txt", 'reads a file'],
    ["sed 'W out' a.txt", 'writes a file'],
    ["sed ':a;w out' a.txt", 'writes a file'],
    ["sed '1{w out\n}' a.txt", 'writes a file'],
    ["sed -e p -e 'w out' a.txt", 'writes a file'],
    ["sed '/x/w out' a.txt", 'writes a file'],
    ["sed '\\,x,w out' a.txt", 'writes a file'],
    ['awk \'{ print >> "out" }\' a.txt', 'may redirect'],
    ['awk \'{ printf "%s", $0 > "out" }\' a.txt', 'may redirect'],
    ["awk '{ x = $1 > 3 }' a.txt", 'may redirect'],
    ['awk \'BEGIN { print ENVIRON["HOME"] }\'', 'uses `ENVIRON`'],
    ['awk \'BEGIN { ARGV[1] = "x"; ARGC = 2 } { print }\' a.txt', 'uses `ARGV`'],
    ['awk -f prog.awk a.txt', '`awk -f`'],
    ['git -c user.name=x log', 'is not a setting known to only change how git prints'],
    ['git --git-dir=x log', '`git --git-dir=x` before the subcommand'],
    ['git --exec-path=x log', 'before the subcommand'],
    ['git remote add o https://x', 'may change the remotes'],
    ['git remote set-url o x', 'may change the remotes'],
    ['git cat-file --filters HEAD:a.txt', '`git cat-file --filters`'],
    ['bash script.sh', 'runs a script file or standard input'],
    ["bash -c 'ls' extra", 'passes arguments to its script'],
    ["bash -c 'ls > out'", 'redirects to `out`'],
    ["bash -c 'ls && rm a.txt'", '`rm a.txt` is not a read-only command'],
    ["zsh -c 'ls =ls'", 'zsh reads differently'],
    ['git log --show-signature -1', '`git log --show-signature`'],
    ["git log --format='%G? %s'", 'verifies signatures'],
    ['git log --help', '`git log --help`'],
    ['sed s/a/*/ a.txt', 'is a glob'],
  ])('%s is not read-only', async (command, reason) => {
    await expectNotReadOnly(command, reason);
  });

  test.each(['git -C sub/vendored status', 'cd sub/vendored && git status', 'git -C sub -C vendored log -p'])(
    '%s: git in a repository nested in the workspace is not read-only',
    async (command) => {
      const decision = await decide('restricted', command);
      expect(decision.decision).toBe('deny');
      expect(decision.reason).toContain('runs git in `sub/vendored`, a repository inside the workspace');
    },
  );

  test('git -C outside the workspace is refused as a path', async () => {
    const decision = await decide('restricted', 'git -C .. log');
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toContain('is outside the workspace');
  });

  test.each([
    ["sed 's/a/b/e' a.txt", 'runs text as a shell command'],
    ['bash -c \'bash -c "bash -c ls"\'', 'nested too deeply'],
  ])('%s is refused in every mode', async (command, reason) => {
    for (const mode of ['restricted', 'interactive', 'full'] as const) {
      const decision = await decide(mode, command);
      expect(decision.decision).toBe('deny');
      expect(decision.reason).toContain(reason);
    }
  });

  test('a line continuation after $ that hides a substitution is unverifiable in every mode', async () => {
    const command = 'echo "$\\\n(touch pwned)"';
    expect(command).toContain('$\\\n(');
    expect((await decide('restricted', command)).decision).toBe('deny');
    expect((await decide('interactive', command)).decision).toBe('ask');
    const full = await decide('full', command);
    expect(full.decision).toBe('deny');
    expect(full.reason).toContain('continues a line right after `$`');
  });

  test('a git -c setting that runs a program is refused in every mode', async () => {
    for (const mode of ['restricted', 'interactive', 'full'] as const) {
      const decision = await decide(mode, 'git -c core.pager=evil log');
      expect(decision.decision).toBe('deny');
      expect(decision.reason).toContain('`git -c core.pager` makes git run a program');
    }
  });

  test('awk running commands is inline code: refused in restricted, asked otherwise', async () => {
    for (const command of [
      'awk \'BEGIN { system("id") }\'',
      'awk \'{ print | "sort" }\' a.txt',
      'awk \'BEGIN { "date" | getline d; print d }\'',
      'awk \'BEGIN { f = "sys" "tem"; @f("id") }\'',
    ]) {
      expect((await decide('restricted', command)).decision).toBe('deny');
      expect((await decide('interactive', command)).decision).toBe('ask');
      expect((await decide('full', command)).decision).toBe('ask');
    }
  });

  test.each(['ls &&', 'echo "unterminated', 'cat a.txt |', 'if then'])(
    '%s says only that it does not parse, in every mode',
    async (command) => {
      for (const mode of ['restricted', 'interactive', 'full'] as const) {
        const decision = await decide(mode, command);
        expect(decision.decision).toBe('deny');
        expect(decision.reason).toBe(`\`${command}\` does not parse as a bash command`);
        expect(decision.hint).toBe('fix the syntax');
      }
    },
  );
});

describe('globs with a wildcard before the last part', () => {
  test.each([
    'ls -d */',
    'ls sub/p*/',
    'wc -l sub/p*/core.py',
    'grep -n def sub/p*/core.py',
    'cat sub/*/nothing.txt',
    'ls -d .[!.]*',
  ])('%s reads inside the workspace and is read-only', async (command) => {
    await expectReadOnly(command);
  });

  test.each([
    ['ls sub/*/', '`sub/*/` matches `sub/link/'],
    ['wc -l sub/*/core.py', '`sub/*/core.py` matches `sub/link/core.py'],
    ['cat ../*/core.py', 'outside the workspace'],
    ['cat /*/passwd', 'outside the workspace'],
    // bash before 5.2 matches `..` with `.*`.
    ['cat .*/outside/core.py', '`.*/outside/core.py` matches `../outside/core.py'],
    ['ls .*', '`.*` matches `..'],
  ])('%s can reach outside and is refused', async (command, reason) => {
    const decision = await decide('restricted', command);
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toContain(reason);
  });
});

describe("grep's and rg's options that name files", () => {
  test.each([
    'rg --ignore-file ../x.txt pattern',
    'rg --ignore-file=../x.txt pattern',
    'rg -f ../x.txt sub',
    'rg -f../x.txt sub',
    'rg --file ../x.txt sub',
    'rg -g "*.py" --ignore-file ../x.txt pattern',
    'grep -f ../x.txt a.txt',
    'grep -f../x.txt a.txt',
    'grep --file ../x.txt a.txt',
    'grep --file=../x.txt a.txt',
    'grep --exclude-from ../x.txt -r pattern sub',
    'grep -rf ../x.txt sub',
  ])('%s reads a file outside the workspace and is refused', async (command) => {
    const decision = await decide('restricted', command);
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toContain('../x.txt');
  });

  test.each([
    'rg --ignore-file .gitignore pattern',
    'rg -g "*.py" def sub',
    'rg -t py -A 2 def sub',
    'grep -f a.txt keep.txt',
    'grep -rn --exclude-from a.txt def sub',
  ])('%s is read-only', async (command) => {
    await expectReadOnly(command);
  });
});

describe('the short read-only list the system prompt shows', () => {
  test('names only commands the policy runs as read-only, in every mode', async () => {
    const { readOnlyExamples } = await import('../../../src/agent/system-prompt.js');
    const shown = readOnlyExamples().split(', ');
    expect(shown).toContain('git status/diff/log/show/blame');
    const commands = shown.flatMap((entry) => {
      if (entry.startsWith('git '))
        return entry
          .slice(4)
          .split('/')
          .map((sub) => `git ${sub}`);
      if (entry.startsWith('printing ')) return ['sed -n 1p a.txt', "awk '{print $1}' a.txt"];
      return [`${entry} a.txt`];
    });
    for (const command of commands) await expectReadOnly(command);
  });
});

describe('file tests: test, [ ] and [[ ]]', () => {
  test.each([
    'test -f a.txt',
    '[ -f a.txt ]',
    '[[ -f a.txt && -d sub ]]',
    '[ -f a.txt ] && cat a.txt',
    'test -d sub || echo none',
    '[[ a.txt =~ ^a ]]',
  ])('%s is read-only', async (command) => {
    await expectReadOnly(command);
  });

  test.each(['[ -f ../x ]', '[[ x =~ a`id`b ]]', '[ -f "$F" ]'])('%s is not read-only', async (command) => {
    expect((await decide('restricted', command)).decision).toBe('deny');
  });
});

describe('removing a link that leads out of the workspace', () => {
  test.each(['rm sub/link', 'rm -f sub/link', 'unlink sub/link', 'rm -r sub/link'])(
    '%s removes the link itself: judged by the mode, as rm of a file inside',
    async (command) => {
      await expectNotReadOnly(command);
    },
  );

  test.each(['rm -r sub/link/', 'rm sub/link/core.py', 'rm -rf sub/link/*', 'shred sub/link/core.py'])(
    '%s follows the link out: refused in every mode',
    async (command) => {
      const full = await decide('full', command);
      expect(full.decision, full.reason).toBe('deny');
      expect(full.reason).toContain('outside the workspace');
    },
  );
});
