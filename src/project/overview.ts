// get_project_overview's analysis: the README's opening section, the top-level layout with file counts, entry
// points, and a short repo map (signatures of the most referenced files) as the key modules.
import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import { loadCodeIndex } from '../code/code-index.js';
import { findProjectEntries, type ProjectEntries, resolveScriptEntry } from '../code/entry-points.js';
import { isSupportFile } from '../code/file-roles.js';
import { buildRepoMap } from '../code/repo-map.js';
import { packageJsonDependencies } from './dependencies.js';
import { type ProjectScan, prop } from './scan.js';

export interface ProjectOverview {
  readme?: { file: string; text: string };
  /** `src/ 120 files`, then the root's own files. */
  layout: string[];
  entryPoints: string[];
  /** Workspace packages (npm, yarn, pnpm, Cargo): `name: entry file`, or the entry file alone. */
  packages?: string[];
  keyModules?: string;
}

const README = /^readme(\.(md|markdown|rst|txt|adoc))?$/i;
const MAX_README_LINES = 40;
const MAX_README_CHARS = 2000;
const MAX_PACKAGES = 12;

/** Conventional entry points, by path. */
const ENTRY_FILES: readonly RegExp[] = [
  /^(src\/)?(main|index|app|server|cli)\.(ts|tsx|js|mjs|py|go|rs)$/,
  /^src\/(lib|main)\.rs$/,
  /^src\/bin\/[^/]+\.rs$/,
  /^cmd\/[^/]+\/main\.go$/,
  /^main\.go$/,
  /^lib\/main\.dart$/,
  /^bin\/[^/]+$/,
  /^manage\.py$/,
  /^[^/]+\/__main__\.py$/,
  /^src\/[^/]+\/__main__\.py$/,
  // Spring Boot's `@SpringBootApplication` class: PetClinicApplication.java.
  /^src\/main\/(java|kotlin)\/.*Application\.(java|kt)$/,
];

/** Web frameworks by their package, with the files their apps start from (what each is). */
const FRAMEWORK_ENTRIES: readonly [string, string, [string, string][]][] = [
  [
    'next',
    'Next.js',
    ['', 'src/'].flatMap((root): [string, string][] => [
      ...['tsx', 'jsx', 'js'].flatMap((e): [string, string][] => [
        [`${root}app/layout.${e}`, 'root layout, app router'],
        [`${root}app/page.${e}`, 'home page'],
        [`${root}pages/_app.${e}`, 'app, pages router'],
        [`${root}pages/index.${e}`, 'home page'],
      ]),
      [`${root}middleware.ts`, 'middleware'],
    ]),
  ],
  [
    'astro',
    'Astro',
    [
      ['src/pages/index.astro', 'home page'],
      ['src/layouts/Layout.astro', 'layout'],
      ['astro.config.mjs', 'config'],
      ['astro.config.ts', 'config'],
    ],
  ],
  [
    '@sveltejs/kit',
    'SvelteKit',
    [
      ['src/routes/+layout.svelte', 'root layout'],
      ['src/routes/+page.svelte', 'home page'],
      ['src/hooks.server.ts', 'server hooks'],
      ['src/hooks.server.js', 'server hooks'],
    ],
  ],
  [
    'nuxt',
    'Nuxt',
    [
      ['app.vue', 'app'],
      ['pages/index.vue', 'home page'],
      ['nuxt.config.ts', 'config'],
    ],
  ],
  [
    '@remix-run/react',
    'Remix',
    [
      ['app/root.tsx', 'root route'],
      ['app/routes/_index.tsx', 'home page'],
    ],
  ],
];

export interface OverviewOptions {
  signal: AbortSignal;
  cacheDir?: string;
  /** Tokens for the key-modules map; 0 leaves it out. */
  mapTokens: number;
}

export async function projectOverview(scan: ProjectScan, options: OverviewOptions): Promise<ProjectOverview> {
  const readmeFile = scan.files.find((f) => !f.includes('/') && README.test(f));
  const readmeText = readmeFile ? await scan.read(readmeFile) : undefined;
  const found = await findProjectEntries(scan.root, new Set(scan.files));
  return {
    ...(readmeFile && readmeText !== undefined
      ? { readme: { file: readmeFile, text: firstSection(readmeText) } }
      : {}),
    layout: layout(scan.files),
    entryPoints: await entryPoints(scan, found),
    ...workspacePackages(found),
    ...(options.mapTokens > 0 ? await keyModules(scan.root, options, scan.secretLink) : {}),
  };
}

