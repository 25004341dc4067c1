// Builds the CLI: esbuild bundles src/ into dist/keel.cjs; dist/keel.js is the launcher (CommonJS, as
// dist/package.json says) that runs it through a V8 code cache (dist/keel.cache) made here by a warm-up run. The
// library is dist/lib/ (ES modules, as dist/lib/package.json says). Modules reached through dynamic import() are
// wrapped by esbuild and only evaluated when first used, so start-up stays fast.
import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { buildChunks, chunkImports } from './chunks.mjs';
import {
  lazyBuiltinModules,
  lazyEventSourceStream,
  lightHeaders,
  zodNamespaceImports,
} from './startup-plugins.mjs';

// zod bundles error messages in ~40 languages behind one namespace export; Keel only uses English,
// so the locale index is replaced by one that exports `en` alone (halves zod's share of the bundle).
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes('/node_modules/zod/')
        ? { path: args.importer, namespace: 'zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: dirname(args.path),
    }));
  },
};

// The AI SDK's provider-utils imports zod v3 only for its ZodFirstPartyTypeKind enum (type names, each its own
// string), to convert v3 schemas Keel never hands it; importing zod/v3 there evaluated all of v3 (58 KB) before
// the first request. The enum is copied here from zod's source instead; other packages still get zod v3 itself.
const zodV3KindsOnly = {
  name: 'zod-v3-kinds-only',
  setup(build) {
    build.onResolve({ filter: /^zod\/v3$/ }, (args) =>
      args.importer.includes('/node_modules/@ai-sdk/provider-utils/')
        ? { path: 'zod-v3-kinds', namespace: 'zod-v3-kinds' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-v3-kinds' }, async () => {
      const types = await readFile(new URL('../node_modules/zod/v3/types.js', import.meta.url), 'utf8');
      const kinds = [...types.matchAll(/ZodFirstPartyTypeKind\["(\w+)"\] = "(\w+)";/g)].map(
        ([, key, value]) => {
          if (key !== value)
            throw new Error(`zod v3's ZodFirstPartyTypeKind.${key} is "${value}", not its name`);
          return key;
        },
      );
      if (!kinds.includes('ZodString') || !kinds.includes('ZodObject'))
        throw new Error("zod v3's ZodFirstPartyTypeKind was not found in zod/v3/types.js");
      const entries = kinds.map((kind) => `${kind}: '${kind}'`).join(', ');
      return { contents: `export const ZodFirstPartyTypeKind = { ${entries} };`, loader: 'js' };
    });
  },
};

// src/tools/builtins.ts imports every tool for the tests; in the CLI each import becomes a require() inside the
// tool's loader, so a tool's module (its zod schema, its helpers) is evaluated when the tool is first used.
const lazyBuiltinTools = {
  name: 'lazy-builtin-tools',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]tools[\\/]builtins\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const imports = [...source.matchAll(/^import \{ (\w+) \} from '(\.\/[\w-]+\.js)';\n/gm)];
      let contents = source;
      for (const [line, name, path] of imports) {
        contents = contents
          .replace(line, '')
          .replace(new RegExp(`\\(\\) => ${name}\\b`, 'g'), `() => require('${path}').${name}`);
      }
      if (imports.length === 0 || /\(\) => \w+Tool\b/.test(contents))
        throw new Error('src/tools/builtins.ts: a loader is not an imported tool');
      return { contents, loader: 'ts', resolveDir: dirname(args.path) };
    });
  },
};

