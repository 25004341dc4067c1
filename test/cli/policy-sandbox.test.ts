// `keel policy show` names the sandbox state: whether bubblewrap works here, which runs use it, and what full
// mode does without it (with how to install bubblewrap).
import { describe, expect, test } from 'vitest';
import { formatSandbox } from '../../src/cli/policy-command.js';

describe('formatSandbox', () => {
  test('says full mode runs in the sandbox when bubblewrap works', () => {
    const text = formatSandbox({ available: true, setting: null, fullModeSandboxed: true });
    expect(text).toContain('Sandbox: bubblewrap found and working; full mode uses it.');
    expect(text).toContain('Full mode runs commands in it');
  });

  test('says why the sandbox is missing, that full mode runs without it, and how to install bubblewrap', () => {
    const text = formatSandbox({
      available: false,
      problem: 'bubblewrap (bwrap) is not installed or not on PATH',
      setting: null,
      fullModeSandboxed: false,
    });
    expect(text).toContain(
      'not available: bubblewrap (bwrap) is not installed or not on PATH; full mode would use it',
    );
    expect(text).toContain('Full mode runs commands WITHOUT a sandbox: it asks about commands');
    expect(text).toContain('apt-get install bubblewrap');
    expect(text).not.toContain('run without --sandbox');
  });

  test('names safety.sandbox: false when the user turned it off', () => {
    const text = formatSandbox({ available: true, setting: false, fullModeSandboxed: false });
    expect(text).toContain('safety.sandbox: false turns it off');
    expect(text).toContain('WITHOUT a sandbox');
  });
});
