// End to end in a real terminal (tmux): the chat's screen has one writer, so each todo update and the compaction
// notice appear on it exactly once (they were once printed twice, in two formats).
import { describe, expect, it } from 'vitest';
import { useE2E } from '../support/e2e.js';
import { hasTmux, startTerminal } from '../support/tmux.js';

const { server, workspace, track } = useE2E();

type Status = 'pending' | 'in_progress' | 'done';
const write = (read: Status, fix: Status) => ({
  toolCalls: [
    {
      name: 'todo_write',
      args: {
        todos: [
          { id: '1', content: 'Read the code', status: read },
          { id: '2', content: 'Fix the bug', status: fix },
        ],
      },
    },
  ],
});

/** The screen's lines that contain `text`. */
const linesWith = (screen: string, text: string) => screen.split('\n').filter((line) => line.includes(text));

describe.skipIf(!hasTmux())('the chat screen', () => {
  it('shows each todo update and the compaction notice exactly once', async () => {
    const s = await server([
      write('in_progress', 'pending'),
      write('done', 'in_progress'),
      { text: 'Both planned.' },
      { text: '## Goal\nFix the bug.\n## Done\nRead the code.' },
    ]);
    const ws = await workspace();
    const term = await startTerminal(['chat', '--base-url', s.ollamaUrl, '--cwd', ws], { cwd: ws });
    track(term.close);
    await term.waitFor('› ');
    await term.type('plan the fix');
    await term.keys('Enter');
    await term.waitFor('Both planned.');
    await term.type('/compact');
    await term.keys('Enter');
    // The prompt back below the notice: the compaction is over.
    const screen = await term.waitFor(
      (shown) => shown.includes('compacted') && shown.trimEnd().endsWith('›'),
    );
    if (process.env.SHOW_SCREEN) console.log(screen);
    // Each update is one block: the whole list first, then the two items that changed; the tool's own line
    // (✓ todo_write …) also quotes the arguments, so it is left out of the count.
    const items = (text: string) => linesWith(screen, text).filter((line) => !line.includes('todo_write'));
    expect(linesWith(screen, 'todo list (0/2 done)')).toHaveLength(1);
    expect(items('Read the code')).toEqual(['  ◐ 1. Read the code', '  ☑ 1. Read the code']);
    expect(items('Fix the bug')).toEqual(['  ☐ 2. Fix the bug', '  ◐ 2. Fix the bug']);
    expect(linesWith(screen, 'compacted')).toHaveLength(1);
    expect(screen).toMatch(/compacted: the conversation is now a summary: \d+ → \d+ tokens/);
  });
});
