// A resumed session's past turns as the user sees them first: their messages as typed, without Keel's notes.
import { expect, test } from 'vitest';
import { renderHistory } from '../../src/ui/session-history.js';
import { createStyle } from '../../src/ui/style.js';

test("a resumed user message shows as typed: Keel's appended note and attached files left out", () => {
  const shown = renderHistory(
    [
      { role: 'user', content: 'write new.txt\n\n[Keel: implement. Follow local conventions; verify.]' },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'look at @a.ts\n\n<file path="a.ts">\nexport {};\n</file>' },
    ],
    createStyle(false),
  );
  expect(shown).toContain('› write new.txt\n');
  expect(shown).toContain('› look at @a.ts\n');
  expect(shown).not.toContain('[Keel:');
  expect(shown).not.toContain('<file');
});
