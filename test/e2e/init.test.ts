// keel init: analyses a workspace, asks the scripted model once (no tools offered) and writes AGENTS.md (the built
// CLI once, for its output streams and exit code; the rest in-process through initCommand); an existing file goes
// into the prompt and is updated with its diff shown; --dry-run writes nothing. The shipped
// examples/init.cassette.json replays offline. Regenerate it with
//   KEEL_UPDATE_CASSETTE=1 npx vitest run test/e2e/init.test.ts
import { copyFile, cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type InitOptions, initCommand } from '../../src/cli/init-command.js';
import { undoCommand } from '../../src/cli/undo-command.js';
import { captureOutput, useTempHome } from '../support/assemble-in-process.js';
import { runKeel } from '../support/cli.js';
import { useE2E } from '../support/e2e.js';
import { shellGit } from '../support/small-shell.js';

const e2e = useE2E();
useTempHome();
const root = resolve(import.meta.dirname, '../..');
const shippedCassette = join(root, 'examples/init.cassette.json');

const project = {
  'package.json': JSON.stringify({
    name: 'shop',
    scripts: { test: 'vitest run', lint: 'biome check .' },
    devDependencies: { vitest: '^2.0.0' },
  }),
  'biome.json': '{ "formatter": { "lineWidth": 100 } }',
  'README.md': '# Shop\n\nA small shop.\n',
  'src/order-store.ts': 'export class OrderStore {}\n',
  'src/order-store.test.ts': "import { OrderStore } from './order-store.js';\n",
};

const agentsMd = `# AGENTS.md

## Overview
Shop: a small shop in TypeScript.

## Build and test
- \`npm test\` runs Vitest; \`npm run lint\` runs Biome.
`;

const userSection = '## Release process (ours)\nTag on Fridays only.\n';

