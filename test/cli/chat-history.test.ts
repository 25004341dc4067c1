// The chat's input history: entries saved one line each, recalled newest first, and secrets redacted before they
// reach the file (it outlives the chat, like a session).
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { historyPath, loadHistory, saveHistory } from '../../src/cli/chat-history.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('chat history', () => {
  it('keeps entries newest first, multi-line messages as their lines, secrets redacted, the file 0600', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keel-history-'));
    dirs.push(dir);
    const file = historyPath(join(dir, 'state'));
    const env = { MY_API_KEY: 'hunter2-very-secret-value' };
    await saveHistory(file, 'first', env);
    await saveHistory(
      file,
      'use the key hunter2-very-secret-value\nand sk-ant-api03-abcdefghijklmnopqrstuvwx',
      env,
    );
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('hunter2-very-secret-value');
    expect(text).not.toContain('sk-ant-api03-abcdefghijklmnopqrstuvwx');
    expect(text).toContain('[REDACTED]');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const recalled = await loadHistory(file);
    expect(recalled[2]).toBe('first');
    expect(recalled[1]).toBe('use the key [REDACTED]');
  });
});
