// The check after a change by the files' language services: the errors it introduced in the files it touched, and
// in the files still naming what it took away (an export, a module it deleted or moved), found with ripgrep and read
// by broken-imports.ts first; each check within its budget once the service has loaded what it needs.
import { promises as fs } from 'node:fs';
import { removedExports, staleAllEntries } from '../code/exported-names.js';
import type { Diagnostic, LanguageService } from '../code/language/service.js';
import { indexLanguageOf, languageOf } from '../code/languages.js';
import { SKIPPED_DIRS } from '../project/file-walk.js';
import { brokenImports } from './broken-imports.js';
import { introducedErrors } from './diagnostics-diff.js';
import { bundledRgPath, RG_BASE_ARGS, runRipgrep } from './ripgrep.js';
import type { ToolContext } from './tool.js';

/** One file a tool changed: its absolute path, its text before (undefined: new) and after. */
export interface Touched {
  absolute: string;
  before: string | undefined;
  after: string;
  /** The file is gone (deleted, or moved away): its importers are checked, not the file. */
  removed?: boolean;
  /** Moved here from this absolute path: its errors before are those it had there. */
  movedFrom?: string;
}

/** A touched file with its workspace-relative path. */
export interface Relative extends Touched {
  path: string;
  /** movedFrom, workspace-relative. */
  from?: string;
}

/** The name importers use for a module: its file's stem, or its folder's for an index or __init__ file. */
export function moduleName(path: string): string {
  const parts = path.split('/');
  const stem = (parts.at(-1) ?? '').replace(/\.[^.]+$/, '');
  return (stem === 'index' || stem === '__init__') && parts.length > 1 ? parts.at(-2)! : stem;
}

export const BUDGET_MS = 2000;
/** How many budgets a language service may take to load (build a program, read a project) before a check. */
export const LOAD_BUDGETS = 5;
/** Most names a change took away that are searched for, and most files naming them that are checked. */
const MAX_REMOVED = 10;
const MAX_IMPORTERS = 20;

/** The touched files grouped by the service that handles them (none: no entry). */
async function byService(ctx: ToolContext, touched: readonly Relative[]) {
  const groups = new Map<LanguageService, Relative[]>();
  for (const file of touched) {
    const service = await ctx.languages?.forFile(file.path);
    if (service) groups.set(service, [...(groups.get(service) ?? []), file]);
  }
  return groups;
}

interface Found {
  errors: Diagnostic[];
  /** Why some were not looked for. */
  note?: string;
}

