// Feedback after a change: the errors a file tool's change introduced, from the language service of each file (new
// errors only: those before the change are subtracted, service-check.ts), within 2 s once the service has loaded;
// files no service reads here are checked by `go vet` (go-check.ts) or by name (unserved-check.ts).
import { promises as fs } from 'node:fs';
import type { Diagnostic } from '../code/language/service.js';
import { indexLanguageOf, languageOf } from '../code/languages.js';
import { formatDiagnostics } from './diagnostics-diff.js';
import { BUDGET_MS, introduced, LOAD_BUDGETS, type Relative, type Touched } from './service-check.js';
import type { ToolContext, ToolResult } from './tool.js';

export type { Touched } from './service-check.js';

/** Files whose new text is longer are not checked after a change. */
const MAX_CHECKED_CHARS = 1_000_000;

/**
 * The text of a file about to be deleted or moved, when a language service handles it and checks are on: what
 * its importers are checked against once it is gone; undefined otherwise (or over 1 MB).
 */
export async function checkedText(
  ctx: ToolContext,
  absolute: string,
  size: number,
): Promise<string | undefined> {
  if (!ctx.languages || ctx.diagnostics === false || size > MAX_CHECKED_CHARS) return undefined;
  const path = ctx.workspace.pathOf(absolute).split('\\').join('/');
  if (!(await ctx.languages.forFile(path).catch(() => undefined))) return undefined;
  return fs.readFile(absolute, 'utf8').catch(() => undefined);
}

/**
 * `result` with the errors its change introduced in the files it touched (after the files are written); the
 * language services are told the files changed. Nothing is added without a service or with code.diagnostics off.
 */
export async function withNewErrors(
  ctx: ToolContext,
  touched: readonly Touched[],
  result: ToolResult,
  /** `leftNamed`: the result already names where the old names are still written (rename_symbol). */
  options: { leftNamed?: boolean } = {},
): Promise<ToolResult> {
  if (!result.success || !ctx.languages || touched.length === 0) return result;
  const relative = (absolute: string) => ctx.workspace.pathOf(absolute).split('\\').join('/');
  const files = touched.map((t) => ({
    ...t,
    path: relative(t.absolute),
    ...(t.movedFrom ? { from: relative(t.movedFrom) } : {}),
  }));
  ctx.languages.changed(files.map((t) => t.path));
  if (ctx.diagnostics === false) return result;
  // A generated or bundled file of megabytes: parsing it again for each change took seconds, and nobody fixes its types.
  const big = files.filter((f) => f.after.length > MAX_CHECKED_CHARS);
  const checked = files.filter((f) => f.after.length <= MAX_CHECKED_CHARS);
  const skipped =
    big.length > 0
      ? `(diagnostics skipped for ${big.map((f) => f.path).join(', ')}: over ${MAX_CHECKED_CHARS / 1_000_000} MB)`
      : undefined;
  const { errors, note } =
    checked.length > 0 ? await introduced(ctx, checked) : { errors: [], note: undefined };
  // Files no service reads: Go ones checked by `go vet` where the go command is here; the rest (and Go where it
  // could not run) named where their removed definitions are still named.
  const alone = await unservedFiles(ctx, checked);
  const vetted = await goVetted(ctx, alone);
  if (vetted) errors.push(...vetted.errors);
  const left = options.leftNamed
    ? undefined
    : // Vetted clean but for the change's own errors: the by-name note has nothing to add. Other errors may have
      // stopped vet before the importers (a package failing already): the note still names them.
      await unserved(ctx, vetted && !vetted.note ? alone.filter((f) => !f.path.endsWith('.go')) : alone);
  const notes = [skipped, note, vetted?.note, left].filter((n) => n !== undefined);
  const output = [result.output, ...notes].join('\n');
  if (errors.length === 0) return notes.length > 0 ? { ...result, output } : result;
  const count = `${errors.length} new error${errors.length === 1 ? '' : 's'}`;
  return {
    ...result,
    output: [output, `${count} after this change:`, ...formatDiagnostics(errors)].join('\n'),
    metadata: { ...result.metadata, new_errors: errors.length },
    // The user sees them too: counted on the summary line, the first few under the diff.
    display: withErrors(result.display ?? result.output.split('\n')[0] ?? '', count, errors),
  };
}

/**
 * For the changed files no language service reads here (Go without gopls): where that language's code still names a
 * definition the change took away, as a note (unserved-check.ts); undefined when there is nothing to say.
 */
async function unserved(ctx: ToolContext, alone: readonly Relative[]): Promise<string | undefined> {
  if (!alone.some((file) => file.before !== undefined)) return undefined;
  try {
    const { unservedNote } = await import('./unserved-check.js');
    return await unservedNote(ctx, alone);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return undefined;
  }
}

/** The changed files in a language the index parses that no language service reads here. */
async function unservedFiles(ctx: ToolContext, files: readonly Relative[]): Promise<Relative[]> {
  const alone: Relative[] = [];
  // Code in a language the index parses only (a note or a data file has no definitions to take away).
  for (const file of files)
    if (
      indexLanguageOf(file.path) === languageOf(file.path) &&
      languageOf(file.path) !== undefined &&
      !(await ctx.languages?.forFile(file.path).catch(() => undefined))
    )
      alone.push(file);
  return alone;
}

/** What `go vet` says of the Go files no service reads (go-check.ts); undefined when it could not check. */
async function goVetted(ctx: ToolContext, alone: readonly Relative[]) {
  if (!alone.some((file) => file.path.endsWith('.go'))) return undefined;
  try {
    const [{ goVetErrors }, { changedSignatures, removedDefinitions }] = await Promise.all([
      import('./go-check.js'),
      import('./unserved-check.js'),
    ]);
    // A cold build cache compiles the standard library first (seconds, once): the budget a project's loading gets.
    const budget = (ctx.limits.diagnosticsMs ?? BUDGET_MS) * LOAD_BUDGETS;
    const lang = languageOf('a.go')!;
    // The change's errors name what it took away or changed the signature of.
    return await goVetErrors(ctx, alone, budget, (file) =>
      file.before === undefined
        ? []
        : file.removed
          ? removedDefinitions(lang, file.before, undefined)
          : [
              ...removedDefinitions(lang, file.before, file.after),
              ...changedSignatures(lang, file.before, file.after),
            ],
    );
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return undefined;
  }
}

function withErrors(display: string, count: string, errors: readonly Diagnostic[]): string {
  const [summary = '', ...rest] = display.split('\n');
  return [`${summary} · ${count}`, ...rest, ...formatDiagnostics(errors, 3)].join('\n');
}
