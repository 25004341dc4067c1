// The project analyses behind keel init (detect_project_type, extract_conventions, get_project_overview) on small
// real projects in temp dirs: an npm TypeScript project, a Python, a Go and a Flutter one.
import { execFileSync } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { detectProjectTypeTool } from '../../src/tools/detect-project-type.js';
import { extractConventionsTool } from '../../src/tools/extract-conventions.js';
import { getProjectOverviewTool } from '../../src/tools/get-project-overview.js';
import { projectTools } from '../../src/tools/registry.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

const typescriptProject: Record<string, string> = {
  'package.json': JSON.stringify({
    name: 'shop',
    type: 'module',
    bin: { shop: 'dist/cli.js' },
    scripts: { build: 'tsc -p .', test: 'vitest run', lint: 'biome check .' },
    dependencies: { express: '^4.19.0', react: '^18.0.0' },
    devDependencies: { vitest: '^2.0.0', '@biomejs/biome': '^2.0.0', typescript: '^5.5.0' },
  }),
  'package-lock.json': '{}',
  'tsconfig.json': '{ "compilerOptions": { "strict": true } }',
  // JSONC: comments and a URL with `//` inside a string.
  'biome.json': `{
  "$schema": "https://biomejs.dev/schemas/2.0.0/schema.json",
  // formatting
  "formatter": { "indentStyle": "space", "indentWidth": 2, "lineWidth": 110 },
  "javascript": { "formatter": { "quoteStyle": "single" } },
}`,
  '.gitignore': 'dist/\n',
  'dist/cli.js': 'ignored();\n',
  'node_modules/express/index.js': 'module.exports = {};\n',
  'README.md': '# Shop\n\nA small shop server.\n\n## Install\n\nnpm ci\n',
  'src/cli.ts': "import { startServer } from './http-server.js';\nstartServer(8080);\n",
  'src/http-server.ts': 'export function startServer(port: number): void {}\n',
  'src/order-store.ts': 'export class OrderStore {\n  add(id: string): void {}\n}\n',
  'src/order-store.test.ts': "import { OrderStore } from './order-store.js';\n",
  'src/http-server.test.ts': "import { startServer } from './http-server.js';\n",
};

const pythonProject: Record<string, string> = {
  'pyproject.toml': `[project]
name = "inventory"
dependencies = [
  "fastapi>=0.110",
  "SQLAlchemy>=2",
]

[project.optional-dependencies]
test = ["pytest>=8"]

[project.scripts]
inventory = "inventory.cli:main"

[tool.ruff]
line-length = 100

[tool.pytest.ini_options]
testpaths = ["tests"]
`,
  'uv.lock': '',
  'inventory/__init__.py': '',
  'inventory/stock_level.py': 'def reorder_point(level: int) -> int:\n    return level * 2\n',
  'inventory/cli.py': 'def main() -> None:\n    pass\n',
  'tests/test_stock_level.py': 'from inventory.stock_level import reorder_point\n',
  Makefile: 'test:\n\tpytest\nlint:\n\truff check .\nVERSION := 1\n',
};

const goProject: Record<string, string> = {
  'go.mod': `module example.com/relay

go 1.22

require (
\tgithub.com/gin-gonic/gin v1.10.0
\tgithub.com/stretchr/testify v1.9.0
)
`,
  'cmd/relay/main.go': 'package main\n\nfunc main() {}\n',
  'internal/queue/queue.go': 'package queue\n\nfunc Push(x int) {}\n',
  'internal/queue/queue_test.go': 'package queue\n',
};

const flutterProject: Record<string, string> = {
  'pubspec.yaml': `name: weather_app
environment:
  sdk: ">=3.0.0 <4.0.0"
dependencies:
  flutter:
    sdk: flutter
  http: ^1.2.0
dev_dependencies:
  flutter_test:
    sdk: flutter
  flutter_lints: ^4.0.0
`,
  'analysis_options.yaml': 'include: package:flutter_lints/flutter.yaml\n',
  'lib/main.dart': 'void main() {}\n',
  'lib/weather_card.dart': 'class WeatherCard {}\n',
  'test/weather_card_test.dart': "import 'package:weather_app/weather_card.dart';\n",
};

let ws: TestWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