/** The errors the change introduced, and a note saying what could not be checked in time. */
export async function introduced(ctx: ToolContext, touched: readonly Relative[]): Promise<Found> {
  const budget = ctx.limits.diagnosticsMs ?? BUDGET_MS;
  // Starting a service (requiring the compiler, building a project's program) is not computing diagnostics: the
  // budget starts once it is up. Without this, a first check in a project of a thousand files spent the budget on
  // the program alone and reported nothing.
  // Loading is waited for up to LOAD_BUDGETS budgets: a monorepo whose program takes a minute to build gets its
  // result now, with a note, and the build goes on (a worker's, or a server's) for the next check.
  const groups = await byService(ctx, touched).catch(() => new Map<LanguageService, Relative[]>());
  const loading = AbortSignal.timeout(budget * LOAD_BUDGETS);
  // Raced, not only signalled: a service doing synchronous work (the compiler in this thread) cannot hear it.
  const loaded = new Promise<void>((resolve) =>
    loading.addEventListener('abort', () => resolve(), { once: true }),
  );
  for (const [service, files] of groups) {
    if (loading.aborted) break;
    const prepared = service.prepare?.(
      files.map((f) => f.path),
      AbortSignal.any([ctx.signal, loading]),
    );
    await Promise.race([prepared?.catch(() => undefined), loaded]);
  }
  ctx.signal.throwIfAborted();
  const notes: string[] = [];
  const errors: Diagnostic[] = [];
  // Why the files naming what the change took away cannot be checked now: they are still named (ripgrep needs no
  // service), so a change that broke them never reads as clean.
  let stalled: string | undefined;
  if (loading.aborted) {
    notes.push(
      `(diagnostics skipped: the project was still loading after ${(budget * LOAD_BUDGETS) / 1000} s; it goes on loading, and get_diagnostics lists errors)`,
    );
    stalled = 'not checked: the project is still loading';
  } else {
    const deadline = Date.now() + budget;
    // The deadline stops synchronous work (the TypeScript service); the signal stops a language server's request.
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(budget)]);
    try {
      for (const [service, files] of groups)
        if (files.some((f) => !f.removed))
          errors.push(...(await newErrors(service, files, [], signal, deadline)));
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const late = Date.now() > deadline;
      notes.push(
        late
          ? `(diagnostics skipped: not ready within ${budget / 1000} s; get_diagnostics lists errors; code.diagnostics_timeout_seconds sets the wait)`
          : `(diagnostics skipped: ${error instanceof Error ? error.message : String(error)})`,
      );
      stalled = late ? `not checked within ${budget / 1000} s` : 'not checked';
    }
  }
  // An export the change took away breaks the files that use it, not the file itself: those are checked too.
  for (const [service, files] of groups) {
    // A removed file's importers name its module; an edited file's users name the exports it took away.
    const removed = [
      ...new Set(
        files.flatMap((f) =>
          f.removed
            ? [moduleName(f.path)]
            : f.before === undefined
              ? []
              : removedExports(f.path, f.before, f.after),
        ),
      ),
    ].slice(0, MAX_REMOVED);
    if (removed.length === 0) continue;
    // A Python module's `__all__` still listing a name it took away: `from module import *` fails.
    for (const f of files)
      if (!f.removed && f.before !== undefined)
        // The service may have said so itself.
        for (const stale of staleAllEntries(f.path, f.after, removedExports(f.path, f.before, f.after)))
          if (!errors.some((e) => e.path === f.path && e.line === stale.line))
            errors.push({
              path: f.path,
              line: stale.line,
              column: stale.column,
              severity: 'error',
              message: `__all__ lists ${stale.name}, which this module no longer defines`,
            });
    const gone = files.some((f) => f.removed)
      ? 'which this change removed'
      : 'which this change no longer exports';
    let naming: string[];
    try {
      const found = await wordSearch(ctx, removed, ctx.signal);
      naming = await handledBy(ctx, service, found, files);
      // Components (.vue, .svelte, .astro) no language service here reads: named, not checked.
      const components = found.filter((p) => indexLanguageOf(p) !== languageOf(p));
      if (components.length > 0) {
        const shown =
          components.slice(0, 5).join(', ') +
          (components.length > 5 ? ` and ${components.length - 5} more` : '');
        notes.push(
          `(components naming ${removed.join(', ')}, ${gone}, are not checked: no language service here reads them: ${shown})`,
        );
      }
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      notes.push(
        unchecked(
          [],
          removed,
          gone,
          `not checked: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      continue;
    }
    // Keel's own reading first: an import of a name taken away is broken for sure, and needs no service (which may
    // take seconds to check a dozen files after a change to a big program). The service checks the rest.
    const broken = naming.length > 0 ? await brokenImports(ctx, files, removed, naming, budget) : [];
    errors.push(...broken);
    const sure = new Set(broken.map((d) => d.path));
    const rest = naming.filter((p) => !sure.has(p));
    if (stalled !== undefined) {
      if (rest.length > 0) notes.push(unchecked(rest, removed, gone, stalled));
      continue;
    }
    const checked = rest.slice(0, MAX_IMPORTERS);
    // Those in the changed file's own package first: its program (or its server's project) is the one loaded, and
    // another package's loading past the budget leaves these checked.
    const home = await packageOf(ctx, files[0]!.path);
    const near = checked.filter((p) => home === '' || p.startsWith(`${home}/`));
    for (const group of [near, checked.filter((p) => !near.includes(p))]) {
      if (group.length === 0) continue;
      const found = await checkNaming(ctx, service, files, group, budget);
      if (typeof found === 'string') notes.push(unchecked(group, removed, gone, found));
      else errors.push(...found);
    }
    if (rest.length > checked.length)
      notes.push(unchecked(rest.slice(checked.length), removed, gone, 'not checked (too many)'));
  }
  const note = notes.length > 0 ? notes.join('\n') : undefined;
  return { errors, note };
}

/**
 * The new errors in `group`, files naming what `files` took away, or why they were not checked. Their first check
 * is loading too (a language server opening them, another project's program): bounded by a budget of its own, and
 * the check has its own after it. Still loading then, they are named at once: their check would wait for the load.
 */
async function checkNaming(
  ctx: ToolContext,
  service: LanguageService,
  files: Relative[],
  group: string[],
  budget: number,
): Promise<Diagnostic[] | string> {
  const late = `not checked within ${budget / 1000} s`;
  let until = Date.now() + budget;
  try {
    const loading = AbortSignal.timeout(budget);
    await service.prepare?.(group, AbortSignal.any([ctx.signal, loading])).catch(() => undefined);
    ctx.signal.throwIfAborted();
    if (loading.aborted) return late;
    until = Date.now() + budget;
    return await newErrors(
      service,
      files,
      group,
      AbortSignal.any([ctx.signal, AbortSignal.timeout(budget)]),
      until,
    );
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return Date.now() > until
      ? late
      : `not checked: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** A folder holding one of these files is a package of its own: a project its language service loads apart. */
const PACKAGE_FILES = [
  'package.json',
  'tsconfig.json',
  'jsconfig.json',
  'pyproject.toml',
  'setup.py',
  'go.mod',
  'Cargo.toml',
];

/** The workspace-relative folder of the package holding `path` (its nearest folder with a manifest), '' the root. */
async function packageOf(ctx: ToolContext, path: string): Promise<string> {
  const parts = path.split('/').slice(0, -1);
  for (let depth = parts.length; depth > 0; depth--) {
    const folder = parts.slice(0, depth).join('/');
    for (const name of PACKAGE_FILES)
      if (
        await fs.access(`${ctx.workspace.root}/${folder}/${name}`).then(
          () => true,
          () => false,
        )
      )
        return folder;
  }
  return '';
}

/** Says which files name exports a change took away and were not checked, and how to check them. */
function unchecked(files: readonly string[], removed: readonly string[], gone: string, why: string): string {
  const names = removed.join(', ');
  if (files.length === 0) return `(files naming ${names}, ${gone}: ${why})`;
  const shown = files.slice(0, 5).join(', ') + (files.length > 5 ? ` and ${files.length - 5} more` : '');
  return `(${files.length} file${files.length === 1 ? '' : 's'} naming ${names}, ${gone}: ${why}; get_diagnostics with their paths checks them: ${shown})`;
}

/**
 * The errors in `others` (or, when there are none, in the changed `files` themselves) that the texts before the
 * change did not have. Files without errors now have no new ones: the texts before need no check (the usual case).
 */
async function newErrors(
  service: LanguageService,
  files: readonly Relative[],
  others: readonly string[],
  signal: AbortSignal,
  deadline: number,
): Promise<Diagnostic[]> {
  const paths = others.length > 0 ? others : files.filter((f) => !f.removed).map((f) => f.path);
  const after = await service.diagnostics([...paths], signal, undefined, deadline);
  const suspects = paths.filter((p) => after.some((d) => d.path === p));
  const changed = files.filter((f) => f.before !== undefined);
  const overlay = new Map(changed.map((f) => [f.path, f.before!]));
  // A moved file's errors before are those it had where it was (its text there, in the overlay).
  const whereBefore = (p: string) => files.find((f) => f.path === p)?.from ?? p;
  const asked = (others.length > 0 ? suspects : suspects.map(whereBefore)).filter(
    (p) => others.length > 0 || overlay.has(p),
  );
  const before = asked.length > 0 ? await service.diagnostics(asked, signal, overlay, deadline) : [];
  return introducedErrors(before, after);
}

/** Of the files `wordSearch` found, the others (not `changed`) that `service` handles. */
async function handledBy(
  ctx: ToolContext,
  service: LanguageService,
  found: readonly string[],
  changed: readonly { path: string }[],
): Promise<string[]> {
  const own = new Set(changed.map((f) => f.path));
  const handled: string[] = [];
  for (const path of found) {
    if (!own.has(path) && (await ctx.languages?.forFile(path)) === service) handled.push(path);
  }
  return handled;
}

/**
 * The workspace's files naming any of `names` as a whole word (ripgrep), sorted, dependencies and builds left out.
 * Not lsp-mentions' filesNaming: that walk reads every file in this process, seconds on a 27k-file tree, for a check
 * that has two.
 */
export async function wordSearch(
  ctx: ToolContext,
  names: readonly string[],
  signal: AbortSignal,
): Promise<string[]> {
  const found: string[] = [];
  // Dependencies, build output and vendored code are no users to check, ignored by git or not.
  const skipped = [...SKIPPED_DIRS].map((dir) => `--glob=!**/${dir}/**`);
  const argv = [...RG_BASE_ARGS, ...skipped, '--files-with-matches', '--word-regexp', '--fixed-strings'];
  await runRipgrep(await bundledRgPath(), [...argv, ...names.flatMap((n) => ['-e', n]), '--', '.'], {
    cwd: ctx.workspace.root,
    signal,
    onLine: (data, start, end) => found.push(data.toString('utf8', start, end).replace(/^\.\//, '')),
  });
  return found.sort();
}
