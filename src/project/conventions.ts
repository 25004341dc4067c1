// extract_conventions' analysis: formatter and linter configs with their key settings, file naming, test layout,
// the project's scripts (package.json, Makefile, justfile, scripts/) and the commit message style of recent history.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CommandRunner } from '../core/runner.js';
import { packageJsonDependencies } from './dependencies.js';
import { type EditorConfig, editorConfigFor, parseEditorConfig } from './editorconfig.js';
import { keyValue, type ProjectScan, prop, tomlSection } from './scan.js';

export interface Conventions {
  /** `biome (biome.json): indent tab, quotes single, line width 110`. */
  formatters: string[];
  /** `kebab-case 41, camelCase 2 (of 43 multi-word names; 9 one-word)`. */
  fileNaming: string;
  testLayout: string[];
  /** `npm test: vitest run`, `make build`. */
  scripts: string[];
  commits?: string;
}

const SOURCE_FILE = /\.(ts|tsx|js|jsx|mjs|py|go|rs|dart|rb|java|kt|php|swift|cs)$/;

/** Config files → the tool they configure; settings are read for the ones `settings` knows. */
const CONFIG_FILES: readonly { test: RegExp; tool: string }[] = [
  { test: /^biome\.jsonc?$/, tool: 'biome' },
  { test: /^\.eslintrc(\.(js|cjs|json|yml|yaml))?$|^eslint\.config\.[cm]?[jt]s$/, tool: 'eslint' },
  { test: /^\.prettierrc(\.(json|js|cjs|yml|yaml|toml))?$|^prettier\.config\.[cm]?js$/, tool: 'prettier' },
  { test: /^\.editorconfig$/, tool: 'editorconfig' },
  { test: /^\.?ruff\.toml$/, tool: 'ruff' },
  { test: /^\.flake8$/, tool: 'flake8' },
  { test: /^mypy\.ini$/, tool: 'mypy' },
  { test: /^\.?rustfmt\.toml$/, tool: 'rustfmt' },
  { test: /^\.golangci\.ya?ml$/, tool: 'golangci-lint' },
  { test: /^analysis_options\.yaml$/, tool: 'dart analyzer' },
  { test: /^\.clang-format$/, tool: 'clang-format' },
  { test: /^\.rubocop\.yml$/, tool: 'rubocop' },
  { test: /^\.stylelintrc(\.json)?$/, tool: 'stylelint' },
  { test: /^deno\.jsonc?$/, tool: 'deno fmt' },
];

/** Formatters that run without a config, by package name: the name shown and what their defaults are. */
const DEFAULTED_TOOLS: readonly [string, string, string][] = [
  ['prettier', 'prettier', 'double quotes, semicolons, 2 spaces, width 80'],
  ['@biomejs/biome', 'biome', 'double quotes, semicolons, tabs, width 80'],
  ['standard', 'standard', 'single quotes, no semicolons, 2 spaces'],
];

export async function extractConventions(
  scan: ProjectScan,
  git?: { runner: CommandRunner; signal: AbortSignal },
): Promise<Conventions> {
  return {
    formatters: await formatters(scan),
    fileNaming: fileNaming(scan.files),
    testLayout: testLayout(scan.files),
    scripts: await scripts(scan),
    ...(git ? { commits: await commitStyle(scan.root, git.runner, git.signal) } : {}),
  };
}

async function formatters(scan: ProjectScan): Promise<string[]> {
  const found: string[] = [];
  const rootFiles = scan.files.filter((f) => !f.includes('/'));
  for (const file of rootFiles) {
    const config = CONFIG_FILES.find((c) => c.test.test(file));
    if (!config) continue;
    const details = await settings(scan, config.tool, file);
    found.push(`${config.tool} (${file})${details.length > 0 ? `: ${details.join(', ')}` : ''}`);
  }
  const pyproject = (await scan.read('pyproject.toml')) ?? '';
  for (const tool of ['ruff', 'black', 'isort', 'mypy', 'pylint']) {
    const section = tomlSection(pyproject, `tool.${tool}`);
    if (!pyproject.includes(`[tool.${tool}`)) continue;
    const width = keyValue(section, 'line-length');
    found.push(`${tool} (pyproject.toml)${width ? `: line width ${width}` : ''}`);
  }
  const pkg = await scan.readJson('package.json');
  if (pkg?.prettier !== undefined) found.push('prettier (package.json)');
  if (pkg?.eslintConfig !== undefined) found.push('eslint (package.json)');
  // A formatter the project installs without a config file runs with its defaults: worth knowing before writing.
  const installed = new Set(packageJsonDependencies(pkg));
  for (const [dep, tool, defaults] of DEFAULTED_TOOLS)
    if (installed.has(dep) && !found.some((f) => f.startsWith(`${tool} (`)))
      found.push(`${tool} (package.json dependency, no config: its defaults, ${defaults})`);
  if (scan.has('go.mod')) found.push('gofmt (Go: the standard formatting)');
  if (scan.has('Cargo.toml') && !found.some((f) => f.startsWith('rustfmt'))) found.push('rustfmt (defaults)');
  if (scan.has('pubspec.yaml')) found.push('dart format (Dart: the standard formatting)');
  return found;
}

