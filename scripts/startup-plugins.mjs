// esbuild plugins for the CLI bundle that keep work out of the way of the first model request: what a module
// needs only when it is first used is loaded then, not when the bundle is evaluated. Used by scripts/build.mjs.

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));

// node:child_process takes about 7 ms to load here (it brings net, dgram and their streams), and nothing before a
// run's first model request spawns a process (the sandbox probe's answer is kept between runs). Keel's modules and
// commander get functions that load it (and node:crypto) at their first call. A name missing here fails the build ("No matching
// export"), so nothing is silently left out; a file that imports the whole namespace (`import * as`) keeps the
// real module.
const lazyBuiltins = {
  child_process: ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork'],
  // node:crypto takes 4-8 ms to load; the hashes a run takes before its first request use core/sha256.ts.
  crypto: ['createHash', 'randomBytes', 'randomUUID'],
};

export const lazyBuiltinModules = {
  name: 'lazy-builtin-modules',
  setup(build) {
    const filter = new RegExp(`^(node:)?(${Object.keys(lazyBuiltins).join('|')})$`);
    build.onResolve({ filter }, async (args) => {
      const name = args.path.replace(/^node:/, '');
      if (args.namespace === 'lazy-builtin') return { path: `node:${name}`, external: true };
      const keel = args.importer.startsWith(srcDir);
      if (!keel && !/[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)) return undefined;
      const source = await readFile(args.importer, 'utf8');
      if (new RegExp(`import \\* as \\w+ from 'node:${name}'`).test(source)) return undefined;
      return { path: name, namespace: 'lazy-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: [
        'let loaded;',
        `const load = () => (loaded ??= require('node:${args.path}'));`,
        ...lazyBuiltins[args.path].map(
          (name) => `export function ${name}(...args) { return load().${name}(...args); }`,
        ),
      ].join('\n'),
      loader: 'js',
    }));
  },
};

// eventsource-parser declares `class EventSourceParserStream extends TransformStream` at its top level, and reading
// the global TransformStream loads Node's web streams (about 7 ms) while the bundle is evaluated, long before any
// response is parsed. The class is made at its first construction instead.
export const lazyEventSourceStream = {
  name: 'lazy-eventsource-stream',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]node_modules[\\/]eventsource-parser[\\/]dist[\\/]stream\.js$/ },
      async (args) => {
        const source = await readFile(args.path, 'utf8');
        const declaration = /class EventSourceParserStream extends TransformStream \{/;
        if (!declaration.test(source) || !/export \{[^}]*\bEventSourceParserStream\b/.test(source))
          throw new Error(
            `${args.path}: EventSourceParserStream is no longer declared as this plugin expects`,
          );
        const contents = `${source.replace(
          declaration,
          'const makeEventSourceParserStream = () => class extends TransformStream {',
        )}
let made;
// Called with \`new\`, a function that returns an object gives that object: an instance of the real class.
function EventSourceParserStream(options) {
  made ??= makeEventSourceParserStream();
  return new made(options);
}
`;
        return { contents, loader: 'js' };
      },
    );
  },
};

// The AI SDK's provider-utils (normalizeHeaders, withUserAgentSuffix, sanitizeRequestHeaders) and the OpenRouter
// provider use the global Headers, which is undici's: touching it loads all of undici (30-40 ms) before the first
// request, though the providers send over node:http (src/providers/http-fetch.ts). Inside exactly those files
// `Headers` is Keel's light class instead (a module-scope import shadows the global); the global itself, and every
// other package (the MCP SDK keeps the real fetch), are left alone.
const lightHeadersModule = fileURLToPath(new URL('../src/providers/http-headers.ts', import.meta.url));
const lightHeadersFiles =
  /[\\/]node_modules[\\/](@ai-sdk[\\/]provider-utils|@openrouter[\\/]ai-sdk-provider)[\\/]dist[\\/][^\\/]+\.m?js$/;

export const lightHeaders = {
  name: 'light-headers',
  setup(build) {
    let shadowed = 0;
    build.onLoad({ filter: lightHeadersFiles }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!/\bHeaders\b/.test(source)) return undefined;
      shadowed++;
      const binding = args.path.endsWith('.mjs')
        ? `import { LightHeaders as Headers } from ${JSON.stringify(lightHeadersModule)};\n`
        : `const { LightHeaders: Headers } = require(${JSON.stringify(lightHeadersModule)});\n`;
      return { contents: binding + source, loader: 'js' };
    });
    build.onEnd((result) => {
      if (result.errors.length === 0 && shadowed === 0)
        throw new Error(
          'light-headers: no AI SDK file using Headers was bundled; update scripts/startup-plugins.mjs',
        );
    });
  },
};

// `import { z } from "zod/v4"` takes zod's `z`, a namespace object, as a value: esbuild then builds it at start-up,
// one getter for each of its ~260 exports, and keeps every export it names in the bundle. `import * as z` reads
// the same functions (z.object is zod's object either way) and lets esbuild refer to each one directly. Keel's own
// files import zod that way; this rewrites the Ollama provider's imports (the one package zod's `z` reaches the
// bundle through).
const zodImportFiles = /[\\/]node_modules[\\/]ollama-ai-provider-v2[\\/]dist[\\/][^\\/]+\.mjs$/;
const zodNamedImport = /^import \{ z(?: as (\w+))? \} from (["'])(zod(?:\/v4)?)\2;$/gm;

export const zodNamespaceImports = {
  name: 'zod-namespace-imports',
  setup(build) {
    build.onLoad({ filter: zodImportFiles }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (source.match(zodNamedImport) === null) return undefined;
      const contents = source.replace(
        zodNamedImport,
        (_, alias, quote, specifier) => `import * as ${alias ?? 'z'} from ${quote}${specifier}${quote};`,
      );
      return { contents, loader: 'js' };
    });
  },
};
