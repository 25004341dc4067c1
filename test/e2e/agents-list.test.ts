// `keel agents list`: the built-in agents and the user's, as text (in-process) and as JSON (the built binary).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentsListCommand } from '../../src/cli/agents-command.js';
import { captureOutput, useTempHome } from '../support/assemble-in-process.js';
import { runKeel } from '../support/cli.js';
import { useE2E } from '../support/e2e.js';

const { workspace } = useE2E();
useTempHome();

async function withUserAgent(): Promise<{ ws: string; env: Record<string, string> }> {
  const config = await workspace();
  await mkdir(join(config, 'keel', 'agents'), { recursive: true });
  await writeFile(
    join(config, 'keel', 'agents', 'reader.md'),
    '---\ndescription: reads files\ntools: [read_file, glob]\nmode: restricted\n---\nCite lines.\n',
  );
  return { ws: await workspace(), env: { XDG_CONFIG_HOME: config } };
}

describe('keel agents list', () => {
  it('lists the built-in agents and the user’s with their tools and mode', async () => {
    const { ws, env } = await withUserAgent();
    Object.assign(process.env, env);
    const out = captureOutput();
    expect(await agentsListCommand({ cwd: ws, output: 'text' }, out)).toBe(0);
    expect(out.err).toBe('');
    expect(out.out).toMatch(/^explore {2}read-only codebase search\n {2}built-in · tools: read-only\n/);
    expect(out.out).toContain('reader  reads files\n  user · tools: read_file, glob · mode: restricted\n');
    expect(out.out).toContain('review  read-only review of a diff\n');
  });

  it('prints them as one JSON array with --output json', async () => {
    const { ws, env } = await withUserAgent();
    const r = await runKeel(['agents', 'list', '--cwd', ws, '--output', 'json'], { env });
    expect(r.code).toBe(0);
    const agents = JSON.parse(r.stdout) as { name: string; source: string; tools?: string[] }[];
    expect(agents.map((a) => a.name)).toEqual(['explore', 'reader', 'review']);
    expect(agents[1]).toMatchObject({ source: 'user', tools: ['read_file', 'glob'], mode: 'restricted' });
  });
});
