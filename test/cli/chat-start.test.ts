// The session a restarted chat goes on with: the same one after /model or a mode switch (its session_start hooks
// ran already, its usage counts on), a saved one after /resume, a new one after /clear.
import { describe, expect, it } from 'vitest';
import { nextSession } from '../../src/cli/chat-start.js';

describe('nextSession', () => {
  const saved = { id: 's1', saved: true };
  const unsaved = { id: 's1', saved: false };
  it.each([
    ['/model, the session saved', { model: 'qwen3:8b' }, saved, { resume: 's1', started: true }],
    ['/model before the first turn', { model: 'qwen3:8b' }, unsaved, { id: 's1', started: true }],
    ['a mode switch', { mode: 'auto' as const }, saved, { resume: 's1', started: true }],
    ['a mode switch before the first turn', { mode: 'plan' as const }, unsaved, { id: 's1', started: true }],
    ['/resume', { resume: 's0' }, saved, { resume: 's0' }],
    ['/clear', {}, saved, {}],
  ])('%s', (_, change, current, expected) => {
    expect(nextSession(change, current)).toEqual(expected);
  });
});
