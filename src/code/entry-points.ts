// A project's declared entry points, read from its manifests (package.json main/module/exports/bin, pyproject.toml
// packages and scripts, go.mod, Cargo.toml lib and bin) and mapped to the source files of the index: a built
// `dist/index.js` is the `src/index.ts` it was compiled from. The map ranks these files first.
import { promises as fs } from 'node:fs';
import { posix } from 'node:path';
import { parse } from 'yaml';
import { packageJsonDependencies } from '../project/dependencies.js';
import { keyValue, stripJsonComments, tomlSection } from '../project/scan.js';

/** An import specifier pattern (`@/*`, `~lib`) and the workspace-relative paths it stands for (`src/*`). */
export interface PathAlias {
  pattern: string;
  targets: string[];
  /** A workspace package's folder whose files alone use it (its own tsconfig's `paths`); none: every file. */
  scope?: string;
}

export interface ProjectEntries {
  /** Source files the root manifests name, in manifest order. */
  entryPoints: string[];
  /** Entry files of workspace packages (package.json workspaces, pnpm-workspace.yaml, uv and Cargo workspace members). */
  packageEntryPoints: string[];
  /** Workspace package name → its entry file, so `import … from '@scope/pkg'` resolves inside the repository. */
  packages: Map<string, string>;
  /** A workspace package's exported subpaths (`@scope/pkg/utils`, from its `exports`) → their source files. */
  subpaths: Map<string, string>;
  /** The root tsconfig's (or jsconfig's) `paths` and `baseUrl`: `@/*` → `src/*`, workspace-relative. */
  aliases: PathAlias[];
  /** go.mod's module path. */
  goModule?: string;
}

const SCRIPT_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** Directories build tools write to; the sources they come from sit in one of SOURCE_DIRS. */
const BUILD_DIRS = new Set([
  'dist',
  'distribution',
  'build',
  'lib',
  'out',
  'esm',
  'cjs',
  'es',
  'umd',
  'types',
]);
const SOURCE_DIRS = ['src', 'source', 'lib', ''];

/** Every string leaf of a package.json `exports`/`bin` value (conditions, subpaths, arrays). */
function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(leaves);
  return [];
}

