// `keel sessions show` on a session much larger than the memory it is given: the built binary, its V8 heap capped
// below what the file alone would take read at once, shows it as Markdown and as JSON (it reads the file record by
// record, so memory holds a line, not the session).
import { mkdir, mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { dataDir } from '../../src/config/paths.js';
import { sessionDir } from '../../src/session/session-list.js';
import { writeBigSession } from '../session/big-session.js';
import { runKeel } from '../support/cli.js';

/** Session bytes, and the heap the binary runs with: the file read whole took over four times its size. */
const SESSION_BYTES = 16 * 1024 * 1024;
const HEAP_MB = 32;

it(`shows a ${SESSION_BYTES >> 20} MB session, as Markdown and as JSON, in a ${HEAP_MB} MB heap`, async () => {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'keel-large-session-')));
  const ws = join(base, 'ws');
  const env = { XDG_DATA_HOME: join(base, 'data'), NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` };
  await mkdir(ws);
  const id = '20260101-000000-large';
  const dir = sessionDir(dataDir(env), ws);
  const turns = await writeBigSession(join(dir, `${id}.jsonl`), id, ws, SESSION_BYTES);

  const md = await runKeel(['sessions', 'show', id, '--cwd', ws], { env, timeoutMs: 60_000 });
  expect(md.stderr).not.toContain('heap out of memory');
  expect(md.code).toBe(0);
  expect(md.stdout).toContain(`## Assistant\n\nanswer ${turns}\n`);

  const json = await runKeel(['sessions', 'show', id, '--output', 'json', '--cwd', ws], {
    env,
    timeoutMs: 60_000,
  });
  expect(json.stderr).not.toContain('heap out of memory');
  expect(json.code).toBe(0);
  const tail = json.stdout.slice(-2_000);
  expect(tail).toContain('"type": "run_end"');
  expect(tail).toMatch(/\n {2}\]\n\}\n$/);
}, 120_000);
