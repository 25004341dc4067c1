// Loads the tree-sitter bash grammar once, lazily, from node_modules (works from src and from dist/keel.js).
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Parser as TsParser } from 'web-tree-sitter';
import { baselineWasmOnly } from '../../core/wasm-tier.js';

let parserPromise: Promise<TsParser> | undefined;

async function load(): Promise<TsParser> {
  // Resolved at run time so a bundled dist/keel.js finds the wasm files in the node_modules beside it.
  const require = createRequire(import.meta.url);
  const grammarDir = path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json'));
  const runtimeWasm = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
  // require, not import(): dist/keel.js runs the bundle from V8's code cache, where import() of a package
  // outside the bundle is not available on Node 20.
  baselineWasmOnly();
  const { Parser, Language } = require('web-tree-sitter') as typeof import('web-tree-sitter');
  await Parser.init({ locateFile: () => runtimeWasm });
  const bash = await Language.load(path.join(grammarDir, 'wasm', 'tree-sitter-bash.wasm'));
  const parser = new Parser();
  parser.setLanguage(bash);
  return parser;
}

/** The shared bash parser; the first call loads the wasm (tens of milliseconds), later calls are free. */
export function bashParser(): Promise<TsParser> {
  parserPromise ??= load().catch((error: unknown) => {
    parserPromise = undefined;
    throw error;
  });
  return parserPromise;
}
