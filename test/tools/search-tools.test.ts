// glob and grep on real files, each run with the bundled ripgrep and with its JS fallback (an rg path that cannot
// be executed): the same results either way.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openWorkspace } from '../../src/safety/workspace.js';
import { createGlobTool, globDepth, MAX_GLOB_FILES, rgNameFilter } from '../../src/tools/glob.js';
import { createGrepTool, MAX_GREP_LINES, needsPcre2 } from '../../src/tools/grep.js';
import type { Tool, ToolResult } from '../../src/tools/tool.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await makeWorkspace();
  await ws.write('.gitignore', 'dist/\n*.log\n');
  await ws.write(
    'src/app.ts',
    'import { helper } from "./util";\n\nexport function main() {\n  return helper(1);\n}\n',
  );
  await ws.write(
    'src/util.ts',
    'export function helper(n: number) {\n  // TODO: handle zero\n  return n * 2;\n}\n',
  );
  await ws.write('src/deep/notes.md', 'Helper notes\nnothing else\n');
  await ws.write('dist/app.js', 'function helper() {}\n');
  await ws.write('debug.log', 'helper called\n');
  await ws.write('.git/HEAD', 'helper\n');
  await ws.write('.github/workflow.yml', 'name: helper\n');
});

afterEach(async () => {
  await ws.cleanup();
});

const run = (tool: Tool, args: unknown): Promise<ToolResult> => tool.execute(tool.schema.parse(args), ws.ctx);

/** A file that exists but cannot be executed: spawning it fails, so the tools fall back to JS. */
async function unrunnableRg(): Promise<string> {
  const fake = path.join(ws.base, 'fake-rg');
  await fs.writeFile(fake, 'not a program', { mode: 0o644 });
  return fake;
}

const backends: [string, () => Promise<string | undefined>][] = [
  ['rg', async () => undefined],
  ['js', unrunnableRg],
];

describe('needsPcre2: the patterns rg searches with PCRE2', () => {
  test.each([
    ['export (?=function)', true],
    ['(?!x)y', true],
    ['(?<=return )helper', true],
    ['(?<!export )function', true],
    ['\\b(\\w+) \\1\\b', true],
    ['(?<word>a)\\k<word>', true],
    ['(?<word>a)b', false],
    ['(?:a|b)+', false],
    ['C:\\\\1', false],
    ['fn \\w+\\(', false],
    ['[unclosed', false],
  ])('%j → %s', (pattern, expected) => {
    expect(needsPcre2(pattern)).toBe(expected);
  });
});

