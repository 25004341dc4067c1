// `keel agents list` from the built binary: the built-in agents and the user's, as text and as JSON.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKeel } from '../support/cli.js';
import { useE2E } from '../support/e2e.js';

const { workspace } = useE2E();

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
    const r = await runKeel(['agents', 'list', '--cwd', ws], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^explore {2}read-only codebase search\n {2}built-in · tools: read-only\n/);
    expect(r.stdout).toContain('reader  reads files\n  user · tools: read_file, glob · mode: restricted\n');
    expect(r.stdout).toContain('review  read-only review of a diff\n');
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
