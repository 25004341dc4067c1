// Vendor packages that a run needs only when it uses them (the hosted providers, MCP, LSP's JSON-RPC, ACP,
// Markdown, YAML) are built into chunks of their own, dist/chunks/<name>.cjs, beside the CLI's bundle: every command
// reads and deserialises the bundle at start-up (about 10 ms per MB here), and these were 1 MB of its 2.3 MB.
// In the bundle an import of a chunked package becomes a require of the chunk, made when the importing module is
// first evaluated; the chunk runs through its own code cache, made here. Packages both sides use (zod, the AI SDK's
// provider and provider-utils, Keel's light Headers) are not copied into chunks: a chunk gets the bundle's own.
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { build } from 'esbuild';
import { lazyEventSourceStream, lightHeaders } from './startup-plugins.mjs';

/** Each chunk's name and the import specifiers it answers, exactly as src/ writes them. */
export const chunks = {
  anthropic: ['@ai-sdk/anthropic'],
  google: ['@ai-sdk/google'],
  openai: ['@ai-sdk/openai'],
  openrouter: ['@openrouter/ai-sdk-provider'],
  'openai-compatible': ['@ai-sdk/openai-compatible'],
  mcp: [
    '@modelcontextprotocol/sdk/client/index.js',
    '@modelcontextprotocol/sdk/client/streamableHttp.js',
    '@modelcontextprotocol/sdk/server/index.js',
    '@modelcontextprotocol/sdk/server/stdio.js',
    '@modelcontextprotocol/sdk/shared/stdio.js',
    '@modelcontextprotocol/sdk/types.js',
  ],
  jsonrpc: ['vscode-jsonrpc/node'],
  acp: ['@agentclientprotocol/sdk'],
  marked: ['marked'],
  yaml: ['yaml'],
};

const lightHeadersModule = fileURLToPath(new URL('../src/providers/http-headers.ts', import.meta.url));

/** What a chunk takes from the bundle rather than carrying its own copy: specifier → what the bundle imports. */
const shared = {
  zod: 'zod',
  'zod/v4': 'zod/v4',
  'zod/v4/core': 'zod/v4/core',
  'zod/v4-mini': 'zod/v4-mini',
  '@ai-sdk/provider': '@ai-sdk/provider',
  '@ai-sdk/provider-utils': '@ai-sdk/provider-utils',
  'keel:light-headers': lightHeadersModule,
};

const owner = new Map(
  Object.entries(chunks).flatMap(([name, specifiers]) => specifiers.map((s) => [s, name])),
);
const packageOf = (specifier) => specifier.match(/^(@[^/]+\/)?[^/]+/)[0];
const chunkedPackages = new Set([...owner.keys()].map(packageOf));