describe.each(backends)('grep (%s)', (backend, rgPath) => {
  let grep: Tool;
  beforeEach(async () => {
    grep = createGrepTool({ rgPath: await rgPath() }) as Tool;
  });

  test('content: path:line:text for each match, skipping gitignored files and .git', async () => {
    const result = await run(grep, { pattern: 'helper' });
    expect(result.metadata.backend).toBe(backend);
    expect(result.output.split('\n')).toEqual([
      '.github/workflow.yml:1:name: helper',
      'src/app.ts:1:import { helper } from "./util";',
      'src/app.ts:4:  return helper(1);',
      'src/util.ts:1:export function helper(n: number) {',
    ]);
    expect(result.display).toBe('grep "helper": 4 matching lines in 3 files');
  });

  test('case_insensitive, include and path narrow the search', async () => {
    const ci = await run(grep, { pattern: 'HELPER', case_insensitive: true, include: '*.md' });
    expect(ci.output).toBe('src/deep/notes.md:1:Helper notes');
    const inSrc = await run(grep, { pattern: 'export', path: 'src', include: 'src/u*.ts' });
    expect(inSrc.output).toBe('src/util.ts:1:export function helper(n: number) {');
  });

  test('context lines are marked with - and runs separated by --', async () => {
    const result = await run(grep, { pattern: 'helper', path: 'src/app.ts', context: 1 });
    expect(result.output.split('\n')).toEqual([
      'src/app.ts:1:import { helper } from "./util";',
      'src/app.ts-2-',
      'src/app.ts-3-export function main() {',
      'src/app.ts:4:  return helper(1);',
      'src/app.ts-5-}',
    ]);
    const apart = await run(grep, { pattern: '^(import|})', path: 'src/app.ts', context: 0 });
    expect(apart.output.split('\n')).toEqual([
      'src/app.ts:1:import { helper } from "./util";',
      'src/app.ts:5:}',
    ]);
    await ws.write('long.txt', 'match\na\nb\nc\nd\nmatch\n');
    const gapped = await run(grep, { pattern: 'match', path: 'long.txt', context: 1 });
    expect(gapped.output.split('\n')).toEqual([
      'long.txt:1:match',
      'long.txt-2-a',
      '--',
      'long.txt-5-d',
      'long.txt:6:match',
    ]);
  });

  test('files and count outputs', async () => {
    const files = await run(grep, { pattern: 'helper', output: 'files' });
    expect(files.output.split('\n')).toEqual(['.github/workflow.yml', 'src/app.ts', 'src/util.ts']);
    const count = await run(grep, { pattern: 'helper', output: 'count' });
    expect(count.output.split('\n')).toEqual([
      '.github/workflow.yml:1',
      'src/app.ts:2',
      'src/util.ts:1',
      'total: 4 matching lines in 3 files',
    ]);
  });

  test('look-around and backreferences, which models write, are searched (rg switches to PCRE2 for them)', async () => {
    const ahead = await run(grep, { pattern: 'export (?=function main)', output: 'files' });
    expect(ahead.success, ahead.output).toBe(true);
    expect(ahead.output).toBe('src/app.ts');
    const behind = await run(grep, { pattern: '(?<=return )helper', output: 'files' });
    expect(behind.output).toBe('src/app.ts');
    await ws.write('src/twice.txt', 'hello hello\nhello world\n');
    const repeated = await run(grep, { pattern: '\\b(\\w+) \\1\\b', path: 'src' });
    expect(repeated.output).toBe('src/twice.txt:1:hello hello');
    // A mistake in a plain pattern: one engine's short error, not two.
    const broken = await run(grep, { pattern: '[unclosed' });
    expect(broken.success).toBe(false);
    expect(broken.error).not.toContain('PCRE2');
  });

  test('no match is a plain answer, not an error', async () => {
    const result = await run(grep, { pattern: 'no-such-text' });
    expect(result.success).toBe(true);
    expect(result.output).toBe('no matches for "no-such-text"');
  });

  test('results are capped in lines with a note saying how many were left out', async () => {
    const many = Array.from({ length: MAX_GREP_LINES + 50 }, (_, i) => `hit ${i}`).join('\n');
    await ws.write('big/a.txt', `${many}\n`);
    await ws.write('big/b.txt', 'hit\nhit\n');
    const result = await run(grep, { pattern: '^hit', path: 'big' });
    const lines = result.output.split('\n');
    expect(lines).toHaveLength(MAX_GREP_LINES + 1);
    expect(result.metadata).toMatchObject({ matches: MAX_GREP_LINES + 52, capped: true });
    // Which file rg reports first varies (it searches in parallel); the numbers add up either way.
    const note = lines.at(-1)!;
    expect(note).toMatch(/^\[52 more matching lines left out(, in 2 files in all \(1 not shown\))?; narrow/);
  });

  test('results are capped in bytes too', async () => {
    const small = await makeWorkspace({ limits: { maxOutputSize: 2048 } });
    try {
      await small.write(
        'a.txt',
        `${Array.from({ length: 100 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n')}\n`,
      );
      const result = await grep.execute(grep.schema.parse({ pattern: 'line' }), small.ctx);
      expect(Buffer.byteLength(result.output)).toBeLessThan(2048);
      expect(result.output).toMatch(
        /\[\d+ more matching lines left out; narrow the pattern, path or include\]$/,
      );
    } finally {
      await small.cleanup();
    }
  });

  test('an invalid regex is an error the model can read', async () => {
    const result = await run(grep, { pattern: 'a(b' });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/regex|unclosed|unterminated/i);
  });

  test('a pattern that looks like a flag is searched for, not obeyed', async () => {
    await ws.write('flags.txt', 'use --files here\n');
    const result = await run(grep, { pattern: '--files', include: '--hidden' });
    expect(result.output).toBe('no matches for "--files"');
    const found = await run(grep, { pattern: '--files', include: 'flags.txt' });
    expect(found.output).toBe('flags.txt:1:use --files here');
  });

  test('does not follow a symlink out of the workspace, and refuses an outside path', async () => {
    const outside = path.join(ws.base, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'secret.txt'), 'helper secret\n');
    await fs.symlink(outside, path.join(ws.root, 'linkdir'));
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(ws.root, 'link.txt'));
    const result = await run(grep, { pattern: 'secret' });
    expect(result.output).toBe('no matches for "secret"');
    await expect(run(grep, { pattern: 'x', path: '../outside' })).rejects.toThrow(/outside the workspace/);
    await expect(run(grep, { pattern: 'x', path: 'linkdir' })).rejects.toThrow(/outside the workspace/);
  });

  test('leaves a hard link to a secret file out of every output, counts included; other hard links are searched', async () => {
    const home = path.join(ws.base, 'home');
    await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
    await fs.writeFile(path.join(home, '.ssh', 'id_rsa'), 'helper CANARY-KEY\nhelper again\n');
    await fs.mkdir(path.join(ws.root, 'keys'));
    await fs.link(path.join(home, '.ssh', 'id_rsa'), path.join(ws.root, 'keys', 'a-key.txt'));
    await fs.writeFile(path.join(ws.base, 'store.txt'), 'helper from the store\n');
    await fs.link(path.join(ws.base, 'store.txt'), path.join(ws.root, 'keys', 'pkg.txt'));
    const content = await run(grep, { pattern: 'helper', path: 'keys', context: 1 });
    expect(content.output).toBe('keys/pkg.txt:1:helper from the store');
    expect(content.display).toBe('grep "helper" in keys: 1 matching lines in 1 files');
    const files = await run(grep, { pattern: 'helper', output: 'files' });
    expect(files.output).not.toContain('a-key');
    expect(files.output).toContain('keys/pkg.txt');
    const counts = await run(grep, { pattern: 'CANARY', output: 'count' });
    expect(counts.output).toBe('no matches for "CANARY"');
    await expect(run(grep, { pattern: 'x', path: 'keys/a-key.txt' })).rejects.toThrow(
      /hard link to the secret file ~\/\.ssh\/id_rsa/,
    );
  });

  test('skips files that hold secrets (.env, keys) in every output mode and names them, searching the rest', async () => {
    await ws.write('.env', 'helper=CANARY-ENV\n');
    await ws.write('config/deploy.pem', 'helper CANARY-PEM\n');
    await ws.write('.env.example', 'helper=\n');
    const content = await run(grep, { pattern: 'helper' });
    expect(content.output).not.toContain('CANARY');
    expect(content.output).toContain('.env.example:1:helper=');
    expect(content.output).toContain('src/util.ts');
    expect(content.output).toMatch(/\[not searched: \.env, config\/deploy\.pem \(files that hold secrets/);
    for (const output of ['files', 'count'] as const) {
      const result = await run(grep, { pattern: 'CANARY', output });
      expect(result.output).not.toMatch(/^\.env|deploy\.pem:/m);
      expect(result.output).toContain('[not searched: .env, config/deploy.pem');
    }
  });

  test('searches a read-only root, naming its files by absolute path', async () => {
    const outside = path.join(ws.base, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'lib.ts'), 'export const helper = 1;\n');
    const ctx = { ...ws.ctx, workspace: await openWorkspace(ws.root, [outside]) };
    const result = await grep.execute(grep.schema.parse({ pattern: 'helper', path: outside }), ctx);
    expect(result.output).toBe(`${path.join(outside, 'lib.ts')}:1:export const helper = 1;`);
  });

  test('a long line shows a window around its first match, counting the characters left out on each side', async () => {
    // 2 MB: rg only says the line is too long, and the window is read from the file; 1,000 characters: cut in memory.
    await ws.write('min/bundle.js', `var a=${'x'.repeat(2_000_000)};function needleFn(){}\n`);
    await ws.write('min/mid.js', `${'y'.repeat(500)} needleFn ${'z'.repeat(500)}\n`);
    const result = await run(grep, { pattern: 'needleFn', path: 'min' });
    expect(result.output.split('\n')).toEqual([
      `min/bundle.js:1:[… 1999628 characters before] ${'x'.repeat(378)};function needleFn(){}`,
      `min/mid.js:1:[… 421 characters before] ${'y'.repeat(79)} needleFn ${'z'.repeat(311)} [… 189 characters after]`,
    ]);
    const context = await run(grep, { pattern: 'needleFn', path: 'min/mid.js', context: 1 });
    expect(context.output).toContain('needleFn');
    await ws.write('min/ctx.txt', `${'c'.repeat(3000)}\nneedle\n`);
    const around = await run(grep, { pattern: 'needle', path: 'min/ctx.txt', context: 1 });
    expect(around.output.split('\n')).toEqual([
      `min/ctx.txt-1-${'c'.repeat(400)} [… 2600 characters after]`,
      'min/ctx.txt:2:needle',
    ]);
  });

  test("reads the forms of rg's regex syntax models write: (?i), \\p{Lu}, (?P<name>…), POSIX classes", async () => {
    await ws.write('syntax.ts', 'export class HTTPException {}\nconst MAX_SIZE = 1;\n');
    const cases: [string, string][] = [
      ['(?i)httpexception', 'syntax.ts:1:export class HTTPException {}'],
      ['\\p{Lu}{3,}_\\p{Lu}+', 'syntax.ts:2:const MAX_SIZE = 1;'],
      ['(?P<kind>export) class', 'syntax.ts:1:export class HTTPException {}'],
      ['[[:digit:]];$', 'syntax.ts:2:const MAX_SIZE = 1;'],
    ];
    for (const [pattern, line] of cases)
      expect((await run(grep, { pattern, path: 'syntax.ts' })).output, pattern).toBe(line);
  });

  test('searches a file of any size', async () => {
    const line = `${'filler '.repeat(20)}\n`;
    await ws.write('big.log', `${line.repeat(130_000)}NEEDLE here\n${line.repeat(10)}NEEDLE again\n`);
    expect((await fs.stat(path.join(ws.root, 'big.log'))).size).toBeGreaterThan(16 * 1024 * 1024);
    const count = await run(grep, { pattern: 'NEEDLE', path: 'big.log', output: 'count' });
    expect(count.output.split('\n')).toEqual(['big.log:2', 'total: 2 matching lines in 1 files']);
    const shown = await run(grep, { pattern: 'again', path: 'big.log', context: 1 });
    expect(shown.output.split('\n')).toEqual([
      `big.log-130011-${line.slice(0, -1)}`,
      'big.log:130012:NEEDLE again',
    ]);
  });

  test('a missing path is an error naming it', async () => {
    await expect(run(grep, { pattern: 'x', path: 'srcc' })).rejects.toThrow(
      /no such file or directory: srcc; did you mean src/,
    );
  });
});