/** The title and text up to the second heading, capped. */
/**
 * A README's text without what only renders as pictures: HTML comments, badges and images, HTML tags (their text
 * kept; `<h2>` as a heading), outside code fences; the blank lines they leave collapsed.
 */
function withoutMarkup(text: string): string {
  let fenced = false;
  const lines: string[] = [];
  for (const line of text.replace(/<!--[\s\S]*?-->/g, '').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || /^\s*(```|~~~)/.test(line)) {
      lines.push(line);
      continue;
    }
    // A line break in HTML is a space in the text it leaves.
    const broken = line.replace(/<br\s*\/?>/gi, ' ');
    const heading = /^\s*<h([1-6])[^>]*>(.*?)<\/h\1>\s*$/i.exec(broken);
    if (heading) {
      lines.push(`${'#'.repeat(Number(heading[1]))} ${heading[2]!.replace(/<[^>]+>/g, '').trim()}`);
      continue;
    }
    const stripped = broken
      .replace(/\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)/g, '')
      .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
      .replace(/<[^>]+>/g, '');
    // Text that was inside HTML keeps none of the HTML's indentation (it is no Markdown code block).
    const cleaned = stripped === broken ? stripped.trimEnd() : stripped.trim();
    // A thematic break (`---` after a blank line, not a heading's underline) draws nothing worth sending.
    if (/^ {0,3}([-*_])( *\1){2,} *$/.test(cleaned) && (lines.at(-1) ?? '').trim() === '') continue;
    // A line that was only markup goes; a blank line stays.
    if (cleaned.trim() !== '' || line.trim() === '') lines.push(cleaned);
  }
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+/, '');
}

export function firstSection(text: string): string {
  const lines = withoutMarkup(text.replace(/\r\n/g, '\n')).split('\n');
  const isHeading = (i: number) =>
    /^#{1,6}\s/.test(lines[i]!) || (lines[i]!.trim() !== '' && /^(=+|-+)\s*$/.test(lines[i + 1] ?? ''));
  // The section ends at the first heading after some text: the title (or the badges' place) opens it.
  let end = lines.length;
  let prose = false;
  for (let i = 0; i < lines.length; i++) {
    if (isHeading(i)) {
      if (prose) {
        end = i;
        break;
      }
      // A setext heading's underline is part of it.
      if (!/^#/.test(lines[i]!)) i++;
    } else if (lines[i]!.trim() !== '') prose = true;
  }
  const joined = lines.slice(0, Math.min(end, MAX_README_LINES)).join('\n').trim();
  return joined.length > MAX_README_CHARS ? `${joined.slice(0, MAX_README_CHARS)}…` : joined;
}

function layout(files: readonly string[]): string[] {
  const dirs = new Map<string, number>();
  const rootFiles: string[] = [];
  for (const f of files) {
    const slash = f.indexOf('/');
    if (slash < 0) rootFiles.push(f);
    else dirs.set(f.slice(0, slash), (dirs.get(f.slice(0, slash)) ?? 0) + 1);
  }
  const lines = [...dirs]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([dir, n]) => `${dir}/ ${n} file${n === 1 ? '' : 's'}${subdirs(files, dir)}`);
  if (rootFiles.length > 0)
    lines.push(
      `files at the root: ${rootFiles.slice(0, 30).join(', ')}${rootFiles.length > 30 ? ', …' : ''}`,
    );
  return lines;
}

/** ` (a/, b/, …)`: a directory's own subdirectories, the next level of the layout. */
function subdirs(files: readonly string[], dir: string): string {
  const names = new Set<string>();
  for (const f of files) {
    if (!f.startsWith(`${dir}/`)) continue;
    const parts = f.slice(dir.length + 1).split('/');
    if (parts.length > 1) names.add(`${parts[0]}/`);
  }
  const list = [...names].sort();
  if (list.length === 0) return '';
  return ` (${list.slice(0, 8).join(', ')}${list.length > 8 ? ', …' : ''})`;
}

async function entryPoints(scan: ProjectScan, found: ProjectEntries): Promise<string[]> {
  /** Each entry file with why it is one (several reasons for one file are said together). */
  const out = new Map<string, string[]>();
  const add = (file: string, why?: string) => {
    const reasons = out.get(file) ?? [];
    if (why && !reasons.includes(why)) reasons.push(why);
    out.set(file, reasons);
  };
  const pkg = await scan.readJson('package.json');
  const files = new Set(scan.files);
  // A declared file the build makes (date-fns' main is index.cjs) is named with the source it is built from.
  const declared = (value: string, why: string) => {
    const file = posix.normalize(value);
    // A walk cut short may have missed it.
    if (files.has(file) || (scan.truncated && existsSync(join(scan.root, file)))) return add(file, why);
    const source = resolveScriptEntry('', file, files, false);
    if (source) return add(source, `${why}, built to ${file}`);
    const likely = resolveScriptEntry('', file, files);
    add(file, `${why}; built, not in the repository${likely ? `; its source is likely ${likely}` : ''}`);
  };
  for (const key of ['main', 'module', 'types']) {
    const value = pkg?.[key];
    if (typeof value === 'string') declared(value, `package.json ${key}`);
  }
  const bin = pkg?.bin;
  if (typeof bin === 'string') declared(bin, 'package.json bin');
  else if (typeof bin === 'object' && bin !== null)
    for (const [name, file] of Object.entries(bin)) declared(String(file), `package.json bin: ${name}`);
  const exported = prop(pkg, 'exports', '.');
  if (typeof exported === 'string') declared(exported, 'package.json exports');
  const pyproject = (await scan.read('pyproject.toml')) ?? '';
  const scriptsBlock = /^\[project\.scripts\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(pyproject)?.[1] ?? '';
  for (const m of scriptsBlock.matchAll(/^\s*([\w.-]+)\s*=\s*["']([^"']+)["']/gm))
    add(m[2]!, `pyproject script: ${m[1]}`);
  // The package pyproject.toml makes and Cargo.toml's crate, as the map finds them: a library's API.
  for (const entry of found.entryPoints)
    if (entry.endsWith('.py')) add(entry, 'the package pyproject.toml names');
    else if (entry.endsWith('.rs')) add(entry, "the crate's root");
  for (const f of scan.files) if (ENTRY_FILES.some((re) => re.test(f))) add(f);
  // A web framework's app starts where its routes do: Next.js's root layout, Astro's and SvelteKit's first pages.
  const deps = new Set(packageJsonDependencies(pkg));
  for (const [dependency, framework, entries] of FRAMEWORK_ENTRIES)
    if (deps.has(dependency))
      for (const [file, what] of entries) if (files.has(file)) add(file, `${framework} ${what}`);
  return [...out]
    .slice(0, 20)
    .map(([file, reasons]) => (reasons.length > 0 ? `${file} (${reasons.join('; ')})` : file));
}

/** A monorepo's packages with their entry files, as the map resolves `import … from '@scope/pkg'` to them. */
function workspacePackages(found: ProjectEntries): { packages?: string[] } {
  const named = new Set(found.packages.values());
  const packages = [
    ...[...found.packages].map(([name, entry]) => ({ entry, text: `${name}: ${entry}` })),
    ...found.packageEntryPoints.filter((entry) => !named.has(entry)).map((entry) => ({ entry, text: entry })),
  ];
  // The project's own packages before its examples, tests and docs.
  const order = (entry: string) => (isSupportFile(entry) ? 1 : 0);
  packages.sort((a, b) => order(a.entry) - order(b.entry));
  return packages.length === 0 ? {} : { packages: packages.map((p) => p.text) };
}

/** The repo map at a small budget; a project in no language the map reads, or a parser that fails, has none. */
async function keyModules(
  root: string,
  options: OverviewOptions,
  secretLink: ProjectScan['secretLink'],
): Promise<{ keyModules?: string }> {
  try {
    const index = await loadCodeIndex(root, {
      signal: options.signal,
      ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
      ...(secretLink ? { secretLink } : {}),
    });
    const map = buildRepoMap(index, options.mapTokens, '');
    return map.total === 0 ? {} : { keyModules: map.text };
  } catch {
    options.signal.throwIfAborted();
    return {};
  }
}

export function formatOverview(o: ProjectOverview): string {
  const parts: string[] = [];
  parts.push(o.readme ? `${o.readme.file} (opening section):\n${o.readme.text}` : 'README: none found');
  parts.push(`layout:\n${o.layout.map((l) => `  ${l}`).join('\n') || '  (empty)'}`);
  parts.push(
    o.entryPoints.length === 0
      ? 'entry points: none recognised'
      : `entry points:\n${o.entryPoints.map((e) => `  ${e}`).join('\n')}`,
  );
  if (o.packages) {
    const shown = o.packages.slice(0, MAX_PACKAGES).map((p) => `  ${p}`);
    if (o.packages.length > MAX_PACKAGES) shown.push(`  and ${o.packages.length - MAX_PACKAGES} more`);
    parts.push(`workspace packages (${o.packages.length}):\n${shown.join('\n')}`);
  }
  if (o.keyModules) parts.push(`key modules (signatures, most referenced first):\n${o.keyModules}`);
  return parts.join('\n\n');
}
