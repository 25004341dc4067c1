// The check after a change that needs no language service: the imports that take a name the change took away from
// a module, read from the code index (resolved as the map resolves them) and followed through barrels. What it
// reports is broken for sure; what it cannot tell it leaves to the service (after-change.ts).
import { promises as fs, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { exportedNames, mayStillExport, removedExports } from '../code/exported-names.js';
import type { Import } from '../code/imports.js';
import type { Diagnostic } from '../code/language/service.js';
import { indexLanguageOf, type LanguageSpec } from '../code/languages.js';
import type { ToolContext } from './tool.js';

/** A file a change wrote (workspace-relative `path`) or removed, with its texts. */
export interface Changed {
  path: string;
  before: string | undefined;
  after: string;
  removed?: boolean;
}

/** How deep through barrels (`export * from`) and how many of their files the import check follows. */
const MAX_BARREL_DEPTH = 4;
const MAX_BARREL_FILES = 400;
/** How long the code index may take to load for the import check, at least (the budget, when longer). */
const INDEX_MS = 1000;

/**
 * Imports in `naming` that take one of `removed` by name from a changed file: broken whatever else the file does,
 * found without a language service from the code index's imports, resolved as the map resolves them. Nothing when
 * the index is not ready within `budget` (it goes on loading for the next call). Through barrels too (`export *
 * from './utils'`), when no other route of the barrel may give the name. A module imported whole (`from . import
 * cells`, `import * as units`) is left to the service.
 */
export async function brokenImports(
  ctx: ToolContext,
  files: readonly Changed[],
  removed: readonly string[],
  naming: readonly string[],
  budget: number,
): Promise<Diagnostic[]> {
  const [{ codeIndexOf }, { ImportResolver }] = await Promise.all([
    import('./code-index-of.js'),
    import('../code/module-graph.js'),
  ]);
  const loading = codeIndexOf(ctx);
  loading.catch(() => {});
  // A small repository's index loads in well under a second; a cold monorepo's is given up at the budget.
  const index = await Promise.race([loading, sleep(Math.max(budget, INDEX_MS))]);
  if (!index) return [];
  const resolver = new ImportResolver(index);
  // An edited file's importers (a removed file is no longer in the index to resolve to), of the names its new text
  // surely no longer gives (not re-exported, imported or bound some other way).
  const edited = new Map(files.filter((f) => !f.removed).map((f) => [f.path, f]));
  const gone = new Set(removed);
  const found: Diagnostic[] = [];
  const texts = new Map<string, string[]>();
  /** An error at the name an import takes (the last on the line for `require('./m').name`). */
  const report = async (path: string, imp: Import, name: string, message: string) => {
    let text = texts.get(path);
    if (!text) {
      text = (await fs.readFile(`${ctx.workspace.root}/${path}`, 'utf8').catch(() => '')).split('\n');
      texts.set(path, text);
    }
    found.push({
      path,
      ...namePosition(text, imp.line, name, imp.commonJs === true),
      severity: 'error',
      message,
    });
  };
  /** Whether an edited file took `name` away for sure (exported before, given no way now). */
  const takenFrom = (file: string, name: string) => {
    const f = edited.get(file);
    return (
      f?.before !== undefined &&
      exportedNames(file, f.before).has(name) &&
      !exportedNames(file, f.after).has(name) &&
      !mayStillExport(file, f.after, name)
    );
  };
  const reexports = (file: string) => (index.files.get(file)?.imports ?? []).filter((imp) => imp.reexport);
  const isStar = (imp: Import) => imp.bindings.some((b) => b.name === '*' && !b.alias);
  /** The edited file an unedited barrel's `export *` (or named re-export) chain took `name` from, if any. */
  const takenVia = (file: string, name: string, depth = 0, seen = new Set<string>()): string | undefined => {
    if (depth > MAX_BARREL_DEPTH || seen.size > MAX_BARREL_FILES || seen.has(file)) return undefined;
    seen.add(file);
    for (const imp of reexports(file)) {
      if (!isStar(imp) && !imp.bindings.some((b) => (b.alias ?? b.name) === name)) continue;
      for (const source of resolver.resolve(file, imp, index.files.get(file)!.language)) {
        const taken = edited.has(source)
          ? takenFrom(source, name)
            ? source
            : undefined
          : takenVia(source, name, depth + 1, seen);
        if (taken) return taken;
      }
    }
    return undefined;
  };
  /** Whether an unedited file may still give `name`: by its own export, or a re-export any of whose routes may. */
  const gives = (file: string, name: string, depth = 0, seen = new Set<string>()): boolean => {
    // Past the limits nothing is known: it may give it. A file met again gives nothing new.
    if (depth > MAX_BARREL_DEPTH || seen.size > MAX_BARREL_FILES) return true;
    if (seen.has(file)) return false;
    seen.add(file);
    const tags = index.files.get(file);
    if (!tags) return true;
    if (tags.definitions.some((d) => d.name === name && d.exported && d.container === undefined)) return true;
    if ((tags.exports ?? []).some((e) => e.name === name || e.alias === name)) return true;
    for (const imp of tags.imports) {
      if (!imp.reexport || (!isStar(imp) && !imp.bindings.some((b) => (b.alias ?? b.name) === name)))
        continue;
      const sources = resolver.resolve(file, imp, tags.language);
      // A package outside the repository may give it; a file the index leaves out (vendored code) is read.
      if (sources.length === 0) {
        if (!imp.module.startsWith('.') || unindexedGives(file, imp.module, name)) return true;
        continue;
      }
      for (const source of sources) {
        const changed = edited.get(source);
        const still = changed
          ? exportedNames(source, changed.after).has(name) || mayStillExport(source, changed.after, name)
          : gives(source, name, depth + 1, seen);
        if (still) return true;
      }
    }
    return false;
  };
  /** A relative module the index does not hold (tRPC's `./vendor/unpromise`): whether its text may give `name`. */
  const unindexedGives = (from: string, module: string, name: string): boolean => {
    const base = posix.join(posix.dirname(from), module).replace(/\.[cm]?js$/, '');
    for (const candidate of ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '/index.ts', '/index.js'].map(
      (e) => base + e,
    )) {
      let text: string;
      try {
        text = readFileSync(`${ctx.workspace.root}/${candidate}`, 'utf8');
      } catch {
        continue;
      }
      return exportedNames(candidate, text).has(name) || mayStillExport(candidate, text, name);
    }
    return true;
  };
  /**
   * A module bound to a name (`import * as units`, `from . import views`, `import pkg.views as v`) that an edited
   * file took names away from: `units.toMetres`, `views.index` are broken, found with the language's own lexer.
   */
  const moduleBound = async (path: string, imp: Import) => {
    const lang = indexLanguageOf(path);
    if (!lang) return;
    const targets = resolver.resolve(path, imp, lang.id).filter((t) => edited.has(t));
    if (targets.length === 0) return;
    /** Per local name and target: the module as the code names it (`bakerydemo.search.views`, `.views`). */
    const pairs = new Map<string, [string, string, string]>();
    const pair = (local: string, target: string, module: string) =>
      pairs.set(`${local}\0${target}`, [local, target, module]);
    for (const target of targets) {
      if (imp.alias) pair(imp.alias, target, imp.module);
      for (const b of imp.bindings)
        if (b.name === '*' ? b.alias !== undefined : lang.id === 'python' && moduleOf(target) === b.name)
          pair(
            b.alias ?? b.name,
            target,
            b.name === '*' ? imp.module : `${imp.module}${imp.module.endsWith('.') ? '' : '.'}${b.name}`,
          );
    }
    if (pairs.size === 0) return;
    let source: string;
    try {
      source = await fs.readFile(`${ctx.workspace.root}/${path}`, 'utf8');
    } catch {
      return;
    }
    for (const [local, target, module] of pairs.values()) {
      const taken = [...gone].filter((name) => takenFrom(target, name));
      if (taken.length === 0) continue;
      const { before, after } = edited.get(target)!;
      const added = before === undefined ? [] : removedExports(target, after, before);
      const now = added.length > 0 && added.length <= 3 ? `; it exports ${added.join(', ')} now` : '';
      for (const use of memberUses(lang, source, local, taken))
        found.push({
          path,
          line: use.line,
          column: use.column,
          severity: 'error',
          message: `'${module}' (${target}) no longer exports ${use.name}${now}`,
        });
    }
  };
  for (const path of naming) {
    const tags = index.files.get(path);
    for (const imp of tags?.imports ?? []) {
      if (!imp.bindings.some((b) => gone.has(b.name))) {
        await moduleBound(path, imp);
        continue;
      }
      const targets = resolver.resolve(path, imp, tags!.language);
      const target = targets.find((t) => edited.has(t));
      if (target === undefined) {
        // Through a barrel: broken when its chain took the name away and nothing else it re-exports may give it.
        for (const barrel of targets.filter((t) => index.files.has(t)))
          for (const { name } of imp.bindings.filter((b) => gone.has(b.name))) {
            const source = takenVia(barrel, name);
            if (source && !gives(barrel, name))
              await report(
                path,
                imp,
                name,
                `'${imp.module}' (${barrel}) no longer exports ${name}: it re-exported it from ${source}`,
              );
          }
        continue;
      }
      const { after, before } = edited.get(target)!;
      // What the module exports now that it did not: a rename's new name, as the type checker's "did you mean".
      const added = before === undefined ? [] : removedExports(target, after, before);
      const now = added.length > 0 && added.length <= 3 ? `; it exports ${added.join(', ')} now` : '';
      for (const { name } of imp.bindings.filter(
        (b) => gone.has(b.name) && !mayStillExport(target, after, b.name),
      ))
        await report(path, imp, name, `'${imp.module}' (${target}) no longer exports ${name}${now}`);
    }
  }
  return found;
}

