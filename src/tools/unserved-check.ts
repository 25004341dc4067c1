// The check after a change to a file no language service reads here (Go without gopls, Rust without
// rust-analyzer, Java without jdtls): the definitions the change took away, and the places in that language's code
// still naming them. By name only, so a note, never errors: the change is not reported clean when it broke callers.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { goPackageNames } from '../code/go-references.js';
import { pathServers } from '../code/language/lsp-servers.js';
import { indexLanguageOf, type LanguageSpec, languageOf } from '../code/languages.js';
import { extractTags, type FileTags } from '../code/tags.js';
import { SKIPPED_DIRS } from '../project/file-walk.js';
import type { Changed } from './broken-imports.js';
import { bundledRgPath, RG_BASE_ARGS, runRipgrep } from './ripgrep.js';
import type { ToolContext } from './tool.js';

/** Most names looked for, and places named in the note. */
const MAX_NAMES = 10;
const MAX_PLACES = 8;
/** A member's name shorter than this (`run`, `get`) is everywhere: not looked for. */
const MIN_MEMBER_NAME = 6;

/** The names `before` defined and `after` does not: top-level ones, and members with specific names. */
export function removedDefinitions(lang: LanguageSpec, before: string, after: string | undefined): string[] {
  const names = (tags: FileTags) => new Set(tags.definitions.map((d) => d.name));
  const was = extractTags(lang, before);
  const now = after === undefined ? new Set<string>() : names(extractTags(lang, after));
  const gone = was.definitions.filter(
    (d) =>
      !now.has(d.name) &&
      ((d.container === undefined && d.kind !== 'method') || d.name.length >= MIN_MEMBER_NAME),
  );
  return [...new Set(gone.map((d) => d.name))];
}

/** The names `before` and `after` both define with another signature (`GetName()` → `GetName(x int)`). */
export function changedSignatures(lang: LanguageSpec, before: string, after: string): string[] {
  const signatures = (source: string) => {
    const by = new Map<string, Set<string>>();
    for (const d of extractTags(lang, source).definitions) {
      const key = `${d.container ?? ''}.${d.name}`;
      by.set(key, (by.get(key) ?? new Set()).add(d.signature));
    }
    return by;
  };
  const was = signatures(before);
  const now = signatures(after);
  const changed = new Set<string>();
  for (const [key, old] of was) {
    const current = now.get(key);
    if (current && [...old].some((signature) => !current.has(signature))) changed.add(key.split('.').pop()!);
  }
  return [...changed];
}

/** The note for the changed files no service checked, or undefined when they took nothing away still named. */
export async function unservedNote(ctx: ToolContext, files: readonly Changed[]): Promise<string | undefined> {
  const notes: string[] = [];
  for (const file of files) {
    const lang = indexLanguageOf(file.path);
    // Components (.vue, .svelte) are named by the check of their scripts' language; nothing parses the rest.
    if (!lang || lang !== languageOf(file.path) || file.before === undefined) continue;
    let removed: string[];
    try {
      removed = removedDefinitions(lang, file.before, file.removed ? undefined : file.after).slice(
        0,
        MAX_NAMES,
      );
    } catch {
      continue;
    }
    if (removed.length === 0) continue;
    let found = await namedAt(ctx, removed, (p) => indexLanguageOf(p)?.id === lang.id);
    // Go's names are package-wide: bare in the package's own folder, `pkg.Name` in files importing it.
    if (lang.id === 'go') found = await goUses(ctx, file.path, removed, found);
    const places = found.map((f) => `${f.path}:${f.line}`);
    if (places.length === 0) continue;
    const extension = path.extname(file.path).toLowerCase();
    const server = pathServers.find((s) => s.extensions.includes(extension));
    const why = server
      ? `no language service checks ${extension} files here (${server.command[0]} is not on PATH)`
      : `no language service checks ${extension} files here`;
    const shown = places.slice(0, MAX_PLACES).join(', ');
    const more = places.length > MAX_PLACES ? ` and ${places.length - MAX_PLACES} more` : '';
    const what = file.removed ? 'which this change removed with the file' : 'which this change removed';
    const inFiles = new Set(places.map((p) => p.slice(0, p.lastIndexOf(':')))).size;
    const count = `${places.length} place${places.length === 1 ? '' : 's'} in ${inFiles} file${inFiles === 1 ? '' : 's'}`;
    notes.push(
      `(${why}: ${count} still name${places.length === 1 ? 's' : ''} ${removed.join(', ')}, ${what}: ${shown}${more}; found by name, so some may be other symbols of that name: update those that use it)`,
    );
  }
  return notes.length > 0 ? notes.join('\n') : undefined;
}

interface Place {
  path: string;
  line: number;
  text: string;
}

/**
 * Of the Go lines naming `names`, those that can use the package's own: bare in a file of the package's folder,
 * `alias.Name` in a file importing the package by its path (go.mod's module path and the folder).
 */
async function goUses(
  ctx: ToolContext,
  changed: string,
  names: readonly string[],
  found: readonly Place[],
): Promise<Place[]> {
  const dir = path.posix.dirname(changed);
  const goMod = await fs.readFile(path.join(ctx.workspace.root, 'go.mod'), 'utf8').catch(() => '');
  const module = /^module\s+(\S+)/m.exec(goMod)?.[1];
  const importPath = module && (dir === '.' ? module : `${module}/${dir}`);
  const either = names.map(escapeRegExp).join('|');
  const bare = new RegExp(`(?<![\\w.])(?:${either})\\b`);
  const aliases = new Map<string, ReadonlySet<string>>();
  const aliasesIn = async (file: string): Promise<ReadonlySet<string>> => {
    if (!importPath) return new Set();
    let found = aliases.get(file);
    if (!found) {
      const text = await fs.readFile(path.join(ctx.workspace.root, file), 'utf8').catch(() => '');
      const go = languageOf(file);
      found = go ? goPackageNames(extractTags(go, text).imports, importPath) : new Set();
      aliases.set(file, found);
    }
    return found;
  };
  const kept: Place[] = [];
  for (const place of found) {
    // Comments say nothing about the build.
    const code = place.text.replace(/\/\/.*$/, '');
    if (path.posix.dirname(place.path) === dir) {
      if (bare.test(code)) kept.push(place);
      continue;
    }
    for (const alias of await aliasesIn(place.path))
      if (new RegExp(`(?<![\\w.])${escapeRegExp(alias)}\\s*\\.\\s*(?:${either})\\b`).test(code)) {
        kept.push(place);
        break;
      }
  }
  return kept;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each line naming one of `names` as a word, in the files `keep` accepts, by path and line. */
async function namedAt(
  ctx: ToolContext,
  names: readonly string[],
  keep: (path: string) => boolean,
): Promise<Place[]> {
  const found: Place[] = [];
  const skipped = [...SKIPPED_DIRS].map((dir) => `--glob=!**/${dir}/**`);
  const argv = [
    ...RG_BASE_ARGS,
    ...skipped,
    '--line-number',
    '--with-filename',
    '--no-heading',
    '--word-regexp',
    '--fixed-strings',
    '--max-count=20',
    ...names.flatMap((n) => ['-e', n]),
    '--',
    '.',
  ];
  await runRipgrep(await bundledRgPath(), argv, {
    cwd: ctx.workspace.root,
    signal: ctx.signal,
    onLine: (data, start, end) => {
      const line = data.toString('utf8', start, end);
      const match = /^(?:\.\/)?(.+?):(\d+):(.*)$/.exec(line);
      if (match && keep(match[1]!)) found.push({ path: match[1]!, line: Number(match[2]), text: match[3]! });
    },
  });
  return found.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
}
