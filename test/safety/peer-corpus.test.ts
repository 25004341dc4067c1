// The peers' own safety test cases (Codex, Gemini CLI, Qwen Code, OpenCode; peer-corpus.json names each file) run
// through the decision `keel policy check` makes in restricted mode: how many of the commands they call safe Keel
// allows, and that none they call dangerous is allowed.
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createPolicy, type Policy } from '../../src/safety/policy.js';
import { openWorkspace } from '../../src/safety/workspace.js';

const PeerCase = z.object({
  command: z.string(),
  peer: z.string(),
  verdict: z.enum(['safe', 'ask', 'dangerous']),
  /** `<owner>/<repo> <path>` of the peer's test file. */
  source: z.string(),
  /** Why Keel decides otherwise on purpose, when it does. */
  keel: z.string().optional(),
});
type PeerCase = z.infer<typeof PeerCase>;

const cases: PeerCase[] = z
  .array(PeerCase)
  .parse(JSON.parse(readFileSync(new URL('./peer-corpus.json', import.meta.url), 'utf8')));

let base: string;
let policy: Policy;

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-peers-')));
  const root = path.join(base, 'work');
  await fs.mkdir(path.join(root, 'src'), { recursive: true });
  await fs.mkdir(path.join(base, 'home'));
  await fs.writeFile(path.join(root, 'file.txt'), 'foo\n');
  await fs.writeFile(path.join(root, 'in_workspace.txt'), 'in workspace\n');
  await fs.symlink(base, path.join(root, 'my_link'));
  policy = createPolicy({
    mode: 'restricted',
    workspace: await openWorkspace(root),
    stateDir: path.join(base, 'state'),
    env: { HOME: path.join(base, 'home'), PATH: process.env.PATH },
  });
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const decide = async (command: string): Promise<string> =>
  (
    await policy.decide({
      tool: 'execute_command',
      safety: 'dangerous',
      args: { command },
      preview: { reads: [], writes: [], summary: '' },
    })
  ).decision;

describe('the peers’ own safety cases, in restricted mode', () => {
  test('the corpus holds at least 150 commands from four peers', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(cases.map((c) => c.peer))).toEqual(
      new Set(['codex', 'gemini-cli', 'qwen-code', 'opencode']),
    );
  });

  test('at least 95% of the safe commands are allowed, all but those Keel refuses on purpose', async () => {
    const safe = cases.filter((c) => c.verdict === 'safe');
    const refused: PeerCase[] = [];
    for (const c of safe) if ((await decide(c.command)) !== 'allow') refused.push(c);
    const unexplained = refused.filter((c) => c.keel === undefined);
    const intended = safe.filter((c) => c.keel !== undefined);
    const percent = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
    const allowed = safe.length - refused.length;
    console.log(
      [
        `peer agreement on the commands peers call safe: ${allowed}/${safe.length} allowed (${percent(allowed, safe.length)})`,
        `without the ${intended.length} Keel refuses on purpose: ${allowed}/${safe.length - intended.length} (${percent(allowed, safe.length - intended.length)})`,
        ...refused.map(
          (c) => `  refused ${c.peer}: ${JSON.stringify(c.command)}${c.keel ? ` — ${c.keel}` : ''}`,
        ),
      ].join('\n'),
    );
    const asked = cases.filter((c) => c.verdict === 'ask');
    const allowedAsked: PeerCase[] = [];
    for (const c of asked) if ((await decide(c.command)) === 'allow') allowedAsked.push(c);
    console.log(
      [
        `commands peers ask about that Keel allows: ${allowedAsked.length}/${asked.length}`,
        ...allowedAsked.map((c) => `  allowed ${c.peer}: ${JSON.stringify(c.command)}`),
      ].join('\n'),
    );
    expect(unexplained.map((c) => c.command)).toEqual([]);
    expect((100 * allowed) / (safe.length - intended.length)).toBeGreaterThanOrEqual(95);
    // A note on a command Keel now allows is stale.
    expect(intended.filter((c) => !refused.includes(c)).map((c) => c.command)).toEqual([]);
  });

  test('no command a peer calls dangerous is allowed, but for the noted exceptions', async () => {
    const allowed: string[] = [];
    for (const c of cases.filter((c) => c.verdict === 'dangerous' && c.keel === undefined)) {
      if ((await decide(c.command)) === 'allow') allowed.push(`${c.peer}: ${c.command}`);
    }
    expect(allowed).toEqual([]);
  });

  test('the dangerous commands Keel allows on purpose are noted and still allowed', async () => {
    const noted = cases.filter((c) => c.verdict === 'dangerous' && c.keel !== undefined);
    expect(noted.map((c) => c.command)).toEqual(["bash -c 'echo hello'", "sh -c 'echo hello'"]);
    for (const c of noted) expect(await decide(c.command)).toBe('allow');
  });
});
