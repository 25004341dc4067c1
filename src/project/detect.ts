// detect_project_type's analysis: languages by file count, package managers, build tools, frameworks, test
// frameworks and workspaces, from the files present and the dependencies manifests declare.
import { isSupportFile } from '../code/file-roles.js';
import { declares, isManifest, readDependencies } from './dependencies.js';
import { filesNamed, type ProjectScan, prop } from './scan.js';
import { DEPENDENCY_SIGNALS, LANGUAGE_BY_EXTENSION, TOOL_FILES, WORKSPACE_FILES } from './signals.js';

/** Something recognised, and the file that says so. */
export interface Finding {
  name: string;
  from: string;
}

export interface ProjectType {
  languages: { name: string; files: number }[];
  packageManagers: Finding[];
  buildTools: Finding[];
  frameworks: Finding[];
  testFrameworks: Finding[];
  workspaces: Finding[];
  manifests: string[];
}

/** Test tools recognised by a file they need, when no manifest names them. */
const TEST_FILES: readonly { test: RegExp; name: string }[] = [
  { test: /(^|\/)(pytest\.ini|conftest\.py)$/, name: 'pytest' },
  { test: /(^|\/)vitest\.config\.[cm]?[jt]s$/, name: 'Vitest' },
  { test: /(^|\/)jest\.config\.[cm]?[jt]s(on)?$/, name: 'Jest' },
  { test: /(^|\/)playwright\.config\.[cm]?[jt]s$/, name: 'Playwright' },
  { test: /_test\.go$/, name: 'go test' },
  { test: /(^|\/)\.rspec$/, name: 'RSpec' },
  { test: /(^|\/)phpunit\.xml(\.dist)?$/, name: 'PHPUnit' },
];