// Packages left in node_modules: those that locate their own .wasm files next to their code; @napi-rs/keyring's
// native .node binary; @ast-grep/napi and its language packages, which load native parsers from their own
// directories; highlight.js, required only when a chat answer holds a code block, one language file at a time;
// typescript (the compiler API behind the TS/JS language service), required when a code tool first needs it;
// Readability, linkedom and turndown (with its GFM plugin), required when web_fetch first converts a page.
const external = [
  'web-tree-sitter',
  '@vscode/tree-sitter-wasm',
  '@napi-rs/keyring',
  '@ast-grep/*',
  'highlight.js',
  'typescript',
  // web_fetch's HTML → Markdown, required when a page is first converted.
  '@mozilla/readability',
  'linkedom',
  'turndown',
  '@joplin/turndown-plugin-gfm',
];

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await mkdir('dist', { recursive: true });
await rm('dist/keel.cache', { force: true });
// dist/*.js are CommonJS (the launcher: Node starts a CommonJS entry without its ESM loader); dist/lib/ is ESM.
await writeFile('dist/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
await mkdir('dist/lib', { recursive: true });
await writeFile('dist/lib/package.json', `${JSON.stringify({ type: 'module' })}\n`);
// What earlier builds put where the library was.
for (const old of ['dist/index.js', 'dist/index.d.ts', 'dist/types'])
  await rm(old, { recursive: true, force: true });

// The library's types: declarations of src/api/types.ts and the few core files it names (not the whole program,
// which would take tsc far longer), made by tsc in the background while the bundles build.
await rm('dist/lib/types', { recursive: true, force: true });
const declarations = runNode([
  'node_modules/typescript/bin/tsc',
  'src/api/types.ts',
  ...['--declaration', '--emitDeclarationOnly', '--strict', '--skipLibCheck', '--types', 'node'],
  ...['--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'],
  ...['--rootDir', 'src', '--outDir', 'dist/lib/types'],
]);

// The built-in tools' JSON Schemas, converted from zod here once rather than at every start; and the config's
// defaults, so a run without a config file never builds the config schema (src/config/defaults.ts).
const specsDir = await mkdtemp(join(tmpdir(), 'keel-specs-'));
await build({
  stdin: {
    contents:
      "import { defaultTools, toSpec } from './src/tools/registry.ts';\n" +
      "import { computeConfigDefaults } from './src/config/keys.ts';\n" +
      'const tools = defaultTools();\n' +
      'process.stdout.write(JSON.stringify({ specs: Object.fromEntries(tools.map((t) => [t.name, toSpec(t)])),' +
      ' safety: Object.fromEntries(tools.map((t) => [t.name, t.safety])), config: computeConfigDefaults() }));',
    resolveDir: '.',
    loader: 'ts',
  },
  outfile: join(specsDir, 'specs.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  // CommonJS packages in it (yaml) require Node's built-ins.
  banner: {
    js: "import { createRequire as keelRequire } from 'node:module'; const require = keelRequire(import.meta.url);",
  },
  plugins: [zodEnglishOnly],
  // Tools load these lazily; making their specs never runs them.
  external,
  logLevel: 'warning',
});
const specs = spawnSync(process.execPath, [join(specsDir, 'specs.mjs')], { encoding: 'utf8' });
await rm(specsDir, { recursive: true, force: true });
if (specs.status !== 0) throw new Error(`tool specs failed at build time: ${specs.stderr}`);
const built = JSON.parse(specs.stdout);
const toolSpecs = JSON.stringify(built.specs);
const toolSafety = JSON.stringify(built.safety);
const configDefaults = JSON.stringify(built.config);

// What the CLI's bundle and the sessions list's own share: minified CommonJS for Node 20.
const cliBundle = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};

// What both bundles have written in: the version, the tools' specs and safety levels, the config's defaults.
const builtIns = {
  KEEL_VERSION: JSON.stringify(pkg.version),
  KEEL_TOOL_SPECS: toolSpecs,
  KEEL_TOOL_SAFETY: toolSafety,
  KEEL_CONFIG_DEFAULTS: configDefaults,
};

// The library (`import { createAgent } from 'keel'`): its own ESM bundle, so the CLI's bundle and start-up are
// untouched (built beside it). Bundled CommonJS dependencies call require(), which an ES module lacks: the banner makes one.
const library = build({
  entryPoints: ['src/api/index.ts'],
  outfile: 'dist/lib/index.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  plugins: [zodEnglishOnly, lightHeaders],
  external,
  define: builtIns,
  banner: {
    js: "import { createRequire as __keelCreateRequire } from 'node:module'; const require = __keelCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
const cli = await build({
  ...cliBundle,
  metafile: true,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/keel.cjs',
  plugins: [
    chunkImports,
    zodEnglishOnly,
    zodV3KindsOnly,
    lazyBuiltinTools,
    lazyBuiltinModules,
    lazyEventSourceStream,
    lightHeaders,
    zodNamespaceImports,
  ],
  external,
  define: { ...builtIns, 'import.meta.url': '__keelModuleUrl' },
  // The file is the function the launcher compiles (a CommonJS module's, as Node's loader wraps one): read as it is,
  // it needs no wrapping there, which copied the whole 1.4 MB source into a second string at every start.
  banner: {
    js: "(function (exports, require, module, __filename, __dirname) {var __keelModuleUrl=require('node:url').pathToFileURL(__filename).href;",
  },
  footer: { js: '})' },
});
// The chunks (scripts/chunks.mjs) build while the rest goes on; the warm-up below needs none of them.
await rm('dist/chunks', { recursive: true, force: true });
const chunked = buildChunks('dist/chunks', { ...cliBundle, external, define: builtIns }, cli.metafile.inputs);
// The launcher reads the bundle as latin1 (no UTF-8 decoding at start-up), which is exact only for ASCII.
const bundle = await readFile('dist/keel.cjs');
const wide = bundle.findIndex((byte) => byte > 0x7f);
if (wide !== -1) {
  const line = bundle.subarray(0, wide).toString('latin1').split('\n').length;
  throw new Error(
    `dist/keel.cjs line ${line} holds a non-ASCII character: write it as a \\u escape in the source (the launcher reads the bundle as latin1)`,
  );
}
// The TypeScript service's worker thread (src/code/language/ts-remote.ts): its own bundle beside the CLI's, which
// the library (dist/lib/) finds one directory up. The compiler itself stays in node_modules, as for the CLI.
const tsWorker = build({
  ...cliBundle,
  entryPoints: ['src/code/language/ts-worker.ts'],
  outfile: 'dist/ts-worker.cjs',
  external,
  define: { ...builtIns, 'import.meta.url': '__keelModuleUrl' },
  banner: { js: "var __keelModuleUrl=require('node:url').pathToFileURL(__filename).href;" },
});
// `keel sessions list` has its own small bundle, which the launcher requires instead of the CLI's (it hands anything
// else back): the listing reads only sidecars, so it needs none of the rest. It must stay small to stay fast.
await build({ ...cliBundle, entryPoints: ['src/cli/sessions-list.ts'], outfile: 'dist/sessions-list.cjs' });
const listBytes = (await readFile('dist/sessions-list.cjs')).length;
if (listBytes > 100_000)
  throw new Error(
    `dist/sessions-list.cjs is ${listBytes} bytes: src/cli/sessions-list.ts imports more than listing needs`,
  );
// The launcher answers --version and --help itself: the version is written into it, the help rendered once here.
const launcher = await readFile('scripts/launcher.cjs', 'utf8');
await writeFile('dist/keel.js', launcher.replace('__KEEL_VERSION__', pkg.version));
// The `keel` command (the package's bin): a shell script that starts Node on dist/keel.js (scripts/launcher.sh).
await writeFile('dist/keel', await readFile('scripts/launcher.sh'), { mode: 0o755 });
// Rendering the help and the warm-up run (below) start now, while the library may still be bundling.
// (The launcher has no help.txt yet, so it runs the CLI for it.)
const help = runNode(['dist/keel.js', '--help'], { env: { ...process.env, NO_COLOR: '1' } });
// Warm-up: a run whose provider URL is refused before any connection is made walks the whole start-up path
// (config, tools, provider) without network; the launcher then saves V8's code cache of everything it compiled.
const workspace = await mkdtemp(join(tmpdir(), 'keel-build-'));
const warmUp = runNode(
  ['dist/keel.js', 'run', '--cwd', workspace, '--base-url', 'http://127.0.0.1:9', '--prompt', 'warm-up'],
  {
    env: {
      ...process.env,
      KEEL_BUILD_CODE_CACHE: 'dist/keel.cache',
      HOME: workspace,
      XDG_CONFIG_HOME: workspace,
    },
  },
);

await library;
await tsWorker;
const tsc = await declarations;
if (tsc.status !== 0) throw new Error(`the library's declarations failed: ${tsc.stdout}${tsc.stderr}`);
await writeFile(
  'dist/lib/index.d.ts',
  // index.d.ts declares createAgent with the type agent.ts is checked against.
  "export type * from './types/api/types.js';\n" +
    "import type { CreateAgent } from './types/api/types.js';\n" +
    '/** An agent working in `cwd`: each run() sends a message and yields its events; see README "Library". */\n' +
    'export declare const createAgent: CreateAgent;\n',
);

const helpRun = await help;
if (helpRun.status !== 0 || !helpRun.stdout.startsWith('Usage: keel'))
  throw new Error(`keel --help failed at build time: ${helpRun.stderr}`);
await writeFile('dist/help.txt', helpRun.stdout);
await chmod('dist/keel.js', 0o755);
await chmod('dist/keel', 0o755);
await warmUp;
await chunked;
await rm(workspace, { recursive: true, force: true });

/** Runs node with `args`, its output collected: resolves with the exit status, stdout and stderr. */
function runNode(args, options) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, stdout, stderr }));
  });
}
