// Tests for shell command analysis: argv extraction and flags for every non-literal construct.
import { describe, expect, test } from 'vitest';
import { analyzeCommand, type IssueKind } from '../../../src/safety/command/analysis.js';

const kinds = async (command: string): Promise<IssueKind[]> =>
  (await analyzeCommand(command)).issues.map((i) => i.kind);

describe('analyzeCommand', () => {
  test('splits on every operator and removes quotes and escapes', async () => {
    const analysis = await analyzeCommand(
      "ls -la; grep -rn 'TO DO' src | head -5 && echo \"a b\" || cat x\\ y |& tail\npwd & which r''m",
    );
    expect(analysis.commands.map((c) => c.argv)).toEqual([
      ['ls', '-la'],
      ['grep', '-rn', 'TO DO', 'src'],
      ['head', '-5'],
      ['echo', 'a b'],
      ['cat', 'x y'],
      ['tail'],
      ['pwd'],
      ['which', 'rm'],
    ]);
    expect(analysis.issues.map((i) => i.kind)).toEqual(['background']);
  });

  test('keeps the newlines of a multi-line double-quoted string', async () => {
    const analysis = await analyzeCommand('python3 -c "import os\nwhile 1: os.fork()"');
    expect(analysis.commands[0]?.argv).toEqual(['python3', '-c', 'import os\nwhile 1: os.fork()']);
  });

  test('records scopes, pipes, here-documents and bare assignments', async () => {
    const analysis = await analyzeCommand("cd a; (cd b; ls) | sh; GIT_PAGER=x; bash <<'E'\nrm x\nE");
    expect(analysis.commands.map((c) => [c.argv[0] ?? '', c.scope, c.stdinPipe])).toEqual([
      ['cd', '', false],
      ['cd', '/1/2', false],
      ['ls', '/1/2', false],
      ['sh', '/3', true],
      ['', '', false],
      ['bash', '', false],
    ]);
    expect(analysis.commands[4]?.assignments).toEqual(['GIT_PAGER=x']);
    expect(analysis.commands[5]?.redirects).toEqual([{ operator: '<<', target: 'rm x\n', literal: true }]);
  });

  test("decodes $'...' strings", async () => {
    const analysis = await analyzeCommand("$'\\x72m' -rf x");
    expect(analysis.commands[0]?.argv).toEqual(['rm', '-rf', 'x']);
  });

  test('flags substitutions and expansions, and finds commands inside them', async () => {
    const analysis = await analyzeCommand(`cat $(echo x) \`id\` <(ls) "$HOME" \${X:-y} $((1+2)) {a,b}`);
    expect(analysis.issues.map((i) => i.kind)).toEqual([
      'command_substitution',
      'command_substitution',
      'process_substitution',
      'parameter_expansion',
      'parameter_expansion',
      'arithmetic_expansion',
      'brace_expansion',
    ]);
    expect(analysis.commands.map((c) => c.argv[0])).toEqual(
      expect.arrayContaining(['echo', 'id', 'ls', 'cat']),
    );
    const cat = analysis.commands.find((c) => c.argv[0] === 'cat');
    expect(cat?.literal).toBe(false);
    expect(cat?.nonLiteral).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('records redirections with their targets', async () => {
    const analysis = await analyzeCommand('echo hi > out.txt 2>/dev/null');
    expect(analysis.commands[0]?.redirects).toEqual([
      { operator: '>', target: 'out.txt', literal: true, fd: undefined },
      { operator: '>', fd: '2', target: '/dev/null', literal: true },
    ]);
  });

  test('marks unquoted globs but not quoted ones', async () => {
    const analysis = await analyzeCommand("ls *.ts '*.md' a\\*b");
    expect(analysis.commands[0]?.globs).toEqual([1]);
  });

  test('flags here-docs, subshells, groups, functions, control flow and assignments', async () => {
    expect(await kinds('cat <<EOF\nhi\nEOF')).toEqual(['heredoc']);
    expect(await kinds('(ls)')).toEqual(['subshell']);
    expect(await kinds('{ ls; }')).toEqual(['group']);
    expect(await kinds('if true; then ls; fi')).toEqual(['control_flow']);
    expect(await kinds('FOO=1 ls')).toEqual(['assignment']);
    const bomb = await analyzeCommand(':(){ :|:& };:');
    expect(bomb.functions).toEqual([{ name: ':', recursive: true }]);
    expect(bomb.issues.map((i) => i.kind)).toEqual(expect.arrayContaining(['function', 'background']));
  });

  test('keeps a `-` written just before a here-document, which the grammar drops', async () => {
    const argv = async (command: string) => (await analyzeCommand(command)).commands.map((c) => c.argv);
    expect(await argv("make -f - <<'EOF'\nall:\n\techo built\nEOF")).toEqual([['make', '-f', '-']]);
    expect(await argv('cat - <<EOF\nx\nEOF')).toEqual([['cat', '-']]);
    expect(await argv('cat -- - <<EOF\ny\nEOF\ndiff - b <<EOF\nx\nEOF')).toEqual([
      ['cat', '--', '-'],
      ['diff', '-', 'b'],
    ]);
    expect(await argv('cat $(echo a) - <<EOF\nx\nEOF')).toEqual([
      ['echo', 'a'],
      ['cat', '$(echo a)', '-'],
    ]);
    expect(await kinds("make -f - <<'EOF'\nall:\nEOF")).toEqual(['heredoc']);
  });

  test('reads `[ … ]` and `[[ … ]]` as the command `[` (`[[`) with the words of its expression', async () => {
    const test = async (command: string) => (await analyzeCommand(command)).commands[0];
    expect((await test('[ -f a.txt ]'))?.argv).toEqual(['[', '-f', 'a.txt', ']']);
    expect((await test('[[ -f a && ! -d b ]]'))?.argv).toEqual(['[[', '-f', 'a', '&&', '!', '-d', 'b', ']]']);
    expect(await test('[ -f *.ts ]')).toMatchObject({ globs: [2], literal: true });
    expect(await test('[[ x == *.ts ]]')).toMatchObject({ globs: [], literal: true });
    expect(await test('[ "$x" = y ]')).toMatchObject({ nonLiteral: [1], literal: false });
    const regex = await analyzeCommand('[[ x =~ a`id`b ]]');
    expect(regex.commands[0]).toMatchObject({ literal: false });
    expect(regex.hidden.map((h) => h.why)).toEqual(['a regular expression with expansions']);
  });

  test('flags parse errors and control characters', async () => {
    expect(await kinds("echo 'unterminated")).toContain('parse_error');
    expect(await kinds('ls\r rm x')).toContain('control_character');
  });

  test('reads the words after a redirection target as arguments, as bash does', async () => {
    const argvs = async (command: string) => {
      const analysis = await analyzeCommand(command);
      return analysis.commands.map((c) => [c.argv, c.redirects.map((r) => r.target)]);
    };
    expect(await argvs('cat < a.txt ~/.ssh/id_rsa')).toEqual([[['cat', '~/.ssh/id_rsa'], ['a.txt']]]);
    expect(await argvs('rm 2>x.log -rf ~ b')).toEqual([[['rm', '-rf', '~', 'b'], ['x.log']]]);
    expect(await argvs('cat a > out "$HOME/.ssh/id_rsa"')).toEqual([
      [['cat', 'a', '$HOME/.ssh/id_rsa'], ['out']],
    ]);
    expect(await argvs('ls | tee > out ~/.bashrc')).toEqual([
      [['ls'], ['out']],
      [['tee', '~/.bashrc'], ['out']],
    ]);
    expect(await argvs('cat <<EOF > out ~/.ssh/id_rsa\nx\nEOF')).toEqual([
      [
        ['cat', '~/.ssh/id_rsa'],
        ['x\n', 'out'],
      ],
    ]);
    // bash refuses a word after a group's redirection: a parse error, never a silent drop.
    expect(await kinds('{ cat; } > out ~/.ssh/id_rsa')).toContain('parse_error');
  });
});