/** The paths (relative to the manifest's directory) a package.json declares as entry points, most important first. */
export function packageJsonEntries(json: unknown): string[] {
  if (typeof json !== 'object' || json === null) return [];
  const pkg = json as Record<string, unknown>;
  const declared = [
    ...leaves(pkg.exports),
    ...leaves(pkg.module),
    ...leaves(pkg.main),
    ...leaves(pkg.source),
    ...leaves(pkg.bin),
  ].filter((p) => !/\.(d\.[cm]?ts|json|css|map)$/.test(p) && !p.includes('*'));
  const paths = declared.map((p) => posix.normalize(p).replace(/^\.\//, ''));
  // Without a declaration Node loads index.js; TypeScript projects keep it under src/.
  if (paths.length === 0) paths.push('index.js');
  return [...new Set(paths)];
}

/**
 * The subpaths a package.json `exports` declares (`"./utils": {...}` → `utils`), each with the source file its
 * target was built from; patterns (`./*`) and subpaths whose source is not found are left out.
 */
export function exportedSubpaths(
  dir: string,
  pkg: { exports?: unknown },
  files: ReadonlySet<string>,
): [string, string][] {
  const exports = pkg.exports;
  if (typeof exports !== 'object' || exports === null || Array.isArray(exports)) return [];
  const found: [string, string][] = [];
  for (const [key, value] of Object.entries(exports)) {
    if (!key.startsWith('./') || key === './' || key.includes('*') || key === './package.json') continue;
    const source = leaves(value)
      .filter((p) => !/\.(d\.[cm]?ts|json|css|map)$/.test(p))
      .map((p) => resolveScriptEntry(dir, posix.normalize(p).replace(/^\.\//, ''), files, false))
      .find(Boolean);
    if (source) found.push([key.slice(2), source]);
  }
  return found;
}

/**
 * The source file an entry path names: itself, or the source a build directory's file was compiled from; with
 * `fallback`, a conventional entry file (src/index.ts) when neither is found.
 */
export function resolveScriptEntry(
  dir: string,
  entry: string,
  files: ReadonlySet<string>,
  fallback = true,
): string | undefined {
  const stem = entry.replace(/\.(d\.)?[cm]?[jt]sx?$/, '');
  const parts = stem.split('/');
  const rests = [parts.join('/')];
  // dist/esm/index.js → index; build/src/cli.js → src/cli.
  let skip = 0;
  while (skip < parts.length - 1 && BUILD_DIRS.has(parts[skip]!)) rests.push(parts.slice(++skip).join('/'));
  const direct = posix.join(dir, entry);
  if (files.has(direct)) return direct;
  for (const rest of rests) {
    for (const source of rest === rests[0] ? [''] : SOURCE_DIRS) {
      for (const name of [rest, `${rest}/index`]) {
        const base = posix.join(dir, source, name);
        for (const ext of SCRIPT_EXTENSIONS) if (files.has(base + ext)) return base + ext;
      }
    }
  }
  if (!fallback) return undefined;
  // The conventional places when the declared file names nothing in the repository.
  for (const candidate of ['src/index', 'source/index', 'index', 'lib/index', 'src/main', 'main'])
    for (const ext of SCRIPT_EXTENSIONS)
      if (files.has(posix.join(dir, candidate + ext))) return posix.join(dir, candidate + ext);
  return undefined;
}

/** A Python package or module by dotted name, where packaging tools look for it (root, src/, lib/). */
export function resolvePythonModule(
  dir: string,
  dotted: string,
  files: ReadonlySet<string>,
): string | undefined {
  const rel = dotted.replace(/-/g, '_').split('.').join('/');
  for (const prefix of ['', 'src', 'lib', 'python'])
    for (const candidate of [`${rel}/__init__.py`, `${rel}.py`]) {
      const full = posix.join(dir, prefix, candidate);
      if (files.has(full)) return full;
    }
  return undefined;
}

/** The package and module names a pyproject.toml declares: the project's name, listed packages, script modules. */
export function pyprojectModules(text: string): string[] {
  const names: string[] = [];
  const project =
    keyValue(tomlSection(text, 'project'), 'name') ?? keyValue(tomlSection(text, 'tool.poetry'), 'name');
  if (project) names.push(project.toLowerCase());
  const listed = /^\s*packages\s*=\s*\[([^\]]*)\]/m.exec(tomlSection(text, 'tool.setuptools'))?.[1];
  for (const m of listed?.matchAll(/["']([\w.]+)["']/g) ?? []) names.push(m[1]!);
  for (const m of tomlSection(text, 'tool.poetry').matchAll(/include\s*=\s*["']([\w.]+)["']/g))
    names.push(m[1]!);
  for (const header of ['project.scripts', 'tool.poetry.scripts', 'project.gui-scripts'])
    for (const m of tomlSection(text, header).matchAll(/=\s*["']([\w.]+):/g)) names.push(m[1]!);
  return [...new Set(names)];
}

/** The crate roots a Cargo.toml declares: [lib] and [[bin]] paths, or Cargo's defaults. */
export function cargoEntries(text: string): string[] {
  // A [lib]'s or a [[bin]]'s path; a [[test]]'s, [[bench]]'s or [[example]]'s is no entry point of the crate's.
  const paths: string[] = [];
  for (const section of text.split(/^(?=\s*\[)/m)) {
    if (!/^\s*\[(lib|\[bin\])\]/.test(section)) continue;
    const path = /^\s*path\s*=\s*["']([^"']+\.rs)["']/m.exec(section)?.[1];
    if (path) paths.push(path);
  }
  return [...paths, 'src/lib.rs', 'src/main.rs'];
}

/** The strings of a TOML array `key = ["a", "b"]` (over lines too) in a section's text. */
function tomlList(section: string, key: string): string[] {
  const list = new RegExp(`^\\s*${key}\\s*=\\s*\\[([^\\]]*)\\]`, 'm').exec(section)?.[1] ?? '';
  return [...list.matchAll(/["']([^"']+)["']/g)].map((m) => m[1]!);
}

/** Workspace member globs (`packages/*`, `crates/core`) → the index directories they match. */
function membersOf(globs: string[], dirs: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const glob of globs) {
    const clean = posix.normalize(glob.replace(/^\.\//, '')).replace(/\/$/, '');
    if (!clean.endsWith('/*') && !clean.endsWith('/**')) {
      if (dirs.has(clean)) found.push(clean);
      continue;
    }
    const parent = clean.replace(/\/\*\*?$/, '');
    for (const dir of dirs) if (posix.dirname(dir) === parent) found.push(dir);
  }
  return [...new Set(found)].sort();
}

const readText = (file: string) => fs.readFile(file, 'utf8').catch(() => undefined);

/** The member globs of a pnpm-workspace.yaml (`packages:`), none when it is absent or no YAML. */
export function pnpmPackages(text: string | undefined): string[] {
  if (text === undefined) return [];
  try {
    return leaves((parse(text) as { packages?: unknown } | null)?.packages);
  } catch {
    return [];
  }
}

async function readJson(file: string): Promise<unknown> {
  const text = await readText(file);
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A tsconfig's compiler options, following a relative `extends` (a few levels) for what it does not set itself. */
async function compilerOptions(
  root: string,
  config: string,
  depth = 0,
): Promise<{ dir: string; paths?: unknown; baseUrl?: string } | undefined> {
  // Only configs inside the workspace: an `extends` climbing out of it is not followed.
  if (config.startsWith('../') || posix.isAbsolute(config)) return undefined;
  const text = await readText(posix.join(root, config));
  if (text === undefined) return undefined;
  let json: { extends?: unknown; compilerOptions?: { paths?: unknown; baseUrl?: unknown } };
  try {
    json = JSON.parse(stripJsonComments(text));
  } catch {
    return undefined;
  }
  const dir = posix.dirname(config);
  const own = json.compilerOptions ?? {};
  const base =
    typeof json.extends === 'string' && json.extends.startsWith('.') && depth < 4
      ? await compilerOptions(
          root,
          posix.join(dir, json.extends.endsWith('.json') ? json.extends : `${json.extends}.json`),
          depth + 1,
        )
      : undefined;
  // `paths` and `baseUrl` resolve against the config that sets them.
  const baseUrl = typeof own.baseUrl === 'string' ? posix.join(dir, own.baseUrl) : base?.baseUrl;
  if (own.paths !== undefined)
    return { dir, paths: own.paths, ...(baseUrl !== undefined ? { baseUrl } : {}) };
  return base
    ? { ...base, ...(baseUrl !== undefined ? { baseUrl } : {}) }
    : { dir, ...(baseUrl !== undefined ? { baseUrl } : {}) };
}

/**
 * The import aliases of the tsconfig.json (else jsconfig.json) in `dir` ('' the root): its `paths`, and `baseUrl` as
 * `*`; a package folder's are scoped to it.
 */
async function configAliases(root: string, dir = ''): Promise<PathAlias[]> {
  const at = (name: string) => (dir ? `${dir}/${name}` : name);
  const options =
    (await compilerOptions(root, at('tsconfig.json'))) ?? (await compilerOptions(root, at('jsconfig.json')));
  if (!options) return [];
  const from = options.baseUrl ?? options.dir;
  const scope = dir ? { scope: dir } : {};
  const aliases: PathAlias[] = [];
  if (typeof options.paths === 'object' && options.paths !== null)
    for (const [pattern, targets] of Object.entries(options.paths)) {
      const list = (Array.isArray(targets) ? targets : []).filter((t): t is string => typeof t === 'string');
      aliases.push({ pattern, targets: list.map((t) => posix.normalize(posix.join(from, t))), ...scope });
    }
  // With a baseUrl, `components/Button` is looked up under it too.
  if (options.baseUrl !== undefined)
    aliases.push({ pattern: '*', targets: [posix.join(posix.normalize(options.baseUrl), '*')], ...scope });
  return aliases;
}

/** Reads the root's manifests (and its workspace packages') against the index's files. */
export async function findProjectEntries(root: string, files: ReadonlySet<string>): Promise<ProjectEntries> {
  const result: ProjectEntries = {
    entryPoints: [],
    packageEntryPoints: [],
    packages: new Map(),
    subpaths: new Map(),
    aliases: await configAliases(root),
  };
  const dirs = new Set<string>();
  for (const file of files)
    for (let d = posix.dirname(file); d !== '.' && !dirs.has(d); d = posix.dirname(d)) dirs.add(d);
  const add = (list: string[], file: string | undefined) => {
    if (file && !list.includes(file)) list.push(file);
  };

  const pkg = await readJson(posix.join(root, 'package.json'));
  // SvelteKit's `$lib` (from its generated tsconfig, absent before a build): src/lib.
  if (
    packageJsonDependencies(pkg).includes('@sveltejs/kit') &&
    !result.aliases.some((a) => a.pattern.startsWith('$lib'))
  )
    result.aliases.push(
      { pattern: '$lib', targets: ['src/lib'] },
      { pattern: '$lib/*', targets: ['src/lib/*'] },
    );
  if (pkg !== undefined) {
    for (const entry of packageJsonEntries(pkg))
      add(result.entryPoints, resolveScriptEntry('', entry, files));
    const ws = (pkg as { workspaces?: unknown }).workspaces;
    const globs = [
      ...leaves(Array.isArray(ws) ? ws : (ws as { packages?: unknown } | undefined)?.packages),
      ...pnpmPackages(await readText(posix.join(root, 'pnpm-workspace.yaml'))),
    ].filter((glob) => !glob.startsWith('!'));
    for (const dir of membersOf(globs, dirs)) {
      const member = (await readJson(posix.join(root, dir, 'package.json'))) as
        | { name?: unknown; exports?: unknown }
        | undefined;
      if (!member) continue;
      const entry = packageJsonEntries(member)
        .map((e) => resolveScriptEntry(dir, e, files))
        .find(Boolean);
      add(result.packageEntryPoints, entry);
      // A package's own paths (a Turborepo app's `@/*`) hold for its files, before the root's.
      result.aliases.unshift(...(await configAliases(root, dir)));
      if (entry && typeof member.name === 'string') result.packages.set(member.name, entry);
      if (typeof member.name === 'string')
        for (const [subpath, file] of exportedSubpaths(dir, member, files))
          result.subpaths.set(`${member.name}/${subpath}`, file);
    }
  }
  const pyproject = await readText(posix.join(root, 'pyproject.toml'));
  if (pyproject !== undefined) {
    for (const name of pyprojectModules(pyproject))
      add(result.entryPoints, resolvePythonModule('', name, files));
    // A uv workspace's members: each a Python package of its own.
    for (const dir of membersOf(tomlList(tomlSection(pyproject, 'tool.uv.workspace'), 'members'), dirs)) {
      const member = await readText(posix.join(root, dir, 'pyproject.toml'));
      const entry =
        member &&
        pyprojectModules(member)
          .map((name) => resolvePythonModule(dir, name, files))
          .find(Boolean);
      add(result.packageEntryPoints, entry);
    }
  }
  const goMod = await readText(posix.join(root, 'go.mod'));
  const goModule = goMod && /^module\s+(\S+)/m.exec(goMod)?.[1];
  if (goModule) {
    result.goModule = goModule;
    for (const file of files)
      if (/^(cmd\/[^/]+\/)?[^/]+\.go$/.test(file) && !file.endsWith('_test.go'))
        add(result.entryPoints, file);
  }
  const cargo = await readText(posix.join(root, 'Cargo.toml'));
  if (cargo !== undefined) {
    for (const entry of cargoEntries(cargo)) if (files.has(entry)) add(result.entryPoints, entry);
    for (const dir of membersOf(tomlList(tomlSection(cargo, 'workspace'), 'members'), dirs))
      for (const entry of ['src/lib.rs', 'src/main.rs'])
        if (files.has(posix.join(dir, entry))) add(result.packageEntryPoints, posix.join(dir, entry));
  }
  return result;
}
