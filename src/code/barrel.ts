// A barrel file: one module re-exporting a directory's public modules (index.ts for TS/JS, <dir>.dart for Dart).
import path from 'node:path';
import type { CodeIndex } from './code-index.js';
import { languageOf } from './languages.js';

export interface Barrel {
  /** Workspace-relative path of the barrel file. */
  path: string;
  content: string;
  modules: string[];
}

const TS_LIKE = new Set(['typescript', 'tsx', 'javascript']);
const SKIP = /(\.d\.ts|\.(test|spec)\.[jt]sx?|_test\.dart|\.g\.dart|\.freezed\.dart)$/;

/** The barrel of `dir` (workspace-relative, '' for the root); a message when the directory has no public modules. */
export function planBarrel(index: CodeIndex, dir: string): Barrel | string {
  const inDir = [...index.files].filter(([file]) => path.posix.dirname(file) === (dir || '.'));
  const dart =
    inDir.filter(([, t]) => t.language === 'dart').length >
    inDir.filter(([, t]) => TS_LIKE.has(t.language)).length;
  // The directory's own index file, whatever its extension (never an index.ts beside an index.js); else index.js
  // for a directory of JavaScript alone, index.ts for the rest.
  const ownIndex = inDir
    .map(([file]) => path.posix.basename(file))
    .filter((base) => /^index\.[cm]?[jt]sx?$/.test(base))
    .sort((a, b) => Number(!a.endsWith('.ts')) - Number(!b.endsWith('.ts')))[0];
  const scripts = inDir.filter(([, t]) => TS_LIKE.has(t.language));
  const javascript = scripts.length > 0 && scripts.every(([, t]) => t.language === 'javascript');
  const barrelName = dart
    ? `${path.posix.basename(dir || '.') === '.' ? 'index' : path.posix.basename(dir)}.dart`
    : (ownIndex ?? (javascript ? 'index.js' : 'index.ts'));
  const barrelPath = dir ? `${dir}/${barrelName}` : barrelName;
  const modules = inDir
    .filter(([file, tags]) => {
      const base = path.posix.basename(file);
      // A component (.vue, .svelte) is not re-exported by name.
      if (file === barrelPath || SKIP.test(base) || /^index\.[jt]sx?$/.test(base) || !languageOf(base))
        return false;
      if (dart ? tags.language !== 'dart' || base.startsWith('_') : !TS_LIKE.has(tags.language)) return false;
      return tags.definitions.some((d) => d.exported && !d.container);
    })
    .map(([file]) => path.posix.basename(file))
    .sort();
  if (modules.length === 0) return `no public ${dart ? 'Dart' : 'TS/JS'} modules directly in ${dir || '.'}`;
  const suffix = importSuffix(index);
  const lines = modules.map((file) =>
    dart
      ? `export '${file}';`
      : // A JavaScript barrel names each file as it is: Node's ES modules need the extension.
        `export * from './${/\.[cm]?jsx?$/.test(barrelName) || suffix === 'source' ? file : file.replace(/\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/, suffix === 'js' ? '.js' : '')}';`,
  );
  return { path: barrelPath, content: `${lines.join('\n')}\n`, modules };
}

/**
 * How the project's TypeScript names a relative import, by what most of its own imports do: the emitted `.js` file
 * (ESM), the source file itself (`./base.ts`, allowImportingTsExtensions, where `./base` does not resolve under
 * NodeNext), or no extension.
 */
function importSuffix(index: CodeIndex): 'js' | 'source' | 'none' {
  const counts = { js: 0, source: 0, none: 0 };
  for (const tags of index.files.values())
    for (const { module } of tags.imports) {
      if (!/^\.\.?\//.test(module)) continue;
      if (/\.[cm]?jsx?$/.test(module)) counts.js += 1;
      else if (/\.[cm]?tsx?$/.test(module) && !module.endsWith('.d.ts')) counts.source += 1;
      else if (!/\.\w+$/.test(module)) counts.none += 1;
    }
  if (counts.js > 0 && counts.js >= counts.source) return 'js';
  return counts.source > counts.none ? 'source' : 'none';
}
