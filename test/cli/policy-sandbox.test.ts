// `keel policy show` names the sandbox state: whether bubblewrap works here, which runs use it, what auto and
// full modes do without it (with how to install bubblewrap), and the default mode in force.
import { describe, expect, test } from 'vitest';
import { formatDefaults, formatModesTable, formatSandbox } from '../../src/cli/policy-command.js';
import { MODES } from '../../src/safety/modes.js';

describe('formatModesTable', () => {
  test('a pipe gets the aligned table; a narrow terminal each action wrapped at words, its verdicts below', () => {
    const table = formatModesTable();
    expect(table.split('\n')[0]).toMatch(/^action +plan +interactive +restricted +auto +full$/);
    expect(formatModesTable(400)).toBe(table);
    const narrow = formatModesTable(60);
    expect(Math.max(...narrow.split('\n').map((l) => l.length))).toBeLessThanOrEqual(60);
    expect(narrow).toContain('read or list files (read-only tools)\n  plan allow · interactive allow');
    expect(narrow.split('\n').filter((l) => l.startsWith(`  ${MODES[0]} `))).toHaveLength(
      table.split('\n').length - 2,
    );
  });
});

describe('formatSandbox', () => {
  test('says auto and full modes run in the sandbox when bubblewrap works', () => {
    const text = formatSandbox({ available: true, setting: null, fullModeSandboxed: true });
    expect(text).toContain('Sandbox: bubblewrap found and working; auto and full modes use it.');
    expect(text).toContain('Auto and full modes run commands in it');
  });

  test('says why the sandbox is missing, that full mode runs without it, and how to install bubblewrap', () => {
    const text = formatSandbox({
      available: false,
      problem: 'bubblewrap (bwrap) is not installed or not on PATH',
      setting: null,
      fullModeSandboxed: false,
    });
    expect(text).toContain(
      'not available: bubblewrap (bwrap) is not installed or not on PATH; auto and full modes would use it',
    );
    expect(text).toContain('Auto mode asks about every command beyond the read-only set');
    expect(text).toContain('full mode runs commands WITHOUT a sandbox: it asks about commands');
    expect(text).toContain('apt-get install bubblewrap');
    expect(text).not.toContain('run without --sandbox');
  });

  test('names safety.sandbox: false when the user turned it off', () => {
    const text = formatSandbox({ available: true, setting: false, fullModeSandboxed: false });
    expect(text).toContain('safety.sandbox: false turns it off');
    expect(text).toContain('WITHOUT a sandbox');
  });
});

describe('formatDefaults', () => {
  test('names the default of run and chat and why', () => {
    const why = 'bubblewrap works here, so commands run in its sandbox';
    expect(formatDefaults({ run: { mode: 'auto', why }, chat: { mode: 'auto', why } })).toBe(
      `Default mode of keel run and keel chat: auto (${why}).`,
    );
    const none = 'no sandbox here: bubblewrap (bwrap) is not installed or not on PATH';
    expect(
      formatDefaults({ run: { mode: 'restricted', why: none }, chat: { mode: 'interactive', why: none } }),
    ).toBe(`Default mode: restricted for keel run, interactive for keel chat (${none}).`);
  });
});