async function project(files: Record<string, string>): Promise<TestWorkspace> {
  ws = await makeWorkspace();
  for (const [rel, content] of Object.entries(files)) await ws.write(rel, content);
  return ws;
}

describe('detect_project_type', () => {
  it('reads an npm TypeScript project: languages by count (gitignored and node_modules skipped), npm, frameworks, vitest', async () => {
    const w = await project(typescriptProject);
    const result = await detectProjectTypeTool.execute({ path: '.' }, w.ctx);
    expect(result.success).toBe(true);
    expect(result.output).toContain('languages: TypeScript 5 files');
    expect(result.output).not.toContain('JavaScript');
    expect(result.output).toContain('package managers: npm (package-lock.json)');
    expect(result.output).toMatch(/build tools: .*typescript \(tsc\) \(tsconfig\.json\)/);
    expect(result.output).toMatch(
      /frameworks: .*React \(package\.json\).*Express \(package\.json\)|frameworks: .*Express.*React/,
    );
    expect(result.output).toContain('test frameworks: Vitest (package.json)');
  });

  it('reads a Python project: pyproject dependencies, uv, FastAPI, pytest', async () => {
    const w = await project(pythonProject);
    const { output } = await detectProjectTypeTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain('languages: Python 4 files');
    expect(output).toContain('uv (uv.lock)');
    expect(output).toContain('FastAPI (pyproject.toml)');
    expect(output).toContain('SQLAlchemy (pyproject.toml)');
    expect(output).toMatch(/test frameworks: pytest \(pyproject\.toml\)/);
    expect(output).toContain('make (Makefile)');
  });

  it("reads a Django site's requirements/ files through requirements.txt's -r, and its manage.py test runner (wagtail's bakerydemo)", async () => {
    const w = await project({
      'requirements.txt': '-r requirements/production.txt\n',
      'requirements/base.txt': 'Django>=6.0,<6.1\nwagtail>=7.4,<7.5\n',
      'requirements/production.txt': '-r base.txt\ngunicorn>=23\n',
      'manage.py': 'import os\n',
      'bakery/settings.py': 'DEBUG = False\n',
    });
    const { output } = await detectProjectTypeTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain('frameworks: Django (requirements/base.txt), Wagtail (requirements/base.txt)');
    expect(output).toContain('test frameworks: Django test runner (manage.py test) (manage.py)');
  });

  it("reads a pyproject's build backend and its [tool.pdm] table (FastAPI's own shape)", async () => {
    const w = await project({
      'pyproject.toml':
        '[build-system]\nrequires = ["pdm-backend"]\nbuild-backend = "pdm.backend"\n\n[project]\nname = "api"\ndependencies = [\n  "starlette>=0.40",\n]\n\n[tool.pdm]\nversion = { source = "file", path = "api/__init__.py" }\n',
      'api/__init__.py': '',
    });
    const { output } = await detectProjectTypeTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain('package managers: pdm (pyproject.toml)');
    expect(output).toContain('build tools: PDM (pyproject.toml)');
    expect(output).toContain('Starlette (pyproject.toml)');
  });

  it('reads a Go module: go modules, Gin, testify and go test', async () => {
    const w = await project(goProject);
    const { output } = await detectProjectTypeTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain('languages: Go 3 files');
    expect(output).toContain('go modules (go.mod)');
    expect(output).toContain('Gin (go.mod)');
    expect(output).toContain('testify (go.mod)');
    expect(output).toContain('go test (internal/queue/queue_test.go)');
  });

  it('reads a Flutter app from pubspec.yaml: pub, Flutter, flutter_test', async () => {
    const w = await project(flutterProject);
    const { output } = await detectProjectTypeTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain('languages: Dart 3 files');
    expect(output).toContain('pub (pubspec.yaml)');
    expect(output).toContain('frameworks: Flutter (pubspec.yaml)');
    expect(output).toContain('flutter_test (pubspec.yaml)');
  });

  it("names a yarn monorepo's workspaces after yarn, the root's tsconfig, and counts manifests past ten", async () => {
    const packages = Object.fromEntries(
      Array.from({ length: 14 }, (_, i) => [`packages/p${String(i).padStart(2, '0')}/package.json`, '{}']),
    );
    const w = await project({
      'codemods/a/tsconfig.json': '{}',
      ...packages,
      'package.json': JSON.stringify({ packageManager: 'yarn@4.1.0', workspaces: ['packages/*'] }),
      'tsconfig.json': '{}',
    });
    const { output } = await detectProjectTypeTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain('workspaces: yarn workspaces (packages/*) (package.json)');
    expect(output).toContain('typescript (tsc) (tsconfig.json)');
    expect(output).toContain(
      'manifests: package.json, packages/p00/package.json, packages/p01/package.json, packages/p02/package.json',
    );
    expect(output).toContain('packages/p08/package.json and 5 more');
  });

  it('reports npm workspaces and a path that is not a directory as a failure the model reads', async () => {
    const w = await project({ 'package.json': JSON.stringify({ workspaces: ['packages/*'] }), 'a.txt': 'x' });
    const { output } = await detectProjectTypeTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain('workspaces: npm workspaces (packages/*) (package.json)');
    await expect(detectProjectTypeTool.execute({ path: 'a.txt' }, w.ctx)).rejects.toThrow(
      'a.txt is not a directory',
    );
    await expect(detectProjectTypeTool.execute({ path: 'missing' }, w.ctx)).rejects.toThrow(/missing/);
  });
});