describe.each(backends)('glob (%s)', (backend, rgPath) => {
  let glob: Tool;
  beforeEach(async () => {
    glob = createGlobTool({ rgPath: await rgPath() }) as Tool;
  });

  test('lists matching files newest first, skipping gitignored files and .git', async () => {
    const at = (rel: string, seconds: number) => fs.utimes(path.join(ws.root, rel), seconds, seconds);
    await at('src/app.ts', 1_000);
    await at('src/util.ts', 3_000);
    await at('src/deep/notes.md', 2_000);
    const result = await run(glob, { pattern: '**/*' });
    expect(result.metadata.backend).toBe(backend);
    const lines = result.output.split('\n');
    expect(lines.slice(-3)).toEqual(['src/util.ts', 'src/deep/notes.md', 'src/app.ts']);
    expect(lines).not.toContain('dist/app.js');
    expect(lines).not.toContain('debug.log');
    expect(lines.some((l) => l.startsWith('.git/'))).toBe(false);
    expect(lines).toContain('.github/workflow.yml');
  });

  test('a pattern is read as a shell reads it, relative to path: *.ts in path itself, **/*.ts at any depth', async () => {
    await ws.write('top.ts', '');
    const top = await run(glob, { pattern: '*.ts' });
    expect(top.output).toBe('top.ts');
    const inSrc = await run(glob, { pattern: '*.ts', path: 'src' });
    expect(inSrc.output.split('\n').sort()).toEqual(['src/app.ts', 'src/util.ts']);
    const any = await run(glob, { pattern: '**/*.ts' });
    expect(any.output.split('\n').sort()).toEqual(['src/app.ts', 'src/util.ts', 'top.ts']);
    const deep = await run(glob, { pattern: 'deep/*.md', path: 'src' });
    expect(deep.output).toBe('src/deep/notes.md');
    const none = await run(glob, { pattern: '*.md' });
    expect(none.output).toBe('no files match *.md');
  });

  test('the list is capped with a note saying how many were left out', async () => {
    await Promise.all(Array.from({ length: MAX_GLOB_FILES + 7 }, (_, i) => ws.write(`many/f${i}.txt`, '')));
    const result = await run(glob, { pattern: 'many/*.txt' });
    const lines = result.output.split('\n');
    expect(lines).toHaveLength(MAX_GLOB_FILES + 1);
    expect(lines.at(-1)).toBe('[7 more files left out; narrow the pattern or path]');
  });

  test('refuses a path outside the workspace', async () => {
    await expect(run(glob, { pattern: '*', path: '..' })).rejects.toThrow(/outside the workspace/);
  });

  test('lists the files of a read-only root, and of a folder in it, by absolute path', async () => {
    const outside = path.join(ws.base, 'outside');
    await fs.mkdir(path.join(outside, 'lib'), { recursive: true });
    await fs.writeFile(path.join(outside, 'lib', 'a.ts'), '');
    await fs.writeFile(path.join(outside, 'b.ts'), '');
    const ctx = { ...ws.ctx, workspace: await openWorkspace(ws.root, [outside]) };
    const listed = async (args: unknown) =>
      (await glob.execute(glob.schema.parse(args), ctx)).output.split('\n').sort();
    expect(await listed({ pattern: '**/*.ts', path: outside })).toEqual([
      path.join(outside, 'b.ts'),
      path.join(outside, 'lib', 'a.ts'),
    ]);
    expect(await listed({ pattern: '*.ts', path: path.join(outside, 'lib') })).toEqual([
      path.join(outside, 'lib', 'a.ts'),
    ]);
  });
});