/** The source a chunk runs in, as the launcher wraps the bundle: a CommonJS module function (the loader's own). */
const wrap = (source) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`;

/**
 * The CLI bundle's side: an import of a chunked specifier from Keel's code becomes the chunk's export of it, and
 * the loader is bundled once. A chunked package imported under a specifier no chunk lists fails the build, so
 * nothing is silently copied back into the bundle.
 */
export const chunkImports = {
  name: 'chunk-imports',
  setup(b) {
    b.onResolve({ filter: /^keel:chunks$/ }, () => ({ path: 'loader', namespace: 'keel-chunks' }));
    b.onResolve({ filter: /^keel:shared:/ }, (args) => ({
      path: args.path.slice('keel:shared:'.length),
      namespace: 'keel-shared',
    }));
    b.onResolve({ filter: /^[@a-z]/ }, async (args) => {
      // A shared module is imported as Keel's own imports resolve it, so the chunk gets the very module instances
      // they have (a require would pick a package's CommonJS files, a second copy).
      if (args.namespace === 'keel-shared') {
        const { path, errors } = await b.resolve(args.path, {
          kind: 'import-statement',
          resolveDir: args.resolveDir,
        });
        return errors.length > 0 ? { errors } : { path };
      }
      if (args.namespace === 'keel-chunks') return undefined;
      const name = owner.get(args.path);
      if (name) return { path: args.path, namespace: 'keel-chunk', pluginData: name };
      if (chunkedPackages.has(packageOf(args.path)) && !args.importer.includes('/node_modules/'))
        return {
          errors: [
            { text: `${args.path} is in a chunked package but no chunk in scripts/chunks.mjs lists it` },
          ],
        };
      return undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'keel-chunk' }, (args) => ({
      contents: `module.exports = require('keel:chunks')(${JSON.stringify(args.pluginData)})[${JSON.stringify(args.path)}];`,
      loader: 'js',
      resolveDir: process.cwd(),
    }));
    b.onLoad({ filter: /.*/, namespace: 'keel-chunks' }, () => ({
      contents: loaderSource(),
      loader: 'js',
      resolveDir: process.cwd(),
    }));
    b.onLoad({ filter: /.*/, namespace: 'keel-shared' }, async (args) => ({
      contents: await sharedSource(args.path),
      loader: 'js',
      resolveDir: process.cwd(),
    }));
  },
};

/**
 * A shared module as the loader hands it to a chunk: an object of its exports, made at the first chunk that asks.
 * Its exports are imported by name: a namespace import (or a require) would make esbuild build the module's
 * namespace object, one getter an export, while the bundle is evaluated at every start — zod's entry points alone
 * have about 260 each.
 */
async function sharedSource(id) {
  const from = shared[id];
  let names;
  let itself = [];
  const elsewhere = [];
  if (id === 'keel:light-headers') {
    const source = await readFile(from, 'utf8');
    names = [...source.matchAll(/^export (?:class|function|const) (\w+)/gm)].map((m) => m[1]);
  } else {
    const module = await import(from);
    names = Object.keys(module);
    // zod's entry points export themselves again as `z` and `default` (a namespace of the same exports): the
    // object refers to itself there instead, as importing them would build that namespace.
    const others = names.filter((n) => n !== 'z' && n !== 'default');
    const same = (value) => value && typeof value === 'object' && others.every((n) => value[n] === module[n]);
    itself = ['z', 'default'].filter((n) => names.includes(n) && same(module[n]));
    names = names.filter((n) => !itself.includes(n));
    // Another shared module re-exported as a namespace (zod's `core`, 312 exports): the object reads that module's
    // own shared object when a chunk first uses it, rather than importing the namespace here.
    for (const [other, specifier] of Object.entries(shared)) {
      if (other === id || other.startsWith('keel:')) continue;
      const namespace = await import(specifier);
      for (const n of names) if (module[n] === namespace) elsewhere.push([n, other]);
    }
    names = names.filter((n) => !elsewhere.some(([name]) => name === n));
  }
  if (names.length === 0) throw new Error(`shared module ${id} exports nothing`);
  const alias = (i) => `s${i}`;
  return [
    `import { ${names.map((n, i) => `${JSON.stringify(n)} as ${alias(i)}`).join(', ')} } from ${JSON.stringify(from)};`,
    'export default (sharedModule) => {',
    `  const exports = { __esModule: true, ${names.map((n, i) => `${JSON.stringify(n)}: ${alias(i)}`).join(', ')} };`,
    ...itself.map((n) => `  exports[${JSON.stringify(n)}] = exports;`),
    ...elsewhere.map(
      ([n, other]) =>
        `  Object.defineProperty(exports, ${JSON.stringify(n)}, { get: () => sharedModule(${JSON.stringify(other)}), enumerable: true });`,
    ),
    '  return exports;',
    '};',
  ].join('\n');
}

/** The bundle's chunk loader: reads dist/chunks/<name>.cjs and its cache once, and runs it with the shared modules. */
function loaderSource() {
  const entries = Object.keys(shared)
    .map(
      (id) =>
        `  ${JSON.stringify(id)}: () => require(${JSON.stringify(`keel:shared:${id}`)}).default(sharedModule),`,
    )
    .join('\n');
  return `const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { constants, Script } = require('node:vm');