export async function detectProjectType(scan: ProjectScan): Promise<ProjectType> {
  const counts = new Map<string, number>();
  for (const file of scan.files) {
    const ext = /\.([^./]+)$/.exec(file)?.[1]?.toLowerCase();
    const language = ext === undefined ? undefined : LANGUAGE_BY_EXTENSION[ext];
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const languages = [...counts]
    .map(([name, files]) => ({ name, files }))
    .sort((a, b) => b.files - a.files || a.name.localeCompare(b.name));

  const found = {
    packageManagers: new Findings(),
    buildTools: new Findings(),
    frameworks: new Findings(),
    testFrameworks: new Findings(),
    workspaces: new Findings(),
  };
  for (const { file, tool, kind } of TOOL_FILES) {
    for (const at of filesNamed(scan, file)) {
      (kind === 'package' ? found.packageManagers : found.buildTools).add(tool, at);
    }
  }
  const manifests = scan.files.filter((f) => f.split('/').length <= 3 && isManifest(f));
  const deps = await readDependencies(scan, manifests);
  for (const manifest of deps) {
    for (const signal of DEPENDENCY_SIGNALS) {
      if (signal.in !== undefined && !manifest.manifest.endsWith(signal.in)) continue;
      if (!declares(manifest, signal.dep)) continue;
      const into = { framework: found.frameworks, test: found.testFrameworks, build: found.buildTools }[
        signal.kind
      ];
      into.add(signal.name, manifest.manifest);
    }
  }
  await packageJsonDetails(scan, found);
  for (const file of scan.files) {
    for (const { test, name } of TEST_FILES) if (test.test(file)) found.testFrameworks.add(name, file);
  }
  if (scan.has('Cargo.toml')) found.testFrameworks.add('cargo test', 'Cargo.toml');
  const pyproject = (await scan.read('pyproject.toml')) ?? '';
  if (pyproject.includes('[tool.pytest')) found.testFrameworks.add('pytest', 'pyproject.toml');
  if (pyproject.includes('[tool.poetry')) found.packageManagers.add('poetry', 'pyproject.toml');
  if (pyproject.includes('[tool.pdm')) found.packageManagers.add('pdm', 'pyproject.toml');
  // A Django project's manage.py runs its tests (unittest's runner) unless pytest does.
  if (scan.has('manage.py') && found.frameworks.list.some((f) => f.name === 'Django')) {
    if (!found.testFrameworks.list.some((f) => f.name === 'pytest'))
      found.testFrameworks.add('Django test runner (manage.py test)', 'manage.py');
  }
  if (pyproject.includes('[tool.uv')) found.packageManagers.add('uv', 'pyproject.toml');
  if (/^\s*\[workspace\]/m.test((await scan.read('Cargo.toml')) ?? ''))
    found.workspaces.add('Cargo workspace', 'Cargo.toml');
  for (const [file, name] of Object.entries(WORKSPACE_FILES))
    if (scan.has(file)) found.workspaces.add(name, file);

  return {
    languages,
    packageManagers: found.packageManagers.list,
    buildTools: found.buildTools.list,
    frameworks: found.frameworks.list,
    testFrameworks: found.testFrameworks.list,
    workspaces: found.workspaces.list,
    manifests,
  };
}

/** package.json's `packageManager`, `workspaces`, and the plain npm fallback when no lockfile says which. */
async function packageJsonDetails(
  scan: ProjectScan,
  found: { packageManagers: Findings; workspaces: Findings },
): Promise<void> {
  const pkg = await scan.readJson('package.json');
  if (!pkg) return;
  const declared =
    typeof pkg.packageManager === 'string' ? /^[a-z]+/.exec(pkg.packageManager)?.[0] : undefined;
  if (declared) found.packageManagers.add(declared, 'package.json');
  const workspaces = Array.isArray(pkg.workspaces) ? pkg.workspaces : prop(pkg, 'workspaces', 'packages');
  // The `workspaces` field is npm's, yarn's and bun's alike: named after the package manager in use.
  const manager =
    ['yarn', 'bun'].find((pm) => declared === pm || found.packageManagers.list.some((f) => f.name === pm)) ??
    'npm';
  if (Array.isArray(workspaces) && workspaces.length > 0)
    found.workspaces.add(`${manager} workspaces (${workspaces.join(', ')})`, 'package.json');
  const lockfiles = ['npm', 'pnpm', 'yarn', 'bun'];
  if (!found.packageManagers.list.some((f) => lockfiles.includes(f.name)))
    found.packageManagers.add('npm (no lockfile)', 'package.json');
}

class Findings {
  readonly list: Finding[] = [];
  /** Once per name; a file of the project's own (not an example's, a test's, a doc's) names it when one does. */
  add(name: string, from: string): void {
    const known = this.list.find((f) => f.name === name);
    if (!known) this.list.push({ name, from });
    else if (isSupportFile(known.from) && !isSupportFile(from)) known.from = from;
  }
}

/** The manifests, the root's first; a monorepo's hundreds of package manifests counted past the first ten. */
function manifestList(manifests: readonly string[]): string {
  if (manifests.length === 0) return 'none';
  const ordered = [...manifests].sort(
    (a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1),
  );
  const shown = ordered.slice(0, MAX_MANIFESTS_SHOWN).join(', ');
  const more = ordered.length - MAX_MANIFESTS_SHOWN;
  return more > 0 ? `${shown} and ${more} more` : shown;
}

const MAX_MANIFESTS_SHOWN = 10;
/** A path in an example, a demo or the docs. */
const EXAMPLES = /(^|\/)(examples?|samples?|demos?|docs?)\//i;

export function formatProjectType(type: ProjectType, truncated: boolean): string {
  const named = (items: Finding[]) => items.map((f) => `${f.name} (${f.from})`).join(', ');
  // What only examples, tests or docs use is said apart: a monorepo's examples are not the project's stack.
  const list = (items: Finding[], apart = isSupportFile) => {
    const own = items.filter((f) => !apart(f.from));
    const elsewhere = items.filter((f) => apart(f.from));
    const head = own.length === 0 ? 'none found' : named(own);
    return elsewhere.length === 0 ? head : `${head}; only in examples, tests or docs: ${named(elsewhere)}`;
  };
  const languages =
    type.languages.length === 0
      ? 'none recognised'
      : type.languages.map((l) => `${l.name} ${l.files} file${l.files === 1 ? '' : 's'}`).join(', ');
  return [
    `languages: ${languages}${truncated ? ' (first files only: the project is large)' : ''}`,
    `package managers: ${list(type.packageManagers)}`,
    `build tools: ${list(type.buildTools)}`,
    `frameworks: ${list(type.frameworks)}`,
    // A test tool is found in tests: only an example's or a doc's is apart.
    `test frameworks: ${list(type.testFrameworks, (from) => isSupportFile(from) && EXAMPLES.test(from))}`,
    `workspaces: ${list(type.workspaces)}`,
    `manifests: ${manifestList(type.manifests)}`,
  ].join('\n');
}