describe('glob: rg prefiltering with its own --glob', () => {
  test('finds the same files as the JS walk, for patterns rg can and cannot prefilter', async () => {
    await ws.write('src/a.js', '');
    await ws.write('src/deep/b.ts', '');
    await ws.write('src/deep/.hidden.ts', '');
    const rg = createGlobTool() as Tool;
    const js = createGlobTool({ rgPath: await unrunnableRg() }) as Tool;
    const cases: [string, string?][] = [
      ['**/*.ts'],
      ['*.ts'],
      ['src/**/*.ts'],
      ['deep/*.ts', 'src'],
      ['**/*.{ts,md}', 'src'],
      ['*.[jt]s'],
      ['**/*'],
      ['src/*'],
      ['+(app|util).ts'],
      ['!**/*.ts', 'src'],
    ];
    for (const [pattern, where] of cases) {
      const args = { pattern, ...(where ? { path: where } : {}) };
      const listed = async (tool: Tool) => (await run(tool, args)).output.split('\n').sort();
      expect(await listed(rg), pattern).toEqual(await listed(js));
    }
  });

  test("rg is told the pattern's last segment, or nothing when any name may match or the syntax differs", () => {
    expect(rgNameFilter('*.ts')).toBe('*.ts');
    expect(rgNameFilter('src/**/*.{ts,md}')).toBe('*.{ts,md}');
    expect(rgNameFilter('src/**')).toBeUndefined();
    expect(rgNameFilter('src/*')).toBeUndefined();
    expect(rgNameFilter('+(a|b).ts')).toBeUndefined();
    expect(rgNameFilter('!*.ts')).toBeUndefined();
    expect(rgNameFilter('a/{b,c/d}.ts')).toBeUndefined();
  });

  test('rg walks only as deep as a pattern without ** can match', () => {
    const cases: [string, number | undefined][] = [
      ['*.ts', 1],
      ['src/*.ts', 2],
      ['{a,b}/*/x.ts', 3],
      ['**/*.ts', undefined],
      ['src/**', undefined],
      ['a/{b,c/d}.ts', undefined],
      ['+(a|b)/*.ts', undefined],
    ];
    for (const [pattern, depth] of cases) expect(globDepth(pattern), pattern).toBe(depth);
  });
});

