// The dependency names each manifest format declares, read cheaply (regular expressions, no TOML/YAML parser):
// enough to recognise frameworks and test tools, not to resolve versions.
import { keysOf, type ProjectScan, tomlSection } from './scan.js';

export interface ManifestDeps {
  manifest: string;
  /** Declared dependency names, as the ecosystem spells them. */
  names: string[];
  /** Match signals by prefix (`spring-boot` in `spring-boot-starter-web`, Go module paths with `/v2`). */
  prefix: boolean;
}

const readers: Record<
  string,
  (text: string, scan: ProjectScan, file: string) => Promise<string[]> | string[]
> = {
  'package.json': async (_text, scan, file) => packageJsonDependencies(await scan.readJson(file)),
  'composer.json': async (_text, scan, file) => {
    const json = await scan.readJson(file);
    return [...keysOf(json?.require), ...keysOf(json?.['require-dev'])];
  },
  'pyproject.toml': (text) => [
    // PEP 621 lists ("fastapi>=0.110", "pytest ; extra == 'test'") and Poetry tables (`fastapi = "^0.110"`).
    ...[...text.matchAll(/^\s*["']([A-Za-z0-9_.-]+)/gm)].map((m) => m[1]!),
    // [build-system] requires = ["pdm-backend"], on one line: the build backend.
    ...[...text.matchAll(/^\s*requires\s*=\s*\[([^\]]*)\]/gm)].flatMap((m) =>
      [...m[1]!.matchAll(/["']([A-Za-z0-9_.-]+)/g)].map((n) => n[1]!),
    ),
    ...sectionsMatching(text, /^tool\.poetry\..*dependencies$/).flatMap((block) =>
      [...block.matchAll(/^\s*([A-Za-z0-9_.-]+)\s*=/gm)].map((m) => m[1]!),
    ),
  ],
  'requirements.txt': (text) => [...text.matchAll(/^\s*([A-Za-z0-9_.-]+)/gm)].map((m) => m[1]!),
  'requirements-dev.txt': (text) => [...text.matchAll(/^\s*([A-Za-z0-9_.-]+)/gm)].map((m) => m[1]!),
  Pipfile: (text) =>
    sectionsMatching(text, /packages/).flatMap((block) =>
      [...block.matchAll(/^\s*([A-Za-z0-9_.-]+)\s*=/gm)].map((m) => m[1]!),
    ),
  'Cargo.toml': (text) =>
    sectionsMatching(text, /dependencies$/).flatMap((block) =>
      [...block.matchAll(/^\s*([A-Za-z0-9_-]+)\s*=/gm)].map((m) => m[1]!),
    ),
  'go.mod': (text) =>
    [...text.matchAll(/^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]+\/[^\s]+)\s+v/gm)].map((m) => m[1]!),
  'pom.xml': (text) => [...text.matchAll(/<artifactId>\s*([^<\s]+)\s*<\/artifactId>/g)].map((m) => m[1]!),
  'build.gradle': gradle,
  'build.gradle.kts': gradle,
  'pubspec.yaml': (text) => yamlBlockKeys(text, ['dependencies', 'dev_dependencies']),
  Gemfile: (text) => [...text.matchAll(/^\s*gem\s+["']([^"']+)/gm)].map((m) => m[1]!),
  'mix.exs': (text) => [...text.matchAll(/\{:([a-z0-9_]+)\s*,/g)].map((m) => m[1]!),
};

const PREFIX_MATCHED = new Set(['go.mod', 'pom.xml', 'build.gradle', 'build.gradle.kts']);

function gradle(text: string): string[] {
  const names = [...text.matchAll(/["'][\w.-]+:([\w.-]+)(?::[^"']*)?["']/g)].map((m) => m[1]!);
  if (text.includes('org.springframework.boot')) names.push('spring-boot');
  return names;
}

/** The bodies of the TOML sections whose header matches. */
function sectionsMatching(text: string, header: RegExp): string[] {
  const headers = [...text.matchAll(/^\s*\[([^\]]+)\]\s*$/gm)].map((m) => m[1]!.trim());
  return headers.filter((h) => header.test(h)).map((h) => tomlSection(text, h));
}

/** Keys one level under the given top-level YAML keys (pubspec's `dependencies:` block). */
function yamlBlockKeys(text: string, blocks: string[]): string[] {
  const names: string[] = [];
  let inBlock = false;
  for (const line of text.split(/\r?\n/)) {
    const top = /^([A-Za-z_][\w-]*):/.exec(line);
    if (top) {
      inBlock = blocks.includes(top[1]!);
      continue;
    }
    const child = /^ {2}([A-Za-z_][\w-]*):/.exec(line);
    if (inBlock && child) names.push(child[1]!);
  }
  return names;
}

/** The dependencies of every manifest at most two directories deep. */
/** The names a package.json declares as dependencies of any kind. */
export function packageJsonDependencies(json: unknown): string[] {
  const pkg = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  return ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((k) =>
    keysOf(pkg[k]),
  );
}

/** The reader of a manifest: by its name, and any pip requirements file (`requirements-test.txt`, `requirements/base.txt`). */
function readerOf(file: string) {
  const base = file.split('/').at(-1)!;
  if (Object.hasOwn(readers, base)) return readers[base];
  return /^requirements[\w.-]*\.txt$/.test(base) || /(^|\/)requirements\/[\w.-]+\.txt$/.test(file)
    ? readers['requirements.txt']
    : undefined;
}

export async function readDependencies(scan: ProjectScan, manifests: string[]): Promise<ManifestDeps[]> {
  const found: ManifestDeps[] = [];
  for (const manifest of manifests) {
    const base = manifest.split('/').at(-1)!;
    const reader = readerOf(manifest);
    if (!reader) continue;
    const text = await scan.read(manifest);
    if (text === undefined) continue;
    const names = [...new Set(await reader(text, scan, manifest))];
    found.push({ manifest, names, prefix: PREFIX_MATCHED.has(base) });
  }
  return found;
}

export function isManifest(file: string): boolean {
  return readerOf(file) !== undefined;
}

/** Whether `signal` (a dependency name from the signals table) is among the declared names (PEP 503 spelling tolerated). */
export function declares(deps: ManifestDeps, signal: string): boolean {
  const normal = (name: string) => name.toLowerCase().replace(/[_.]/g, '-');
  const wanted = normal(signal);
  return deps.names.some((raw) => {
    const name = normal(raw);
    return (
      name === wanted || (deps.prefix && (name.startsWith(`${wanted}-`) || name.startsWith(`${wanted}/`)))
    );
  });
}
