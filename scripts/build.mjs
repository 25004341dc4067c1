// Bundles the CLI into one ESM file, dist/keel.js. Modules reached through dynamic import() are
// wrapped by esbuild and only evaluated when first used, so start-up stays fast.
import { chmod, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { build } from 'esbuild';

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

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/keel.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  plugins: [zodEnglishOnly],
  legalComments: 'none',
  // Packages that locate their own .wasm files next to their code stay in node_modules.
  external: ['web-tree-sitter', '@vscode/tree-sitter-wasm'],
  define: { KEEL_VERSION: JSON.stringify(pkg.version) },
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __keelCreateRequire } from 'node:module';",
      'const require = __keelCreateRequire(import.meta.url);',
    ].join('\n'),
  },
  logLevel: 'warning',
});
await chmod('dist/keel.js', 0o755);