const shared = {
${entries}
};
const made = new Map();
const sharedModule = (id) => {
  let exports = made.get(id);
  if (!exports) made.set(id, (exports = shared[id]()));
  return exports;
};
const loaded = new Map();
module.exports = function chunk(name) {
  let exports = loaded.get(name);
  if (exports) return exports;
  const file = join(__dirname, 'chunks', name + '.cjs');
  let cachedData;
  try {
    cachedData = readFileSync(file.replace(/\\.cjs$/, '.cache'));
  } catch {
    // No cache: compiled from source, only slower.
  }
  const source = readFileSync(file, 'latin1');
  const script = new Script('(function (exports, require, module, __filename, __dirname) {' + source + '\\n})', {
    filename: file,
    cachedData,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const outside = createRequire(file);
  const module = { exports: {} };
  const require = (id) => (Object.hasOwn(shared, id) ? sharedModule(id) : outside(id));
  script.runInThisContext()(module.exports, require, module, file, join(__dirname, 'chunks'));
  loaded.set(name, module.exports);
  return module.exports;
};
`;
}

/**
 * Builds every chunk into `outDir` with `options` (the bundle's own esbuild options) and makes its code cache by
 * evaluating each of its modules once here; `bundleInputs` are the CLI bundle's metafile inputs, none of which a
 * chunk may hold again.
 */
export async function buildChunks(outDir, options, bundleInputs) {
  const inBundle = new Set(Object.keys(bundleInputs).filter((path) => !path.startsWith('<')));
  await Promise.all(
    Object.entries(chunks).map(async ([name, specifiers]) => {
      const outfile = join(outDir, `${name}.cjs`);
      const result = await build({
        ...options,
        metafile: true,
        stdin: {
          // Getters: a chunk's modules are evaluated when first asked for, as they were inside the bundle.
          contents: `module.exports = {\n${specifiers
            .map((s) => `  get ${JSON.stringify(s)}() { return require(${JSON.stringify(s)}); },`)
            .join('\n')}\n};\n`,
          resolveDir: process.cwd(),
          loader: 'js',
        },
        outfile,
        plugins: [
          {
            name: 'shared-modules',
            setup(b) {
              b.onResolve({ filter: /.*/ }, (args) => {
                if (args.path === lightHeadersModule) return { path: 'keel:light-headers', external: true };
                return Object.hasOwn(shared, args.path) && args.path.startsWith('keel:') === false
                  ? { path: args.path, external: true }
                  : undefined;
              });
            },
          },
          lazyEventSourceStream,
          ...(name === 'openrouter' ? [lightHeaders] : []),
        ],
        define: { ...options.define, 'import.meta.url': '__keelModuleUrl' },
        banner: { js: "var __keelModuleUrl=require('node:url').pathToFileURL(__filename).href;" },
      });
      // A module both the chunk and the bundle hold would be two instances with two states: it must be shared.
      const twice = Object.keys(Object.values(result.metafile.outputs)[0].inputs).filter((path) =>
        inBundle.has(path),
      );
      if (twice.length > 0)
        throw new Error(
          `chunk ${name} and the CLI's bundle both hold ${twice.slice(0, 5).join(', ')}: share them in scripts/chunks.mjs`,
        );
      const source = await readFile(outfile, 'latin1');
      // The loader reads a chunk as latin1, as the launcher reads the bundle: exact only for ASCII.
      const wide = /[\x80-\xff]/.exec(source);
      if (wide) throw new Error(`${outfile} holds a non-ASCII character at offset ${wide.index}`);
      await writeFile(outfile.replace(/\.cjs$/, '.cache'), codeCache(outfile, source, specifiers));
    }),
  );
}

/** V8's code cache of a chunk after each of its modules has been evaluated once (with the packages' own shared modules). */
function codeCache(file, source, specifiers) {
  const script = new Script(wrap(source), { filename: file });
  const fromPackages = createRequire(fileURLToPath(import.meta.url));
  const require = (id) =>
    id === 'keel:light-headers' ? { LightHeaders: class {} } : fromPackages(shared[id] ?? id);
  const module = { exports: {} };
  try {
    script.runInThisContext()(module.exports, require, module, file, dirname(file));
    for (const specifier of specifiers) void module.exports[specifier];
  } catch {
    // A module that will not evaluate outside the CLI still leaves what compiled in the cache.
  }
  return script.createCachedData();
}
