// Shell forms judged by their contents (issue 17 item 6, the peers' safe commands): subshells, groups, background
// jobs, literal here-documents, harmless assignments, a last `cd`, /usr/bin/<program>, `$$` in echo; and the
// look-alikes that write, run or read outside, which stay refused.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyzeCommand } from '../../../src/safety/command/analysis.js';
import { assignmentProblem } from '../../../src/safety/command/shell-forms.js';
import { openWorkspace, type Workspace } from '../../../src/safety/workspace.js';
import { commandDecider, expectReadOnlyIn } from './decide.js';

let base: string;
let ws: Workspace;

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-shell-forms-')));
  const root = path.join(base, 'work');
  await fs.mkdir(path.join(root, 'sub'), { recursive: true });
  await fs.writeFile(path.join(root, 'a.txt'), 'a\n');
  // A copy of ls outside the system directories is not ls.
  await fs.copyFile('/usr/bin/ls', path.join(base, 'ls'));
  ws = await openWorkspace(root);
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const decide = commandDecider(
  () => ws,
  () => ({ HOME: path.join(base, 'home'), PATH: process.env.PATH }),
);
const expectReadOnly = (command: string) => expectReadOnlyIn(decide, command);

/** Not read-only: refused in restricted, never allowed without asking in interactive, never read-only in full. */
async function expectRefused(command: string): Promise<void> {
  const restricted = await decide('restricted', command);
  expect(restricted.decision, restricted.reason).toBe('deny');
  const interactive = await decide('interactive', command);
  expect(interactive.decision, interactive.reason).not.toBe('allow');
  expect((await decide('full', command)).readOnly).toBeUndefined();
}

describe('forms judged by the commands inside them', () => {
  test.each([
    'FOO=bar ls',
    'FOO=bar',
    'A=1 B=2 ls -la',
    'NO_COLOR=1 git status',
    'ls & cat a.txt',
    'ls &',
    '(git status)',
    '{ ls; pwd; }',
    '(ls) | { cat; }',
    'cat <<< "hello"',
    'cat <<EOF\nhello\nEOF',
    "cat <<'EOF'\n$HOME $(id)\nEOF",
    'cat <<EOF | grep h\nhello\nEOF',
    '/usr/bin/ls',
    '/bin/cat a.txt',
    'echo $$ $? $#',
    'echo "\\$\\\n(touch pwned)"',
    "echo '$\\\n(touch pwned)'",
    'echo "$$\\\n(touch pwned)"',
    'cd sub',
    '(cd sub); ls',
    'ls; (cd sub)',
    'git config --get user.name',
    'git config user.email',
  ])('%j is read-only', async (command) => {
    await expectReadOnly(command);
  });

  test.each([
    // Assignments that pick programs, libraries, config files or word splitting.
    'PATH=. ls',
    'LD_PRELOAD=x ls',
    'HOME=sub git log',
    'GIT_DIR=sub git status',
    'RIPGREP_CONFIG_PATH=x rg a',
    'PAGER=x git log',
    'IFS=x',
    'BASH_ENV=x',
    'lower=x ls',
    'FOO=/etc ls',
    'FOO=~ ls',
    'FOO=.. ls',
    'FOO=$HOME ls',
    'FOO=$(id) ls',
    // What runs next to a read-only command is judged too.
    'ls & rm a.txt',
    '(cd ..; cat .ssh/id_rsa)',
    '(rm a.txt)',
    '{ ls; } > out.txt',
    '(ls) > out.txt',
    '{ ls; rm a.txt; }',
    // Here-documents: a redirection or a command after the delimiter, expansions in the body, a shell reading it.
    'cat <<EOF > out.txt\nx\nEOF',
    'cat <<EOF > ~/.bashrc\nx\nEOF',
    'cat <<EOF | sh\nls\nEOF',
    'cat <<EOF && rm a.txt\nx\nEOF',
    'cat <<EOF\n$(id)\nEOF',
    'cat <<EOF\n$HOME\nEOF',
    "bash <<'EOF'\nls\nEOF",
    "sed -f - a.txt <<'EOF'\nw out.txt\nEOF",
    'cat <<< "$HOME"',
    'cat <<< hi > out.txt',
    // Only echo prints special parameters, and only those that are numbers.
    'echo $0',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    'echo "${x@P}"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    'echo "${two@Q}"',
    'ls $$',
    "echo '\\'$\\\n(touch pwned)",
    // A program by path is a system program only in the system's directories.
    '/usr/bin/rm a.txt',
    '/usr/bin/../bin/rm a.txt',
    // After a cd, paths are read from where it went: outside, or unknown when the cd may have failed.
    'cd .. && ls',
    'cd nope; ls',
    // Other git config keys may hold tokens; other forms write.
    'git config --list',
    'git config --get remote.origin.url',
    'git config --global --get user.name',
    'git config user.name x',
  ])('%j is not read-only', async (command) => {
    await expectRefused(command);
  });

  test('a copy of ls outside the system directories is not ls', async () => {
    await expectRefused(path.join(base, 'ls'));
  });

  test('a command after a here-document is refused in every mode when it would be anyway', async () => {
    for (const mode of ['restricted', 'interactive', 'full'] as const) {
      expect((await decide(mode, 'cat <<EOF && rm -rf /\nx\nEOF')).decision).toBe('deny');
    }
  });
});