/** The few settings worth knowing before writing code: indentation, quotes, line width. */
async function settings(scan: ProjectScan, tool: string, file: string): Promise<string[]> {
  const out: string[] = [];
  const push = (label: string, value: unknown) => {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      out.push(`${label} ${value}`);
  };
  if (tool === 'biome' || tool === 'deno fmt') {
    const json = await scan.readJson(file);
    push('indent', prop(json, 'formatter', 'indentStyle') ?? prop(json, 'fmt', 'useTabs'));
    push('indent width', prop(json, 'formatter', 'indentWidth') ?? prop(json, 'fmt', 'indentWidth'));
    push('line width', prop(json, 'formatter', 'lineWidth') ?? prop(json, 'fmt', 'lineWidth'));
    push('quotes', prop(json, 'javascript', 'formatter', 'quoteStyle') ?? prop(json, 'fmt', 'singleQuote'));
    push('semicolons', prop(json, 'javascript', 'formatter', 'semicolons'));
  } else if (tool === 'prettier' && /(\.json|rc)$/.test(file)) {
    const json = await scan.readJson(file);
    push('tabs', json?.useTabs);
    push('indent width', json?.tabWidth);
    push('line width', json?.printWidth);
    push('single quotes', json?.singleQuote);
    push('semicolons', json?.semi);
  } else if (tool === 'editorconfig') {
    const described = editorconfigSettings(parseEditorConfig((await scan.read(file)) ?? ''), scan.files);
    if (described) out.push(described);
  } else if (tool === 'ruff' || tool === 'rustfmt' || tool === 'flake8') {
    const text = (await scan.read(file)) ?? '';
    push(
      'line width',
      keyValue(text, 'line-length') ?? keyValue(text, 'max_width') ?? keyValue(text, 'max-line-length'),
    );
    push('indent width', keyValue(text, 'indent-width') ?? keyValue(text, 'tab_spaces'));
  }
  return out;
}

/** An .editorconfig's settings as the labels above: indentation, its width, line width, line endings. */
function describeEditorconfig(props: Record<string, string>): string {
  const width = props.indent_size === 'tab' ? props.tab_width : props.indent_size;
  const labelled: [string, string | undefined][] = [
    ['indent', props.indent_style],
    ['indent width', width],
    ['line width', props.max_line_length === 'off' ? undefined : props.max_line_length],
    ['end of line', props.end_of_line],
  ];
  return labelled
    .filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== '')
    .map(([label, value]) => `${label} ${value}`)
    .join(', ');
}

/**
 * What an .editorconfig sets for the project's source files: for a file of each of its four most common languages,
 * the sections matching it (`[*.go]` over `[*]`), languages set alike named together: `*.go: indent tab, indent
 * width 4`. Without source files, what every file gets.
 */
function editorconfigSettings(config: EditorConfig, files: readonly string[]): string {
  const firstOf = new Map<string, { file: string; count: number }>();
  for (const file of files) {
    const ext = SOURCE_FILE.exec(file)?.[1];
    if (!ext) continue;
    const seen = firstOf.get(ext);
    firstOf.set(ext, { file: seen?.file ?? file, count: (seen?.count ?? 0) + 1 });
  }
  if (firstOf.size === 0) return describeEditorconfig(editorConfigFor(config, 'file'));
  const languages = [...firstOf].sort((a, b) => b[1].count - a[1].count).slice(0, 4);
  const alike = new Map<string, string[]>();
  for (const [ext, { file }] of languages) {
    const described = describeEditorconfig(editorConfigFor(config, file));
    if (described) alike.set(described, [...(alike.get(described) ?? []), `*.${ext}`]);
  }
  return [...alike].map(([described, names]) => `${names.join(', ')}: ${described}`).join('; ');
}

