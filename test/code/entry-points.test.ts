// A monorepo's workspace packages, as npm, yarn and pnpm declare them: each package's entry file (its built `dist/`
// mapped back to `src/`), and its name, so `import … from '@acme/core'` inside the repository reaches that file.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { loadCodeIndex } from '../../src/code/code-index.js';
import { findProjectEntries, pnpmPackages } from '../../src/code/entry-points.js';
import { ImportResolver } from '../../src/code/module-graph.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function tree(files: Record<string, string>): Promise<{ root: string; files: Set<string> }> {
  dir = await mkdtemp(path.join(tmpdir(), 'keel-entries-'));
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.join(dir, path.dirname(file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  return { root: dir, files: new Set(Object.keys(files)) };
}

const member = (name: string) =>
  JSON.stringify({ name, exports: { '.': { import: './dist/index.mjs', types: './dist/index.d.mts' } } });
const packages = {
  'packages/core/package.json': member('@acme/core'),
  'packages/core/src/index.ts': 'export const core = 1;\n',
  'packages/client/package.json': member('@acme/client'),
  'packages/client/src/index.ts': "import { core } from '@acme/core';\nexport const client = core;\n",
  'packages/internal-test/package.json': member('@acme/internal-test'),
  'packages/internal-test/src/index.ts': 'export const t = 1;\n',
};

describe('workspace packages', () => {
  test.each([
    [
      'npm and yarn: package.json workspaces',
      { 'package.json': JSON.stringify({ workspaces: ['packages/*'] }) },
    ],
    [
      'yarn: workspaces.packages',
      { 'package.json': JSON.stringify({ workspaces: { packages: ['packages/*'] } }) },
    ],
    [
      'pnpm: pnpm-workspace.yaml',
      {
        'package.json': JSON.stringify({ private: true }),
        'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - '!**/internal-*'\n",
      },
    ],
  ])('%s', async (_, manifests) => {
    const { root, files } = await tree({ ...manifests, ...packages });
    const entries = await findProjectEntries(root, files);
    expect(entries.packages.get('@acme/core')).toBe('packages/core/src/index.ts');
    expect(entries.packages.get('@acme/client')).toBe('packages/client/src/index.ts');
    expect(entries.packageEntryPoints).toContain('packages/core/src/index.ts');
  });

  test('the subpaths a package exports resolve to their sources: @acme/core/utils is its src/utils.ts', async () => {
    const { root, files } = await tree({
      'package.json': JSON.stringify({ workspaces: ['packages/*'] }),
      'packages/core/package.json': JSON.stringify({
        name: '@acme/core',
        exports: {
          '.': { import: './dist/index.mjs' },
          './utils': { types: './dist/utils.d.mts', import: './dist/utils.mjs' },
          './internal/*': './dist/internal/*.mjs',
          './missing': './dist/missing.mjs',
          './package.json': './package.json',
        },
      }),
      'packages/core/src/index.ts': 'export const core = 1;\n',
      'packages/core/src/utils.ts': 'export const util = 1;\n',
    });
    const entries = await findProjectEntries(root, files);
    expect([...entries.subpaths]).toEqual([['@acme/core/utils', 'packages/core/src/utils.ts']]);
  });

  test("tsconfig paths and baseUrl (through extends) resolve aliased imports: '@/lib/utils' is src/lib/utils.ts", async () => {
    const { root, files } = await tree({
      'tsconfig.base.json':
        '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./src/*"], "~ui": ["src/ui/index.ts"] } } }\n',
      // JSONC, as tsconfig files are written: comments and a trailing comma.
      'tsconfig.json':
        '{\n  // the app\n  "extends": "./tsconfig.base.json",\n  "compilerOptions": { "strict": true, },\n}\n',
      'src/lib/utils.ts': 'export const cn = 1;\n',
      'src/ui/index.ts': 'export const Button = 1;\n',
      'src/components/card.tsx': 'export const Card = 1;\n',
      'src/app/page.tsx':
        "import { cn } from '@/lib/utils';\nimport { Button } from '~ui';\nimport { Card } from 'src/components/card';\nimport React from 'react';\n",
    });
    const entries = await findProjectEntries(root, files);
    expect(entries.aliases).toEqual([
      { pattern: '@/*', targets: ['src/*'] },
      { pattern: '~ui', targets: ['src/ui/index.ts'] },
      { pattern: '*', targets: ['*'] },
    ]);
    const index = await loadCodeIndex(root);
    const resolver = new ImportResolver(index);
    const page = index.files.get('src/app/page.tsx')!;
    expect(page.imports.map((imp) => resolver.resolve('src/app/page.tsx', imp, page.language))).toEqual([
      ['src/lib/utils.ts'],
      ['src/ui/index.ts'],
      ['src/components/card.tsx'],
      [],
    ]);
  });

  test("each workspace package's own tsconfig paths hold for its files: two apps' '@/lib/x'", async () => {
    const { root } = await tree({
      'package.json': JSON.stringify({ workspaces: ['apps/*'] }),
      'apps/web/package.json': JSON.stringify({ name: 'web' }),
      'apps/web/tsconfig.json': '{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }\n',
      'apps/web/src/lib/x.ts': 'export const x = 1;\n',
      'apps/web/src/page.ts': "import { x } from '@/lib/x';\n",
      'apps/docs/package.json': JSON.stringify({ name: 'docs' }),
      'apps/docs/jsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["app/*"] } } }\n',
      'apps/docs/app/lib/x.js': 'export const x = 2;\n',
      'apps/docs/app/page.js': "import { x } from '@/lib/x';\n",
    });
    const index = await loadCodeIndex(root);
    const resolver = new ImportResolver(index);
    const resolved = (file: string) => {
      const tags = index.files.get(file)!;
      return resolver.resolve(file, tags.imports[0]!, tags.language);
    };
    expect(resolved('apps/web/src/page.ts')).toEqual(['apps/web/src/lib/x.ts']);
    expect(resolved('apps/docs/app/page.js')).toEqual(['apps/docs/app/lib/x.js']);
  });

  test("SvelteKit's $lib is src/lib before its tsconfig is generated", async () => {
    const { root, files } = await tree({
      'package.json': JSON.stringify({ devDependencies: { '@sveltejs/kit': '^2' } }),
      'jsconfig.json': '{ "extends": "./.svelte-kit/tsconfig.json" }\n',
      'src/lib/api.js': 'export function get() {}\n',
    });
    expect((await findProjectEntries(root, files)).aliases).toEqual([
      { pattern: '$lib', targets: ['src/lib'] },
      { pattern: '$lib/*', targets: ['src/lib/*'] },
    ]);
  });

  test('a tsconfig extending a file outside the workspace is not followed there', async () => {
    const { root, files } = await tree({ 'tsconfig.json': '{ "extends": "../outside-base.json" }\n' });
    const outside = path.join(root, '..', 'outside-base.json');
    await writeFile(outside, '{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }\n');
    try {
      expect((await findProjectEntries(root, files)).aliases).toEqual([]);
    } finally {
      await rm(outside, { force: true });
    }
  });

  test('uv: the members of [tool.uv.workspace], each its package, and Cargo workspace members', async () => {
    const { root, files } = await tree({
      'pyproject.toml': '[project]\nname = "suite"\n\n[tool.uv.workspace]\nmembers = [\n  "libs/*",\n]\n',
      'libs/core/pyproject.toml': '[project]\nname = "acme-core"\n',
      'libs/core/src/acme_core/__init__.py': 'VALUE = 1\n',
      'libs/web/pyproject.toml': '[project]\nname = "acme-web"\n',
      'libs/web/acme_web.py': 'import acme_core\n',
      'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n',
      'crates/engine/src/lib.rs': 'pub fn run() {}\n',
    });
    const entries = await findProjectEntries(root, files);
    expect(entries.packageEntryPoints).toEqual([
      'libs/core/src/acme_core/__init__.py',
      'libs/web/acme_web.py',
      'crates/engine/src/lib.rs',
    ]);
  });

  test.each([
    ['a list', "packages:\n  - 'packages/*'\n  - apps/web\n", ['packages/*', 'apps/web']],
    ['none', 'catalog:\n  react: ^19\n', []],
    ['not YAML', 'packages: [unclosed\n', []],
    ['absent', undefined, []],
  ])('pnpm-workspace.yaml with %s', (_, text, expected) => {
    expect(pnpmPackages(text)).toEqual(expected);
  });
});
