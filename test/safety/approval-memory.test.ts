// What an "always" answer covers: the whole parsed command, never its first word; a file tool on its paths.
import { describe, expect, test } from 'vitest';
import { ApprovalMemory, approvalBinding } from '../../src/safety/approval-memory.js';

const command = (text: string) => approvalBinding('execute_command', { command: text, writes: [] });

async function coveredAfterAlways(approved: string, asked: string): Promise<boolean> {
  const memory = new ApprovalMemory();
  memory.remember(await command(approved));
  return memory.covers(await command(asked));
}

describe('approval memory', () => {
  test.each([
    ['git status', 'git status'],
    ['git status', 'git  status '],
    ['git status', "git 'status'"],
    ['npm test && npm run build', 'npm test&&npm run build'],
    ['echo hi > out.txt', 'echo hi >out.txt'],
  ])('"always" for %j covers %j (the same parsed command)', async (approved, asked) => {
    expect(await coveredAfterAlways(approved, asked)).toBe(true);
  });

  test.each([
    ['git status', 'git push'],
    ['git status', 'git status; rm -rf x'],
    ['git status', 'git status && rm -rf x'],
    ['git status', 'git status --short'],
    ['npm test && npm run build', 'npm test || npm run build'],
    ['npm test; npm run build', 'npm test | npm run build'],
    ['echo hi > out.txt', 'echo hi > other.txt'],
    ['echo hi > out.txt', 'echo hi >> out.txt'],
    ['rm "a b"', 'rm a b'],
    ['echo $(date)', 'echo $(rm -rf x)'],
    ['python3 <<EOF\nprint(1)\nEOF', "python3 <<EOF\nimport os; os.system('rm -rf ~')\nEOF"],
    ['cat <<< "a"', 'cat <<< "b"'],
    ['echo "$A"', 'echo "$B"'],
  ])('"always" for %j does not cover %j', async (approved, asked) => {
    expect(await coveredAfterAlways(approved, asked)).toBe(false);
  });

  test('a file tool is bound to the tool and the paths it writes', async () => {
    const memory = new ApprovalMemory();
    const a = await approvalBinding('delete_path', { writes: ['/w/a.txt'] });
    memory.remember(a);
    expect(await memory.covers(await approvalBinding('delete_path', { writes: ['/w/a.txt'] }))).toBe(true);
    expect(await memory.covers(await approvalBinding('delete_path', { writes: ['/w/b.txt'] }))).toBe(false);
    expect(await memory.covers(await approvalBinding('write_file', { writes: ['/w/a.txt'] }))).toBe(false);
    expect(a.scope).toBe('delete_path on /w/a.txt');
  });

  test('a command binding is not a file tool binding, and says what it covers', async () => {
    const binding = await command('git status');
    expect(binding.scope).toBe('this exact command');
    const memory = new ApprovalMemory();
    memory.remember(binding);
    expect(
      await memory.covers(await approvalBinding('other_tool', { command: 'git status', writes: [] })),
    ).toBe(false);
  });
});
