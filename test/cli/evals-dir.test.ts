import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { evalsDir, shippedEvalsDir } from '../../src/cli/eval-command.js';

const repositoryEvals = resolve(import.meta.dirname, '../../evals');
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'keel-evals-dir-'));
  await mkdir(join(root, 'own/evals/llm'), { recursive: true });
  await mkdir(join(root, 'unrelated/evals/notebooks'), { recursive: true });
  await mkdir(join(root, 'none'), { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the evals a command reads', () => {
  test('Keel ships its evals (here: the repository’s, from the sources)', () => {
    expect(shippedEvalsDir('tools')).toBe(repositoryEvals);
    expect(shippedEvalsDir('llm')).toBe(repositoryEvals);
  });

  test.each([
    ['--dir wins, relative to where keel started', { dir: 'x/evals', cwd: 'own' }, 'llm', resolve('x/evals')],
    ["the workspace's evals/ when it holds the kind's cases", { cwd: 'own' }, 'llm', 'own/evals'],
    ["Keel's own when the workspace's evals/ holds other cases", { cwd: 'own' }, 'tools', repositoryEvals],
    [
      "Keel's own when the workspace's evals/ is something else",
      { cwd: 'unrelated' },
      'llm',
      repositoryEvals,
    ],
    ["Keel's own when the workspace has no evals/", { cwd: 'none' }, 'tools', repositoryEvals],
  ] as const)('%s', async (_, options, kind, expected) => {
    const dir = await evalsDir({ output: 'text', ...options, cwd: join(root, options.cwd) }, kind);
    expect(dir).toBe(expected.startsWith('/') ? expected : join(root, expected));
  });
});