describe('a cd followed through the command line', () => {
  test.each([
    'cd sub && ls',
    'cd sub; ls',
    'cd sub && cat ../a.txt',
    'cd sub && git status',
    'cd sub && cd .. && cat a.txt',
    'pushd sub && ls',
    "bash -c 'cd sub && ls'",
    '(cd sub && ls) && cat a.txt',
  ])('%j is read-only', async (command) => {
    await expectReadOnly(command);
  });

  test.each([
    ['cd .. && ls', 'outside the workspace'],
    ['cd / && ls', 'outside the workspace'],
    ['cd && ls', 'outside the workspace'],
    ['cd nope; ls', 'known only when the command runs'],
    ['popd && ls', 'known only when the command runs'],
    ['cd sub && cat ../../x', 'outside the workspace'],
    ["bash -c 'cd .. && ls'", 'outside the workspace'],
    // The command after `cd x ||` runs only if the cd failed: where the line was.
    ['cd sub || cat ../a.txt', 'outside the workspace'],
    ['ls && (cd sub || cat ../a.txt)', 'outside the workspace'],
    // A cd sent to the background moves nothing.
    ['cd sub & cat ../a.txt', 'outside the workspace'],
    // A cd that may not have run leaves the directory unknown after its chain.
    ['cd sub && ls || cat ../a.txt', 'known only when the command runs'],
    ['true || cd sub; cat ../a.txt', 'known only when the command runs'],
    ['false && cd sub; cat ../a.txt', 'known only when the command runs'],
  ])('%j is refused: %s', async (command, reason) => {
    await expectRefused(command);
    expect((await decide('restricted', command)).reason).toContain(reason);
  });

  test('a path after cd is judged from where the cd went', async () => {
    const decision = await decide('restricted', 'cd sub && cat ../a.txt');
    expect(decision.reason).not.toContain('outside');
  });
});

describe('what command analysis reads from a here-document line', () => {
  test('a redirection after the delimiter belongs to the command', async () => {
    const analysis = await analyzeCommand('cat <<EOF > ~/.bashrc\nx\nEOF');
    expect(analysis.commands.map((c) => c.redirects.map((r) => `${r.operator}${r.target}`))).toEqual([
      ['<<x\n', '>~/.bashrc'],
    ]);
  });

  test('a pipeline after the delimiter is a command reading the pipe', async () => {
    const analysis = await analyzeCommand('cat <<EOF | sh\nx\nEOF');
    expect(analysis.commands.map((c) => [c.argv.join(' '), c.stdinPipe])).toEqual([
      ['cat', false],
      ['sh', true],
    ]);
  });

  test('a command after && follows the command', async () => {
    const analysis = await analyzeCommand('cat <<EOF && rm x\nx\nEOF');
    expect(analysis.commands.map((c) => c.argv.join(' '))).toEqual(['cat', 'rm x']);
  });
});

describe('assignments before a read-only command', () => {
  test.each([
    ['FOO=bar', undefined],
    ['DEBUG=1', undefined],
    ['PATH=/usr/bin', 'PATH'],
    ['NODE_OPTIONS=x', 'NODE_OPTIONS'],
    ['XDG_CONFIG_HOME=x', 'XDG_CONFIG_HOME'],
    ['SHELLOPTS=xtrace', 'SHELLOPTS'],
    ['PS4=x', 'PS4'],
    ['LESSOPEN=x', 'LESSOPEN'],
    ['FOO=a/b', 'a/b'],
  ])('%s: %s', (assignment, problem) => {
    const found = assignmentProblem([assignment]);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});