describe('glob: ordered by time, or by path past maxDated', () => {
  test('a capped list with ties across the cut is the same, in the same order, from rg and from the JS walk', async () => {
    const names = Array.from(
      { length: MAX_GLOB_FILES + 5 },
      (_, i) => `tied/f${String(i).padStart(3, '0')}.txt`,
    );
    await Promise.all(names.map((name) => ws.write(name, '')));
    // Three newest files, then every other file at one time, so the cut falls inside the tie.
    await Promise.all(
      names.map((name, i) => fs.utimes(path.join(ws.root, name), 1_000, i < 3 ? 5_000 + i : 1_000)),
    );
    const rg = createGlobTool() as Tool;
    const js = createGlobTool({ rgPath: await unrunnableRg() }) as Tool;
    const fromRg = await run(rg, { pattern: 'tied/*.txt' });
    const fromJs = await run(js, { pattern: 'tied/*.txt' });
    expect(fromRg.metadata.backend).toBe('rg');
    expect(fromRg.output).toBe(fromJs.output);
    expect(fromRg.output.split('\n').slice(0, 4)).toEqual([
      'tied/f002.txt',
      'tied/f001.txt',
      'tied/f000.txt',
      'tied/f003.txt',
    ]);
  });

  test('past maxDated matches lists them by path and says so, from rg and from the JS walk alike', async () => {
    const names = ['many/c.txt', 'many/a.txt', 'many/d.txt', 'many/b.txt'];
    await Promise.all(names.map((name) => ws.write(name, '')));
    await Promise.all(names.map((name, i) => fs.utimes(path.join(ws.root, name), 1_000, 2_000 + i)));
    const rg = await run(createGlobTool({ maxDated: 3 }) as Tool, { pattern: 'many/*.txt' });
    const js = await run(createGlobTool({ maxDated: 3, rgPath: await unrunnableRg() }) as Tool, {
      pattern: 'many/*.txt',
    });
    expect(rg.output.split('\n')).toEqual([
      'many/a.txt',
      'many/b.txt',
      'many/c.txt',
      'many/d.txt',
      '[over 3 matches: listed by path, not newest first]',
    ]);
    expect(js.output).toBe(rg.output);
    // At the limit they are still dated: newest first.
    const dated = await run(createGlobTool({ maxDated: 4 }) as Tool, { pattern: 'many/*.txt' });
    expect(dated.output.split('\n')).toEqual(['many/b.txt', 'many/d.txt', 'many/a.txt', 'many/c.txt']);
  });
});