/** The name importers use for a module file: its stem, or its folder's for an `__init__.py` or index file. */
function moduleOf(file: string): string {
  const parts = file.split('/');
  const stem = parts.at(-1)!.replace(/\.[^.]+$/, '');
  return (stem === '__init__' || stem === 'index') && parts.length > 1 ? parts.at(-2)! : stem;
}

/**
 * Where `source` uses one of `names` as a member of `local` (`local.name`, spaces allowed around the dot), read with
 * the language's lexer so comments and strings are skipped; `local` must not itself be a member (`a.local.name`).
 */
export function memberUses(
  lang: LanguageSpec,
  source: string,
  local: string,
  names: readonly string[],
): { name: string; line: number; column: number }[] {
  const found: { name: string; line: number; column: number }[] = [];
  const wanted = new Set(names);
  let previous: { text: string; end: number } | undefined;
  let lineStart = 0;
  let line = 1;
  const lineOf = (index: number) => {
    for (let at = source.indexOf('\n', lineStart); at >= 0 && at < index; at = source.indexOf('\n', at + 1)) {
      line += 1;
      lineStart = at + 1;
    }
    return { line, column: index - lineStart + 1 };
  };
  for (const match of source.matchAll(lang.lexer)) {
    const word = match[1];
    if (word === undefined) {
      previous = undefined;
      continue;
    }
    if (
      previous?.text === local &&
      wanted.has(word) &&
      /^\s*\.\s*$/.test(source.slice(previous.end, match.index))
    ) {
      const before = source.slice(0, previous.end - local.length).trimEnd();
      if (!before.endsWith('.')) found.push({ name: word, ...lineOf(match.index) });
    }
    previous = { text: word, end: match.index + word.length };
  }
  return found;
}

/** Where `name` is first written as a word from `line` on (an import spanning lines): the import's line otherwise. */
function namePosition(
  lines: readonly string[],
  line: number,
  name: string,
  last = false,
): { line: number; column: number } {
  const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
  for (let at = line - 1; at < Math.min(lines.length, line + 20); at++) {
    const found = [...lines[at]!.matchAll(word)];
    const pick = last ? found.at(-1) : found[0];
    if (pick) return { line: at + 1, column: pick.index + 1 };
  }
  return { line, column: 1 };
}

const sleep = (ms: number) =>
  new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref());
