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
  // ESM TypeScript imports name the emitted .js file; follow what the project's own imports do.
  const jsSuffix = [...index.files.values()].some((t) =>
    t.imports.some((i) => /^\.\.?\/.*\.js$/.test(i.module)),
  );
  const lines = modules.map((file) =>
    dart
      ? `export '${file}';`
      : // A JavaScript barrel names each file as it is: Node's ES modules need the extension.
        `export * from './${/\.[cm]?jsx?$/.test(barrelName) ? file : file.replace(/\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/, jsSuffix ? '.js' : '')}';`,
  );
  return { path: barrelPath, content: `${lines.join('\n')}\n`, modules };
}
