// Custom command files → PromptCommands: names from paths, front matter, placeholders, a project command hiding a
// user one, malformed files left out with a warning.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { argumentWords, fillPlaceholders, loadPromptCommands } from '../../src/extend/prompt-commands.js';
import { openWorkspace } from '../../src/safety/workspace.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'keel-cmds-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

describe('loadPromptCommands', () => {
  it('reads project and user commands with their front matter; the project wins a shared name', async () => {
    const ws = await tree({
      '.keel/commands/fix.md':
        '---\ndescription: Fix it\nallowed-tools: read_file, edit_file\nargument-hint: <issue>\n---\nFix $1\n',
      '.keel/commands/bad.md': '---\ndescription: [unclosed\n---\nx\n',
      'src/a.ts': 'a\n',
    });
    const xdg = await tree({
      'keel/commands/fix.md': 'user fix\n',
      'keel/commands/db/migrate.md': 'Migrate the database.\n',
    });
    const workspace = await openWorkspace(ws);
    const { commands, warnings } = await loadPromptCommands({ workspace, env: { XDG_CONFIG_HOME: xdg } });
    expect(commands.map((c) => [c.name, c.source, c.description])).toEqual([
      ['db:migrate', 'user', 'Migrate the database.'],
      ['fix', 'project', 'Fix it'],
    ]);
    const fix = commands[1]!;
    expect(fix.allowedTools).toEqual(['read_file', 'edit_file']);
    expect(fix.argumentHint).toBe('<issue>');
    expect(await fix.expand('#12 now')).toBe('Fix #12\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('bad.md left out');
  });
});

describe('@path includes', () => {
  it('includes a text file once, and leaves a binary one (an image, an executable) as the mention alone', async () => {
    const ws = await tree({
      '.keel/commands/look.md': 'Look at @$1 and @notes.txt and @notes.txt\n',
      'notes.txt': 'NOTES\n',
      'shot.png': '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR',
      'tool.bin': '\x7fELF\x02\x01\x01\x00',
    });
    const workspace = await openWorkspace(ws);
    const { commands } = await loadPromptCommands({ workspace, env: { XDG_CONFIG_HOME: ws } });
    const look = commands.find((c) => c.name === 'look')!;
    expect(await look.expand('shot.png')).toBe(
      'Look at @shot.png and @notes.txt and @notes.txt\n\n<file path="notes.txt">\nNOTES\n\n</file>',
    );
    expect(await look.expand('tool.bin')).not.toContain('<file path="tool.bin">');
  });
});

describe('@path includes of paths with spaces', () => {
  it('includes @"a path", @a\\ path and @$1 filled with a path with spaces, as the chat attaches them', async () => {
    const ws = await tree({
      '.keel/commands/quoted.md': 'Read @"my notes.txt".\n',
      '.keel/commands/escaped.md': 'Read @my\\ notes.txt\n',
      '.keel/commands/arg.md': 'Review @$1 for $2\n',
      'my notes.txt': 'SPACED\n',
    });
    const workspace = await openWorkspace(ws);
    const { commands } = await loadPromptCommands({ workspace, env: { XDG_CONFIG_HOME: ws } });
    const expand = (name: string, args = '') => commands.find((c) => c.name === name)!.expand(args);
    const block = '<file path="my notes.txt">\nSPACED\n\n</file>';
    expect(await expand('quoted')).toBe(`Read @"my notes.txt".\n\n${block}`);
    expect(await expand('escaped')).toBe(`Read @my\\ notes.txt\n\n${block}`);
    expect(await expand('arg', '"my notes.txt" typos')).toBe(`Review @"my notes.txt" for typos\n\n${block}`);
  });
});

describe('placeholders', () => {
  it('splits arguments like a shell, quotes grouping words', () => {
    expect(argumentWords(`a "b c" 'd e' f\\ g`)).toEqual(['a', 'b c', 'd e', 'f\\', 'g']);
  });

  it('fills $ARGUMENTS and $1…$9, empty for missing words, and appends arguments to a body without any', () => {
    expect(fillPlaceholders('$1-$2-$3 [$ARGUMENTS]', 'x "y z"')).toBe('x-y z- [x "y z"]');
    expect(fillPlaceholders('Do it.\n', 'now')).toBe('Do it.\n\nnow');
    expect(fillPlaceholders('Do it.\n', '')).toBe('Do it.\n');
  });

  it('quotes a value with spaces after @, so it still names one file', () => {
    expect(fillPlaceholders('@$1 @$2', '"a b.ts" c.ts')).toBe('@"a b.ts" @c.ts');
    expect(fillPlaceholders('$1', '"a b.ts"')).toBe('a b.ts');
  });
});
