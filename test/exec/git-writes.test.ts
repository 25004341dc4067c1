import { describe, expect, test } from 'vitest';
import { gitMayWrite } from '../../src/exec/git-writes.js';

describe('commands the sandbox lets write .git', () => {
  test.each([
    ['git commit -m "fix the parser"', true],
    ['git add -A && git commit -q -m x', true],
    ['cd sub && git checkout -b topic', true],
    ['git commit -F - <<EOF\nmessage\nEOF', true],
    [`git commit -m "$(cat <<'EOF'\nmessage\nEOF\n)"`, true],
    ['git fetch origin 2>&1', true],
    ['git gc > /dev/null', true],
    ['git status', true],
  ])('%s: git runs it', async (command, expected) => {
    expect(await gitMayWrite(command)).toBe(expected);
  });

  test.each([
    ['bash clean.sh', 'a script'],
    ['rm -rf .git', 'another program'],
    ['make release', 'a build tool'],
    ['npm version patch', 'a program that runs git itself'],
    ['git add . && ./deploy.sh', 'a script beside git'],
    ['echo x > .git/HEAD', 'a redirection into .git'],
    ['git log > .git/x', "a redirection beside git's"],
    ['git submodule foreach "rm -rf .git"', 'submodule foreach'],
    ['git rebase -x "rm -rf .git" main', 'rebase --exec'],
    ['git rebase --exec=./x.sh main', 'rebase --exec='],
    ['git bisect run ./test.sh', 'bisect run'],
    ['git filter-branch --tree-filter x', 'filter-branch'],
    ['$GIT commit', 'a program from a variable'],
    ['GIT_DIR=x git init', 'an assignment'],
    ['for f in *; do git add "$f"; done', 'a loop'],
    ['find . -name x | xargs git add', 'xargs'],
    ['echo', 'no git at all'],
    ['git commit -m "unterminated', 'a parse error'],
  ])('%s: not (%s)', async (command) => {
    expect(await gitMayWrite(command)).toBe(false);
  });
});