describe('extract_conventions', () => {
  it('reads biome settings from JSONC, kebab-case names, tests next to sources and the npm scripts', async () => {
    const w = await project(typescriptProject);
    const { output } = await extractConventionsTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain(
      'biome (biome.json): indent space, indent width 2, line width 110, quotes single',
    );
    expect(output).toContain('file naming: kebab-case 4 (of 4 multi-word names; 1 one-word)');
    expect(output).toContain('*.test.*: 2 files, next to the sources (src/ 2)');
    expect(output).toContain('npm run build: tsc -p .');
    expect(output).toContain('npm test: vitest run');
    expect(output).toContain('npm run lint: biome check .');
    // A temp dir is no git repository: nothing is said about commits.
    expect(output).not.toContain('commit messages');
  });

  it("names a formatter installed without a config file with its defaults (vercel/commerce's prettier)", async () => {
    const w = await project({
      'package.json': JSON.stringify({
        scripts: { prettier: 'prettier --write .' },
        devDependencies: { prettier: '3.5.3' },
      }),
      'app/page.tsx': 'export default function Page() {}\n',
    });
    const { output } = await extractConventionsTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain(
      'prettier (package.json dependency, no config: its defaults, double quotes, semicolons, 2 spaces, width 80)',
    );
    // With a config file, the file's settings are what counts.
    const configured = await project({
      'package.json': JSON.stringify({ devDependencies: { prettier: '3.5.3' } }),
      '.prettierrc': '{ "singleQuote": true }',
    });
    const again = await extractConventionsTool.execute({ path: '.' }, configured.ctx);
    expect(again.output).not.toContain('no config');
    expect(again.output).toContain('prettier (.prettierrc)');
  });

  it(".editorconfig: the sections matching each language's files (gorilla/mux's Go files take tabs)", async () => {
    const mux = await project({
      'go.mod': 'module github.com/gorilla/mux\n\ngo 1.20\n',
      'mux.go': 'package mux\n',
      'route.go': 'package mux\n',
      'scripts/gen.py': 'print(1)\n',
      '.editorconfig':
        'root = true\n\n[*]\nindent_style = space\nindent_size = 2\n\n[{Makefile,go.mod,go.sum,*.go,.gitmodules}]\nindent_style = tab\nindent_size = 4\n\n[*.md]\nindent_size = 4\n',
    });
    const { output } = await extractConventionsTool.execute({ path: '.' }, mux.ctx);
    expect(output).toContain(
      'editorconfig (.editorconfig): *.go: indent tab, indent width 4; *.py: indent space, indent width 2',
    );
    const alike = await project({
      'a.ts': '',
      'b.js': '',
      '.editorconfig': '[*]\nend_of_line = lf\n[*.{ts,js}]\nindent_style = space\nindent_size = 2\n',
    });
    const same = await extractConventionsTool.execute({ path: '.' }, alike.ctx);
    expect(same.output).toMatch(
      /editorconfig \(\.editorconfig\): \*\.(ts|js), \*\.(ts|js): indent space, indent width 2, end of line lf/,
    );
  });

  it('reads ruff from pyproject, snake_case names, tests/ and Makefile targets', async () => {
    const w = await project(pythonProject);
    const { output } = await extractConventionsTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain('ruff (pyproject.toml): line width 100');
    expect(output).toMatch(/file naming: snake_case 2/);
    expect(output).toContain('test_*.py: 1 files, in test directories (tests/ 1)');
    expect(output).toContain('make test');
    expect(output).toContain('make lint');
    expect(output).not.toContain('make VERSION');
  });

  it("names private modules' style past their underscores, and the executable scripts in scripts/", async () => {
    const w = await project({
      'pkg/__init__.py': '',
      'pkg/_status_codes.py': '',
      'pkg/_main.py': '',
      'pkg/_multipart.py': '',
      'pkg/read_config.py': '',
      'scripts/test': '#!/bin/sh\npytest\n',
      'scripts/lint.sh': '#!/bin/sh\nruff check\n',
      'scripts/helpers.py': 'x = 1\n',
      'scripts/README': 'not run\n',
    });
    for (const file of ['scripts/test', 'scripts/lint.sh', 'scripts/helpers.py'])
      await chmod(`${w.root}/${file}`, 0o755);
    const { output } = await extractConventionsTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain('file naming: snake_case 2 (of 2 multi-word names; 4 one-word)');
    // helpers.py is a module kept there, README is not executable.
    expect(output).toMatch(/scripts:\n {2}scripts\/lint\.sh\n {2}scripts\/test$/);
  });

  it('names gofmt for Go and the Dart analyzer and formatter for Flutter', async () => {
    const go = await project(goProject);
    expect((await extractConventionsTool.execute({ path: '.' }, go.ctx)).output).toContain('gofmt');
    expect((await extractConventionsTool.execute({ path: '.' }, go.ctx)).output).toContain(
      '*_test.go: 1 files, next to the sources (internal/ 1)',
    );
    await go.cleanup();
    const dart = await project(flutterProject);
    const { output } = await extractConventionsTool.execute({ path: '.' }, dart.ctx);
    expect(output).toContain('dart analyzer (analysis_options.yaml)');
    expect(output).toContain('dart format');
    expect(output).toContain('*_test.dart: 1 files, in test directories (test/ 1)');
  });

  it("finds Cargo's integration tests and a crate's tests.rs, mocha's test/ and Jest's __tests__ without a suffix", async () => {
    const rust = await project({
      'Cargo.toml': '[package]\nname = "smallvec"\n',
      'src/lib.rs': '#[cfg(test)]\nmod tests;\n',
      'src/tests.rs': '#[test]\nfn t() {}\n',
      'tests/it/main.rs': '#[test]\nfn t() {}\n',
      'tests/macros.rs': '#[test]\nfn m() {}\n',
    });
    const rustOut = (await extractConventionsTool.execute({ path: '.' }, rust.ctx)).output;
    expect(rustOut).toContain('tests/*.rs: 2 files, in test directories (tests/ 2)');
    expect(rustOut).toContain('tests.rs modules: 1 files, next to the sources (src/ 1)');
    await rust.cleanup();
    const js = await project({
      'package.json': '{"name":"express"}',
      'lib/app.js': 'module.exports = {};\n',
      'test/app.router.js': "describe('router', () => {});\n",
      'test/support/utils.js': 'exports.x = 1;\n',
      'test/fixtures/name.js': 'module.exports = 1;\n',
      'src/__tests__/render.js': "test('renders', () => {});\n",
    });
    const { output } = await extractConventionsTool.execute({ path: '.' }, js.ctx);
    expect(output).toContain('test/*.js: 1 files, in test directories (test/ 1)');
    expect(output).toContain('__tests__/*: 1 files, in test directories (src/ 1)');
    await js.cleanup();
  });

  it('describes the commit style of a git repository', async () => {
    const w = await project({ 'a.ts': 'export const a = 1;\n' });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: w.root });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'feat(core): add a');
    await w.write('a.ts', 'export const a = 2;\n');
    git('commit', '-q', '-am', 'fix: keep a');
    const { output } = await extractConventionsTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain(
      'commit messages (last 20): Conventional Commits (type(scope): subject) in 2 of 2',
    );
    expect(output).toContain('  fix: keep a');
  });
});

