// The offline demo: copies the sample workspace, replays the recorded plan run in it with the real tools,
// and shows what changed. No model server and no network are needed.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const workspace = mkdtempSync(join(tmpdir(), 'keel-demo-'));
cpSync(join(root, 'examples/workspace'), workspace, { recursive: true });

process.stderr.write(
  `keel demo: replaying examples/demo.cassette.json in a copy of examples/workspace at ${workspace}\n\n`,
);
const run = spawnSync(
  process.execPath,
  [
    join(root, 'dist/keel.js'),
    'run',
    '--provider',
    'replay',
    '--cassette',
    join(root, 'examples/demo.cassette.json'),
    '--plan',
    join(root, 'examples/plan.yaml'),
    '--cwd',
    workspace,
  ],
  { stdio: 'inherit' },
);
if (run.status !== 0) {
  process.stderr.write(`\nkeel demo: keel exited with ${run.status}\n`);
  process.exit(run.status ?? 1);
}
process.stdout.write(
  `\n--- ${join(workspace, 'TODO.md')} ---\n${readFileSync(join(workspace, 'TODO.md'), 'utf8')}`,
);
