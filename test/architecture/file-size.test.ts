// docs/architecture.md's rule, checked: no file under src/ is over 400 lines (past that, a file holds two ideas).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const MAX_LINES = 400;

const src = fileURLToPath(new URL('../../src', import.meta.url));

/** Every file under src/, as `src/<path>` with forward slashes. */
function sourceFiles(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(path.join(src, file)).isFile())
    .map((file) => `src/${file.split(path.sep).join('/')}`)
    .sort();
}

/** Lines as `wc -l` counts them, a last line without its newline included. */
function lineCount(file: string): number {
  const text = readFileSync(path.join(src, '..', file), 'utf8');
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

it('finds the source files it checks', () => {
  expect(sourceFiles()).toContain('src/agent/loop.ts');
});

it(`no file under src/ is over ${MAX_LINES} lines`, () => {
  const over = sourceFiles()
    .map((file) => ({ file, lines: lineCount(file) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  expect(
    over,
    `over ${MAX_LINES} lines: split each into modules along its seams, one idea per file (docs/architecture.md)`,
  ).toEqual([]);
});