describe('get_project_overview', () => {
  it("names a Spring Boot application's class as its entry point and maps it first (spring-petclinic)", async () => {
    const w = await project({
      'pom.xml': '<project><artifactId>petclinic</artifactId></project>\n',
      'src/main/java/org/springframework/samples/petclinic/PetClinicApplication.java':
        'package org.springframework.samples.petclinic;\n\npublic class PetClinicApplication {\n  public static void main(String[] args) {}\n}\n',
      'src/main/java/org/springframework/samples/petclinic/model/BaseEntity.java':
        'package org.springframework.samples.petclinic.model;\n\npublic class BaseEntity {\n  public Integer getId() { return 1; }\n}\n',
      'src/main/java/org/springframework/samples/petclinic/owner/Owner.java':
        'package org.springframework.samples.petclinic.owner;\n\nimport org.springframework.samples.petclinic.model.BaseEntity;\n\npublic class Owner extends BaseEntity {}\n',
    });
    const { output } = await getProjectOverviewTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain(
      'entry points:\n  src/main/java/org/springframework/samples/petclinic/PetClinicApplication.java',
    );
    expect(output).toMatch(
      /key modules[^\n]*\nsrc\/main\/java\/org\/springframework\/samples\/petclinic\/PetClinicApplication\.java:/,
    );
  });

  it("gives the README's opening section, the layout, entry points and key modules", async () => {
    const w = await project(typescriptProject);
    const { output } = await getProjectOverviewTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain('README.md (opening section):\n# Shop\n\nA small shop server.\n\nlayout:');
    expect(output).not.toContain('npm ci');
    expect(output).toContain('src/ 5 files');
    expect(output).not.toMatch(/^ {2}dist\/ /m);
    // The bin is built (ignored by git): named with the source it is built from.
    expect(output).toContain('src/cli.ts (package.json bin: shop, built to dist/cli.js)');
    expect(output).toMatch(
      /key modules[^\n]*\n[\s\S]*src\/order-store\.ts:\n\s+\d+│ export class OrderStore/,
    );
  });

  it("names a declared entry the build makes as such, with its likely source (date-fns' index.cjs)", async () => {
    const w = await project({
      'package.json': JSON.stringify({ name: 'date-fns', main: 'index.cjs', module: 'index.js' }),
      'src/index.ts': "export * from './addDays/index.js';\n",
      'src/addDays/index.ts':
        'export function addDays(date: Date, amount: number): Date {\n  return date;\n}\n',
    });
    const { output } = await getProjectOverviewTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain(
      'entry points:\n  index.cjs (package.json main; built, not in the repository; its source is likely src/index.ts)\n  index.js (package.json module; built',
    );
  });

  it("says each entry file once with all its reasons, and a Python library's package (hono, requests)", async () => {
    const hono = await project({
      'package.json': JSON.stringify({ main: 'dist/cjs/index.js', module: 'dist/index.js' }),
      'src/index.ts': 'export const app = 1;\n',
    });
    expect((await getProjectOverviewTool.execute({ path: '.' }, hono.ctx)).output).toContain(
      'entry points:\n  src/index.ts (package.json main, built to dist/cjs/index.js; package.json module, built to dist/index.js)\n\n',
    );
    const requests = await project({
      'pyproject.toml': '[project]\nname = "requests"\n\n[tool.setuptools.packages.find]\nwhere = ["src"]\n',
      'src/requests/__init__.py': 'from .api import get\n',
      'src/requests/api.py': 'def get(url):\n    return url\n',
    });
    expect((await getProjectOverviewTool.execute({ path: '.' }, requests.ctx)).output).toContain(
      'entry points:\n  src/requests/__init__.py (the package pyproject.toml names)\n',
    );
  });

  it("names a web framework's app entries: Next.js's root layout, SvelteKit's routes", async () => {
    const next = await project({
      'package.json': JSON.stringify({ private: true, dependencies: { next: '15.0.0', react: '19.0.0' } }),
      'app/layout.tsx': 'export default function RootLayout() { return null }\n',
      'app/page.tsx': 'export default function Page() { return null }\n',
      'middleware.ts': 'export function middleware() {}\n',
    });
    expect((await getProjectOverviewTool.execute({ path: '.' }, next.ctx)).output).toContain(
      'entry points:\n  app/layout.tsx (Next.js root layout, app router)\n  app/page.tsx (Next.js home page)\n  middleware.ts (Next.js middleware)\n',
    );
    const kit = await project({
      'package.json': JSON.stringify({ devDependencies: { '@sveltejs/kit': '^2' } }),
      'src/routes/+page.svelte': '<h1>hi</h1>\n',
    });
    expect((await getProjectOverviewTool.execute({ path: '.' }, kit.ctx)).output).toContain(
      'entry points:\n  src/routes/+page.svelte (SvelteKit home page)',
    );
  });

  it('finds Go, Python and Dart entry points', async () => {
    const go = await project(goProject);
    expect((await getProjectOverviewTool.execute({ path: '.' }, go.ctx)).output).toContain(
      '  cmd/relay/main.go',
    );
    await go.cleanup();
    const py = await project(pythonProject);
    const pyOut = (await getProjectOverviewTool.execute({ path: '.' }, py.ctx)).output;
    expect(pyOut).toContain('inventory.cli:main (pyproject script: inventory)');
    expect(pyOut).toContain('README: none found');
    await py.cleanup();
    const dart = await project(flutterProject);
    expect((await getProjectOverviewTool.execute({ path: '.' }, dart.ctx)).output).toContain(
      '  lib/main.dart',
    );
  });
});

