import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'vitest';
import { analyzeCommand } from '../../../src/safety/command/analysis.js';
import { createPolicy } from '../../../src/safety/policy.js';
import { openWorkspace } from '../../../src/safety/workspace.js';

test('probe', async () => {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'probe-')));
  await fs.writeFile(path.join(root, 'a.txt'), 'a');
  await fs.writeFile(path.join(root, 'keep.txt'), 'k');
  const ws = await openWorkspace(root);
  const cmds = (process.env.PROBE ?? '').split('\n').filter(Boolean);
  for (const mode of ['restricted'] as const) {
    const p = createPolicy({ mode, workspace: ws });
    for (const command of cmds) {
      const d = await p.decide({
        tool: 'execute_command',
        safety: 'dangerous',
        args: { command },
        preview: { reads: [], writes: [], summary: '' },
      });
      console.log(mode, JSON.stringify(command), d.decision, d.readOnly ?? '', '|', d.reason);
      if (process.env.AST) console.log(JSON.stringify(await analyzeCommand(command)));
    }
  }
});