type Naming = 'kebab-case' | 'snake_case' | 'camelCase' | 'PascalCase';

function namingOf(base: string): Naming | undefined {
  if (/^[a-z0-9]+(-[a-z0-9]+)+$/.test(base)) return 'kebab-case';
  if (/^[a-z0-9]+(_[a-z0-9]+)+$/.test(base)) return 'snake_case';
  if (/^[a-z][a-z0-9]*([A-Z][a-z0-9]*)+$/.test(base)) return 'camelCase';
  if (/^([A-Z][a-z0-9]+){2,}$/.test(base)) return 'PascalCase';
  return undefined; // one word: fits every style
}

/** The dominant style of multi-word source file names. */
export function fileNaming(files: readonly string[]): string {
  const counts = new Map<Naming, number>();
  let sources = 0;
  for (const file of files) {
    if (!SOURCE_FILE.test(file)) continue;
    sources++;
    const base = file
      .split('/')
      .at(-1)!
      .replace(/(\.(test|spec|d))?\.[^.]+$/, '')
      .replace(/^test_|_test$/, '')
      // Python's private modules (`_models.py`) and dunder files name their style after the underscores.
      .replace(/^_+|_+$/g, '');
    const style = namingOf(base);
    if (style) counts.set(style, (counts.get(style) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return sources === 0 ? 'no source files' : 'single-word names only';
  const named = ranked.reduce((sum, [, n]) => sum + n, 0);
  const oneWord = sources - named;
  return `${ranked.map(([style, n]) => `${style} ${n}`).join(', ')} (of ${named} multi-word names${oneWord > 0 ? `; ${oneWord} one-word` : ''})`;
}

/** Where tests live and how they are named. */
export function testLayout(files: readonly string[]): string[] {
  const suffixes: [RegExp, string][] = [
    [/\.test\.[cm]?[jt]sx?$/, '*.test.*'],
    [/\.spec\.[cm]?[jt]sx?$/, '*.spec.*'],
    [/(^|\/)test_[^/]+\.py$/, 'test_*.py'],
    [/_test\.py$/, '*_test.py'],
    [/_test\.go$/, '*_test.go'],
    [/_test\.dart$/, '*_test.dart'],
    [/_spec\.rb$/, '*_spec.rb'],
    [/(^|\/)test_[^/]+\.rb$|_test\.rb$/, 'test_*.rb / *_test.rb'],
    [/_test\.exs$/, '*_test.exs'],
    [/Tests?\.(java|kt|cs|php|swift)$/, '*Test.*'],
    // Cargo's integration tests (every .rs of a crate's tests/) and unit-test modules kept in their own file.
    [/(^|\/)tests\/.+\.rs$/, 'tests/*.rs'],
    [/(^|\/)(tests|test)\.rs$/, 'tests.rs modules'],
  ];
  const named = new Set(files.filter((f) => suffixes.some(([test]) => test.test(f))));
  // Jest's __tests__/ and mocha's test/ hold tests without a suffix (fixtures and helpers there are not tests).
  const unnamed = (folder: RegExp) => (f: string) =>
    folder.test(f) && !named.has(f) && !/\/(fixtures?|support|helpers?|__fixtures__)\//.test(f);
  const patterns: [(f: string) => boolean, string][] = [
    ...suffixes.map(([test, name]): [(f: string) => boolean, string] => [(f) => test.test(f), name]),
    [unnamed(/(^|\/)__tests__\/.+\.[cm]?[jt]sx?$/), '__tests__/*'],
    [unnamed(/(^|\/)test\/.+\.[cm]?[jt]s$/), 'test/*.js'],
  ];
  const out: string[] = [];
  for (const [test, name] of patterns) {
    const matching = files.filter(test);
    if (matching.length === 0) continue;
    const dirs = new Map<string, number>();
    for (const f of matching) {
      const top = f.includes('/') ? f.split('/')[0]! : '.';
      dirs.set(top, (dirs.get(top) ?? 0) + 1);
    }
    const inTestDir = matching.filter((f) => /(^|\/)(tests?|__tests__|spec)\//.test(f)).length;
    const where =
      inTestDir === matching.length
        ? 'in test directories'
        : inTestDir === 0
          ? 'next to the sources'
          : `${inTestDir} in test directories, ${matching.length - inTestDir} next to the sources`;
    const tops = [...dirs].map(([d, n]) => `${d}/ ${n}`).join(', ');
    out.push(`${name}: ${matching.length} files, ${where} (${tops})`);
  }
  return out;
}

/**
 * Whether the file (not a link) has an execute bit: a script meant to be run, not a module in a folder of that name.
 */
async function executable(root: string, file: string): Promise<boolean> {
  const stat = await fs.lstat(path.join(root, file)).catch(() => undefined);
  return stat?.isFile() === true && (stat.mode & 0o111) !== 0;
}

async function scripts(scan: ProjectScan): Promise<string[]> {
  const out: string[] = [];
  const pkg = await scan.readJson('package.json');
  const runner =
    pkg && typeof pkg.packageManager === 'string' ? /^[a-z]+/.exec(pkg.packageManager)?.[0] : undefined;
  const pm = runner ?? (scan.has('pnpm-lock.yaml') ? 'pnpm' : scan.has('yarn.lock') ? 'yarn' : 'npm');
  const scriptTable = pkg?.scripts;
  if (typeof scriptTable === 'object' && scriptTable !== null) {
    for (const [name, command] of Object.entries(scriptTable).slice(0, 20)) {
      const invoke = pm === 'npm' && !['test', 'start'].includes(name) ? `npm run ${name}` : `${pm} ${name}`;
      out.push(`${invoke}: ${String(command)}`);
    }
  }
  for (const file of ['Makefile', 'makefile', 'GNUmakefile', 'justfile']) {
    const text = await scan.read(file);
    if (text === undefined) continue;
    const tool = file === 'justfile' ? 'just' : 'make';
    const targets = [...text.matchAll(/^([A-Za-z0-9][\w.-]*)\s*:(?!=)/gm)].map((m) => m[1]!);
    for (const target of [...new Set(targets)].slice(0, 20)) out.push(`${tool} ${target}`);
  }
  // "Scripts to rule them all": scripts/test, scripts/lint, run as they are.
  for (const dir of ['scripts', 'script', 'bin'])
    for (const file of scan.files.filter(
      (f) => f.startsWith(`${dir}/`) && !f.slice(dir.length + 1).includes('/'),
    )) {
      const name = file.slice(dir.length + 1);
      if (/^[\w-]+(\.sh)?$/.test(name) && (await executable(scan.root, file)) && out.length < 40)
        out.push(file);
    }
  const composer = await scan.readJson('composer.json');
  for (const name of Object.keys((composer?.scripts as object | undefined) ?? {}).slice(0, 10))
    out.push(`composer ${name}`);
  return out;
}

/**
 * The style of the last 20 commit subjects touching the project. A fixed, read-only git command through the
 * runner: no pager, no fsmonitor hook, no colour; outside a git repository it fails and nothing is said.
 */
async function commitStyle(
  root: string,
  runner: CommandRunner,
  signal: AbortSignal,
): Promise<string | undefined> {
  const outcome = await runner
    .run({
      command: 'git --no-pager -c core.fsmonitor=false log --no-color --format=%s -20 -- .',
      cwd: root,
      timeoutMs: 10_000,
      signal,
      maxStdoutBytes: 16_384,
      maxStderrBytes: 4096,
    })
    .catch(() => undefined);
  if (outcome?.exitCode !== 0) return undefined;
  const subjects = outcome.stdout.text.split('\n').filter((s) => s.trim());
  if (subjects.length === 0) return undefined;
  return describeCommits(subjects);
}

export function describeCommits(subjects: readonly string[]): string {
  const conventional = subjects.filter((s) => /^[a-z]+(\([^)]*\))?!?: /.test(s)).length;
  const capitalised = subjects.filter((s) => /^[A-Z]/.test(s)).length;
  const style =
    conventional * 2 > subjects.length
      ? `Conventional Commits (type(scope): subject) in ${conventional} of ${subjects.length}`
      : `free-form subjects, ${capitalised} of ${subjects.length} capitalised`;
  const examples = subjects.slice(0, 5).map((s) => `  ${s.slice(0, 100)}`);
  return [style, ...examples].join('\n');
}

export function formatConventions(c: Conventions): string {
  const block = (title: string, lines: string[], none: string) =>
    lines.length === 0 ? `${title}: ${none}` : `${title}:\n${lines.map((l) => `  ${l}`).join('\n')}`;
  return [
    block('formatters and linters', c.formatters, 'no config found'),
    `file naming: ${c.fileNaming}`,
    block('tests', c.testLayout, 'no test files found'),
    block('scripts', c.scripts, 'none found'),
    ...(c.commits !== undefined ? [`commit messages (last 20): ${c.commits}`] : []),
  ].join('\n');
}