describe('detect_project_type of a monorepo with examples', () => {
  it("names what only its examples use apart, and the project's own manifest where one declares it too", async () => {
    const w = await project({
      'package.json': JSON.stringify({ private: true, devDependencies: { vitest: '^4' } }),
      'packages/server/package.json': JSON.stringify({ name: 'server', peerDependencies: { express: '^5' } }),
      'examples/next-app/package.json': JSON.stringify({
        dependencies: { next: '^15', react: '^19', express: '^5' },
      }),
    });
    const { output } = await detectProjectTypeTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain(
      'frameworks: Express (packages/server/package.json); only in examples, tests or docs: React (examples/next-app/package.json), Next.js (examples/next-app/package.json)',
    );
    expect(output).toContain('test frameworks: Vitest (package.json)');
  });

  it('names the libraries that shape an app: Tailwind CSS, Prisma (once, from either package), tRPC', async () => {
    const w = await project({
      'package.json': JSON.stringify({
        dependencies: { next: '15', '@prisma/client': '6', '@trpc/server': '11' },
        devDependencies: { prisma: '6', tailwindcss: '4' },
      }),
    });
    const { output } = await detectProjectTypeTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain(
      'frameworks: Next.js (package.json), Tailwind CSS (package.json), tRPC (package.json), Prisma (package.json)\n',
    );
  });

  it("a test tool found by its test files is the project's own", async () => {
    const w = await project({
      'go.mod': 'module example.com/x\n',
      'src/algo/algo_test.go': 'package algo\n',
    });
    const { output } = await detectProjectTypeTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain('test frameworks: go test (src/algo/algo_test.go)\n');
  });
});

describe('get_project_overview of a pnpm monorepo', () => {
  it('lists its workspace packages with their entry files, its own before its examples', async () => {
    const pkg = (name: string) => JSON.stringify({ name, main: './dist/index.js' });
    const w = await project({
      'package.json': JSON.stringify({ private: true }),
      'pnpm-workspace.yaml': "packages:\n  - 'examples/*'\n  - 'packages/*'\n",
      'examples/demo/package.json': pkg('demo'),
      'examples/demo/src/index.ts': 'export const demo = 1;\n',
      'packages/core/package.json': pkg('@acme/core'),
      'packages/core/src/index.ts': 'export const core = 1;\n',
    });
    const { output } = await getProjectOverviewTool.execute({ path: '.' }, w.ctx);
    expect(output).toContain(
      'workspace packages (2):\n  @acme/core: packages/core/src/index.ts\n  demo: examples/demo/src/index.ts',
    );
  });
});

describe('the project tools', () => {
  it('are read-only and kept apart from the default tools', async () => {
    expect(projectTools().map((t) => [t.name, t.safety])).toEqual([
      ['detect_project_type', 'safe'],
      ['extract_conventions', 'safe'],
      ['get_project_overview', 'safe'],
    ]);
  });
});