/** The user message of a request: the analyses init sends. */
function userMessage(body: { messages: { role: string; content: string }[] }): string {
  return body.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

/** `keel init` in-process in `ws`: its exit code, stdout and stderr. */
async function init(options: Partial<InitOptions> & { cwd: string }) {
  const out = captureOutput();
  const code = await initCommand({ output: 'text', ...options }, out);
  return { code, stdout: out.out, stderr: out.err };
}

/** keel init's options against the scripted server `url` with the test model. */
const scripted = (url: string, ws: string) => ({ baseUrl: url, model: 'test-model', cwd: ws });

describe('keel init', () => {
  it('writes AGENTS.md from one model call that offers no tools and carries the three analyses', async () => {
    const s = await e2e.server([{ text: agentsMd }]);
    const ws = await e2e.workspace(project);
    const r = await runKeel(['init', '--base-url', s.ollamaUrl, '--model', 'test-model', '--cwd', ws]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('wrote AGENTS.md (7 lines)\n');
    expect(await readFile(join(ws, 'AGENTS.md'), 'utf8')).toBe(agentsMd);
    expect(s.requests).toHaveLength(1);
    const body = s.requests[0]!.body;
    expect(body.tools ?? []).toEqual([]);
    expect(body.messages[0].content).toContain('You write AGENTS.md');
    const prompt = userMessage(body);
    expect(prompt).toContain('Write AGENTS.md for this project');
    expect(prompt).toContain('test frameworks: Vitest (package.json)');
    expect(prompt).toContain('biome (biome.json): line width 100');
    expect(prompt).toContain('npm test: vitest run');
    expect(prompt).toContain('README.md (opening section):\n# Shop');
    expect(prompt).toContain('src/order-store.ts:');
  });

  it('refreshes an existing AGENTS.md: the file is in the prompt with the ask to keep user sections, the diff is shown', async () => {
    const updated = `${agentsMd}\n${userSection}`;
    const s = await e2e.server([{ text: `\`\`\`markdown\n${updated}\`\`\`` }]);
    const ws = await e2e.workspace({ ...project, 'AGENTS.md': `# Notes\n\n${userSection}` });
    const r = await init(scripted(s.ollamaUrl, ws));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const prompt = userMessage(s.requests[0]!.body);
    expect(prompt).toContain("Keep the user's own sections");
    expect(prompt).toContain(`## The existing AGENTS.md\n<<<\n# Notes\n\n${userSection.trimEnd()}\n>>>`);
    // The fence some models put around the file is removed.
    expect(await readFile(join(ws, 'AGENTS.md'), 'utf8')).toBe(updated);
    expect(r.stdout).toContain('--- a/AGENTS.md\n+++ b/AGENTS.md');
    expect(r.stdout).toContain('-# Notes');
    expect(r.stdout).toMatch(/updated AGENTS\.md \(\+7 -1\)\n$/);
  });

  it('takes a checkpoint first: keel undo brings the old AGENTS.md back', async () => {
    const s = await e2e.server([{ text: agentsMd }]);
    const before = `# Notes\n\n${userSection}`;
    const ws = await e2e.workspace({ ...project, 'AGENTS.md': before });
    delete process.env.KEEL_CHECKPOINTS;
    const r = await init(scripted(s.ollamaUrl, ws));
    expect(r.code).toBe(0);
    expect(await readFile(join(ws, 'AGENTS.md'), 'utf8')).toBe(agentsMd);
    const undone = captureOutput();
    expect(await undoCommand(undefined, { cwd: ws, output: 'text', startGit: shellGit }, undone)).toBe(0);
    expect(undone.out).toMatch(/restored +AGENTS\.md/);
    expect(await readFile(join(ws, 'AGENTS.md'), 'utf8')).toBe(before);
  });

  it('--dry-run prints the file (or the diff), writes nothing, and keeps no session or active marker', async () => {
    const s = await e2e.server([{ text: agentsMd }, { text: agentsMd }]);
    const ws = await e2e.workspace(project);
    const data = await e2e.workspace();
    process.env.XDG_DATA_HOME = data;
    const fresh = await init({ ...scripted(s.ollamaUrl, ws), dryRun: true });
    // The next chat must not think a session ended unexpectedly.
    expect(await readdir(data, { recursive: true })).toEqual([]);
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toBe(agentsMd);
    expect(fresh.stderr).toBe('dry run: AGENTS.md not written\n');
    await expect(readFile(join(ws, 'AGENTS.md'), 'utf8')).rejects.toThrow(/ENOENT/);

    await writeFile(join(ws, 'AGENTS.md'), '# Old\n');
    const refresh = await init({ ...scripted(s.ollamaUrl, ws), dryRun: true });
    expect(refresh.code).toBe(0);
    expect(refresh.stdout).toContain('-# Old\n+# AGENTS.md');
    expect(await readFile(join(ws, 'AGENTS.md'), 'utf8')).toBe('# Old\n');
  });

  it('says the file is up to date when the answer is what it already holds, and leaves it alone', async () => {
    const s = await e2e.server([{ text: agentsMd }]);
    const ws = await e2e.workspace({ ...project, 'AGENTS.md': agentsMd });
    const r = await init(scripted(s.ollamaUrl, ws));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('AGENTS.md is up to date\n');
  });

  it('an empty answer fails (exit 1) and leaves the workspace alone', async () => {
    const s = await e2e.server([{ text: '   ' }]);
    const ws = await e2e.workspace(project);
    const r = await init(scripted(s.ollamaUrl, ws));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("the model's answer was empty; AGENTS.md not written");
    await expect(readFile(join(ws, 'AGENTS.md'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('records keel init on the sample workspace, and the shipped cassette replays it offline', async () => {
    const sample = async () => {
      const dir = await mkdtemp(join(tmpdir(), 'keel-init-sample-'));
      e2e.removeLater(dir);
      await cp(join(root, 'examples/workspace'), dir, { recursive: true });
      return dir;
    };
    const s = await e2e.server([{ text: sampleAgentsMd, usage: { input: 900, output: 160 } }]);
    const recordedIn = await sample();
    const cassette = `${recordedIn}.cassette.json`;
    e2e.removeLater(cassette);
    const recorded = await init({ baseUrl: s.ollamaUrl, model: 'qwen3', record: cassette, cwd: recordedIn });
    expect(recorded.stderr).toBe('');
    expect(recorded.code).toBe(0);
    expect(await readFile(join(recordedIn, 'AGENTS.md'), 'utf8')).toBe(sampleAgentsMd);
    if (process.env.KEEL_UPDATE_CASSETTE) await copyFile(cassette, shippedCassette);

    const replayedIn = await sample();
    const replayed = await init({ provider: 'replay', cassette: shippedCassette, cwd: replayedIn });
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe(`wrote AGENTS.md (${sampleAgentsMd.split('\n').length - 1} lines)\n`);
    expect(await readFile(join(replayedIn, 'AGENTS.md'), 'utf8')).toBe(sampleAgentsMd);
  });
});

const sampleAgentsMd = `# AGENTS.md

## Overview
A tiny bookshelf sample: a JavaScript store and app (\`src/\`) and a Python formatting helper (\`lib/\`).

## Build and test
- No build step, package manager or test suite is set up.
- Run the app with \`node src/app.js\`.

## Code style and conventions
- No formatter or linter config; match the surrounding code.
- File names are single words (\`app.js\`, \`store.js\`, \`format.py\`).

## Project layout
- \`src/\`: the JavaScript app and its book store.
- \`lib/\`: Python helpers.

## Gotchas
- TODO comments mark known gaps (see \`grep -rn TODO src lib\`).
`;