describe('grep past its cap', () => {
  /** An rg that prints `n` matches of ./a.txt in its --heading form (line:column:offset:text) and then searches on (sleeps) for a minute. */
  async function slowRg(n: number, mode: 'content' | 'files' = 'content'): Promise<string> {
    const fake = path.join(ws.base, 'slow-rg');
    const print =
      mode === 'content'
        ? `printf './a.txt\\0'; i=1; while [ $i -le ${n} ]; do printf '%s:1:%s:hit\\n' $i $((i*4)); i=$((i+1)); done`
        : `i=1; while [ $i -le ${n} ]; do printf './f%s.txt\\0' $i; i=$((i+1)); done`;
    await fs.writeFile(fake, `#!/bin/sh\n${print}\nexec sleep 60\n`, { mode: 0o755 });
    return fake;
  }

  test('stops counting lines left out once enough is shown, and says the count is a lower bound', async () => {
    const grep = createGrepTool({ rgPath: await slowRg(300), countPastCapMs: 20 }) as Tool;
    const result = await run(grep, { pattern: 'hit' });
    const lines = result.output.split('\n');
    expect(lines).toHaveLength(MAX_GREP_LINES + 1);
    expect(lines[0]).toBe('a.txt:1:hit');
    expect(lines.at(-1)).toMatch(
      /^\[over \d+ more matching lines left out, counting stopped; narrow the pattern, path or include\]$/,
    );
    expect(result.metadata.capped).toBe(true);
  });

  test('the JS search stops counting past the cap too', async () => {
    const lines = `${Array.from({ length: 300 }, (_, i) => `hit ${i}`).join('\n')}\n`;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => ws.write(`many/f${String(i).padStart(2, '0')}.txt`, lines)),
    );
    const grep = createGrepTool({ rgPath: await unrunnableRg(), countPastCapMs: 0 }) as Tool;
    const result = await run(grep, { pattern: 'hit', path: 'many' });
    expect(result.metadata.backend).toBe('js');
    expect(result.output.split('\n').at(-1)).toMatch(
      /^\[over \d+ more matching lines left out.*counting stopped;/,
    );
  });

  test('stops listing files past the cap too, and says so', async () => {
    const grep = createGrepTool({ rgPath: await slowRg(300, 'files'), countPastCapMs: 20 }) as Tool;
    const result = await run(grep, { pattern: 'hit', output: 'files' });
    expect(result.output.split('\n').at(-1)).toMatch(/^\[over \d+ more files left out, counting stopped;/);
  });
});

describe('search previews', () => {
  test('glob and grep are safe and preview what they read', async () => {
    const grep = createGrepTool();
    const glob = createGlobTool();
    expect(grep.safety).toBe('safe');
    expect(glob.safety).toBe('safe');
    const preview = await grep.preview!(grep.schema.parse({ pattern: 'x', path: 'src' }), ws.ctx);
    expect(preview).toMatchObject({ reads: [path.join(ws.root, 'src')], writes: [] });
    const globbed = await glob.preview!(glob.schema.parse({ pattern: '*' }), ws.ctx);
    expect(globbed).toMatchObject({ reads: [ws.root], writes: [] });
  });
});
