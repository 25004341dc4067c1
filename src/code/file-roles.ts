// Which files are the project's own core and which support it (tests, fixtures, examples, benchmarks, docs,
// generated and vendored code): the map ranks the latter last, whatever references they hold.

/** Directory names whose files test, demonstrate, measure or copy the code rather than make it up. */
const SUPPORT_DIRS = new Set([
  'test',
  'tests',
  '__tests__',
  'spec',
  'specs',
  'e2e',
  'testdata',
  'test_data',
  'testing',
  'fixture',
  'fixtures',
  '__fixtures__',
  '__mocks__',
  'mocks',
  'example',
  'examples',
  'sample',
  'samples',
  'demo',
  'demos',
  'bench',
  'benches',
  'benchmark',
  'benchmarks',
  'docs',
  'doc',
  'generated',
  '__generated__',
  'gen',
  'vendor',
  'vendored',
  'third_party',
  'thirdparty',
  'external',
  'website',
  'playground',
  'playgrounds',
  'storybook',
  'stories',
  'tutorial',
  'tutorials',
]);

/** `docs_src` (FastAPI's tutorial code), `docs-site`, `examples_py`, `test-utils`: such a folder with a suffix. */
const SUPPORT_DIR_PREFIX = /^(docs?|examples?|samples?|tests?|demos?|benchmarks?|fixtures?)[_-]/i;

/** A dot folder (`.github/actions/…`, `.storybook`, `.vitepress`, `.husky`) holds the tooling's files, not the product. */
const isSupportDir = (dir: string) =>
  SUPPORT_DIRS.has(dir.toLowerCase()) ||
  SUPPORT_DIR_PREFIX.test(dir) ||
  (dir.startsWith('.') && dir.length > 1);

/** File names of tests, test configuration and generated or minified code. */
const SUPPORT_FILES = [
  /\.(test|spec|e2e|bench|stories)\.[^.]+$/,
  /^test_.*\.py$/,
  /_test\.(py|go|dart)$/,
  /^conftest\.py$/,
  // date-fns keeps each function's tests beside it: src/addDays/test.ts.
  /^(tests?|spec|benchmark)\.[cm]?[jt]sx?$/,
  /Tests?\.java$/,
  /\.min\.[cm]?js$/,
  /[._-]generated\.[^.]+$/,
  /_pb2(_grpc)?\.pyi?$/,
  /\.pb(\.gw)?\.go$/,
  /\.(g|freezed)\.dart$/,
];

/**
 * A JVM source root (Maven's and Gradle's `src/main/java/`, `src/test/kotlin/`): the folders under it are a
 * package's name (`org/springframework/samples/petclinic`), not the project's layout.
 */
const JVM_SOURCE_ROOT = /^((?:.*\/)?)src\/([A-Za-z]+)\/(?:java|kotlin|scala|groovy)\//;

/** True for a workspace-relative path (with `/`) of a test, fixture, example, benchmark, doc, generated or vendored file. */
export function isSupportFile(path: string): boolean {
  const jvm = JVM_SOURCE_ROOT.exec(path);
  if (jvm) {
    // `src/test/java/…`, `src/testFixtures/…`, `src/integrationTest/…` are tests; `src/main/java/…` is the code.
    const sourceSet = jvm[2]!.toLowerCase();
    return sourceSet !== 'main' || jvm[1]!.split('/').some(isSupportDir);
  }
  const parts = path.split('/');
  const base = parts.pop()!;
  if (parts.some(isSupportDir)) return true;
  return SUPPORT_FILES.some((pattern) => pattern.test(base));
}

/**
 * Build and tool configuration (`vite.config.ts`, `eslint.config.js`, `setup.py`, `noxfile.py`): the project's
 * settings, not its code. Not a support file where Keel tells the project's stack (it names its build tools).
 */
const CONFIG_FILES = [/\.config\.[cm]?[jt]sx?$/, /^(setup|noxfile)\.py$/, /^[Gg](runt|ulp)file\.[cm]?[jt]s$/];

/** True for a workspace-relative path of a build or tool configuration file. */
export function isConfigFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return CONFIG_FILES.some((pattern) => pattern.test(base));
}

/** Go's build-constraint suffixes (`conn_windows.go`, `sys_linux_amd64.go`): the file builds for that system only. */
const GO_PLATFORM =
  /_(windows|linux|darwin|freebsd|netbsd|openbsd|dragonfly|solaris|illumos|aix|plan9|android|ios|js|wasip1|zos)(_[a-z0-9]+)?\.go$/;
/** Words naming one operating system wherever they stand in a file's name (`win32.py`, `term_darwin.ts`). */
const PLATFORM_WORDS = new Set(
  'win32 win64 winapi wincon winconsole winterm darwin macos osx cygwin mingw msvc linux'.split(' '),
);
/** Words that name a system in a private module's name only (`_windows.py`, `_posix.py`); elsewhere a window or a word. */
const PRIVATE_PLATFORM_WORDS = new Set(['win', 'windows', 'nt', 'posix', 'unix']);

/**
 * A platform shim: a file for one operating system (click's `_winconsole.py`, rich's `_windows.py`, Go's
 * `*_windows.go`). The code on every other system does without it, so what it is used by says less.
 */
export function isPlatformFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (GO_PLATFORM.test(base)) return true;
  const stem = base.replace(/\..*$/, '');
  const words = stem
    .toLowerCase()
    .split(/[_.-]+/)
    .filter(Boolean);
  return words.some((w) => PLATFORM_WORDS.has(w) || (stem.startsWith('_') && PRIVATE_PLATFORM_WORDS.has(w)));
}

/** True for a workspace-relative folder (with `/`; '' the root) in or under a test, example, doc… folder. */
export function isSupportFolder(folder: string): boolean {
  return folder !== '' && folder.split('/').some(isSupportDir);
}

/** Generated text, by the marker tools put in its first lines: kept in the index, ranked last. */
export function isGeneratedText(source: string): boolean {
  return /@generated\b|\bDO NOT EDIT\b|\bauto-?generated\b|\bautomatically generated\b/i.test(
    source.slice(0, 600),
  );
}

/** Minified text (long, with few line breaks): its definitions would cost a parse and tell nothing. */
export function isMinifiedText(source: string): boolean {
  if (source.length < 20_000) return false;
  let breaks = 0;
  for (let at = source.indexOf('\n'); at >= 0; at = source.indexOf('\n', at + 1)) breaks += 1;
  return source.length / (breaks + 1) > 500;
}
