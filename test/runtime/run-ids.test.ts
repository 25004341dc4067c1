// Run ids name a run's session, checkpoints and saved outputs: runs of one process (the library, keel acp,
// sub-agents, tests) never share one, even within the same second.
import { describe, expect, it } from 'vitest';
import { newRunId } from '../../src/runtime/session.js';

describe('newRunId', () => {
  it('gives each run of this process its own id, in the <stamp>-<pid> form', () => {
    const ids = Array.from({ length: 5 }, () => newRunId());
    expect(new Set(ids).size).toBe(5);
    for (const id of ids) expect(id).toMatch(new RegExp(`^\\d{8}-\\d{6}-${process.pid}(-\\d+)?$`));
  });
});
