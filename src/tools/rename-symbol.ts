// rename_symbol: renames one binding everywhere its language service sees it (importers through barrels included),
// refused when the result would have new errors; without a service, a name-based rename. Written all or none.
import { promises as fs } from 'node:fs';
import * as z from 'zod';
import type { LanguageService, SourcePosition } from '../code/language/service.js';
import { indexLanguageOf, languageOf } from '../code/languages.js';
import { localBindingIn } from '../code/local-binding.js';
import { planRename, type RenamePlan } from '../code/rename.js';
import { definitionsOf } from '../code/symbol-definitions.js';
import { withNewErrors } from './after-change.js';
import { codeIndexOf } from './code-index-of.js';
import { formatDiagnostics, introducedErrors } from './diagnostics-diff.js';
import { fileChangeDiff } from './file-diff.js';
import { pythonOverrides } from './python-overrides.js';
import { withPythonAlias } from './rename-alias.js';
import { checkByName } from './rename-by-name.js';
import { wordSearch } from './service-check.js';
import { bindingFields, localNote, NAME_BASED, symbolTarget, undecidedNote } from './symbol-target.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';
import { writeFilesAtomic } from './write-files-atomic.js';

const schema = z.strictObject({
  ...bindingFields,
  new_name: z.string().min(1),
  keep_alias: z.boolean().optional().describe('old export name kept as alias'),
});

type Args = z.infer<typeof schema>;

/** A rename's check may take this long: it decides whether the rename lands. */
const CHECK_MS = 20_000;
/** Most files still naming the old name that are checked with the renamed ones. */
const MAX_LEFT = 20;

interface Planned {
  /** The name renamed: the member's of a `Class.member`. */
  name: string;
  files: { path: string; before: string; after: string; count: number }[];
  service?: { service: LanguageService; at: SourcePosition };
  /** By name: the uses it could not judge, and the local binding it was limited to (RenamePlan). */
  undecided?: RenamePlan['undecided'];
  local?: RenamePlan['local'];
  /** keep_alias in Python: where the old name was kept. */
  alias?: string;
  /** A Python method's: the overrides renamed with it, or why some may be missing. */
  hierarchy?: string;
}

async function plan(args: Args, ctx: ToolContext): Promise<Planned | string> {
  const planned = await planFiles(args, ctx);
  if (typeof planned === 'string' || args.keep_alias !== true || planned.local) return planned;
  // Python has no alias a rename could keep (pyright's renames every use): the old name is bound to the new one.
  const definedIn =
    planned.service?.at.path ??
    planned.definedIn ??
    (await (async () => {
      const files = [...new Set(definitionsOf(await codeIndexOf(ctx), planned.name).map((d) => d.path))];
      return files.length === 1 ? files[0] : undefined;
    })());
  if (definedIn === undefined || !/\.pyi?$/.test(definedIn)) return planned;
  const kept = await withPythonAlias(ctx, planned.files, planned.name, args.new_name, definedIn);
  return { ...planned, files: kept.files, alias: kept.note };
}

async function planFiles(args: Args, ctx: ToolContext): Promise<(Planned & { definedIn?: string }) | string> {
  const target = await symbolTarget(ctx, args);
  if (target.kind === 'error') return target.error;
  // `Class.member`: the member's name is what the files spell.
  const name = target.name;
  if (target.kind === 'service') {
    // A Python method's overrides (and the base's it overrides) go with it: pyright renames one class's.
    const overrides = await pythonOverrides(ctx, target.service, target.at, name, ctx.signal);
    const options = { keepPublicAlias: args.keep_alias === true, together: overrides.positions };
    const files = await target.service.rename(target.at, args.new_name, options, ctx.signal);
    if (typeof files === 'string') return files;
    if (files.length === 0) return `nothing to rename at ${target.at.path}:${target.at.line}`;
    const with_ = overrides.positions.map((p) => `${p.owner}.${name} (${p.path}:${p.line})`);
    const note = [
      with_.length > 0 ? `(with the same method in its class hierarchy: ${with_.join(', ')})` : undefined,
      overrides.incomplete ? `(${overrides.incomplete}: check the subclasses' ${name} yourself)` : undefined,
      // pyright does not say whether a library's base defines the method, and nothing breaks visibly if it did.
      ...overrides.outside.map(
        ({ owner, base }) =>
          `(${owner} derives from ${base}, outside the project: if ${base} defines ${name}, ${owner}.${name} overrode it and the new name no longer does — not checked)`,
      ),
    ].filter((n) => n !== undefined);
    // A function's local (starlette's `response` in request_response): no other file can name it, and the lines
    // still naming it elsewhere in its file are other bindings. Not a parameter: callers name it as a keyword.
    const binding =
      files.every((f) => f.path === target.at.path) && overrides.positions.length === 0
        ? await localBindingIn(await codeIndexOf(ctx), name, target.at.path, target.at.line, target.at.column)
        : undefined;
    const local = binding && !binding.parameter ? { ...binding, source: undefined } : undefined;
    return {
      name,
      files,
      service: target,
      ...(note.length > 0 ? { hierarchy: note.join('\n') } : {}),
      ...(local ? { local: { ...local, path: target.at.path } } : {}),
    };
  }
  const index = await codeIndexOf(ctx);
  const planned = await planRename(
    index,
    name,
    args.new_name,
    target.definedIn,
    ctx.signal,
    target.line,
    target.column,
  );
  if (typeof planned === 'string') return planned;
  return { name, ...planned, ...(target.definedIn === undefined ? {} : { definedIn: target.definedIn }) };
}

/**
 * The errors the rename would introduce, checked on the renamed texts before anything is written (whatever
 * code.diagnostics says: it decides whether the rename lands), or a note when the check could not finish.
 */
async function check(
  planned: Planned,
  args: Args,
  ctx: ToolContext,
): Promise<{ refuse: string } | { note: string } | undefined> {
  if (!planned.service) return undefined;
  const { service } = planned.service;
  const deadline = Date.now() + CHECK_MS;
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(CHECK_MS)]);
  try {
    // The files the rename leaves still naming the old name: a same-named symbol of their own, or an importer the
    // service's projects did not reach (another package's), which the rename would break.
    // A common name (a `get` method) is named by many files of their own: those are not checked, and the result
    // says how many there are.
    const all = planned.local ? [] : await wordSearch(ctx, [planned.name], signal);
    const renamed = new Set(planned.files.map((f) => f.path));
    const naming: string[] = [];
    // Components (.vue, .svelte, .astro) no language service reads: named in the result, not renamed.
    const components = all.filter((p) => !renamed.has(p) && indexLanguageOf(p) !== languageOf(p));
    for (const path of all)
      if (!renamed.has(path) && (await ctx.languages?.forFile(path)) === service) naming.push(path);
    const left = naming.length <= MAX_LEFT ? naming : [];
    const paths = [...planned.files.map((f) => f.path), ...left];
    const overlay = new Map(planned.files.map((f) => [f.path, f.after]));
    const after = await service.diagnostics(paths, signal, overlay, deadline);
    // Only files with errors after the rename can have new ones: the others need no check of their text before.
    const suspects = paths.filter((p) => after.some((d) => d.path === p && d.severity === 'error'));
    const before =
      suspects.length > 0 ? await service.diagnostics(suspects, signal, undefined, deadline) : [];
    const added = introducedErrors(before, after, { from: planned.name, to: args.new_name });
    if (added.length > 0) {
      const head = `renaming ${planned.name} to ${args.new_name} would introduce ${added.length} errors; nothing was written:`;
      // What to do instead: the model otherwise retries the same rename or edits every file by hand blindly.
      const instead = `(what to do: if ${args.new_name} is already taken where these errors are, pick another name; otherwise these places use ${planned.name} in ways the language service does not tie to it, such as a key written as a string or an object of the same shape: make the rename by hand with edit_file at these places and at those find_references lists)`;
      return { refuse: [head, ...formatDiagnostics(added), instead].join('\n') };
    }
    const notes: string[] = [];
    if (left.length < naming.length)
      notes.push(
        `(${naming.length} files the rename did not change still name ${planned.name}: too many to check; most likely same-named symbols of their own)`,
      );
    if (components.length > 0)
      notes.push(
        `(not renamed in components, which no language service here reads: ${components.slice(0, 5).join(', ')}${components.length > 5 ? ` and ${components.length - 5} more` : ''} still name ${planned.name}; update their uses)`,
      );
    return notes.length > 0 ? { note: notes.join('\n') } : undefined;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    // A cold pyright on a loaded machine: say what to run, not the abort's own words.
    const late = Date.now() >= deadline || (error instanceof Error && error.name === 'TimeoutError');
    const files = planned.files.map((f) => f.path);
    const shown = files.slice(0, 5).join(', ') + (files.length > 5 ? ` and ${files.length - 5} more` : '');
    return {
      note: late
        ? `(not checked for new errors: ${service.id} did not answer within ${CHECK_MS / 1000} s; get_diagnostics with the renamed files' paths checks them: ${shown})`
        : `(not checked for new errors: ${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/**
 * The Java file a rename must move with the type: a top-level type is declared in the file of its name (`public
 * class Owner` in Owner.java), and the renamed file now declares the new name at the top level. Its path and the
 * new one, or undefined.
 */
export function javaFileMove(
  files: readonly { path: string; after: string }[],
  name: string,
  newName: string,
): { from: string; to: string } | undefined {
  const file = files.find((f) => f.path === `${name}.java` || f.path.endsWith(`/${name}.java`));
  if (!file) return undefined;
  const declares = new RegExp(
    `^(?:public\\s+|final\\s+|abstract\\s+|sealed\\s+|non-sealed\\s+|strictfp\\s+)*(?:class|interface|enum|record|@interface)\\s+${newName}\\b`,
    'm',
  );
  if (!declares.test(file.after)) return undefined;
  return { from: file.path, to: `${file.path.slice(0, -`${name}.java`.length)}${newName}.java` };
}

/** Most places named in the note on where the old name is still written. */
const MAX_STILL = 6;

/**
 * Where the old name is still written after the rename, which renames code only: lines of the renamed files (a
 * comment, a docstring, a string, a symbol of the same name) and files no code index reads (docs, a changelog),
 * which a user would update by hand; undefined when there are none or the search fails.
 */
async function stillWritten(
  ctx: ToolContext,
  name: string,
  files: readonly { path: string; after: string }[],
  nameBased: boolean,
  /** `path:line`s a note of their own names (the undecided uses). */
  named: ReadonlySet<string> = new Set(),
  /** A local binding's rename: only its scope's lines can still mean it. */
  local?: { from: number; to: number },
): Promise<string | undefined> {
  // A part of a path (`'../constructFrom/index.ts'`, date-fns' folder per function) names no symbol.
  const word = new RegExp(`(?<![\\w$/])${name.replace(/[$]/g, '\\$')}(?![\\w$/])`, 'g');
  const lines: string[] = [];
  for (const file of files)
    for (const match of file.after.matchAll(word)) {
      const line = file.after.slice(0, match.index).split('\n').length;
      const at = `${file.path}:${line}`;
      if (local && (line < local.from || line > local.to)) continue;
      if (lines.at(-1) !== at && !named.has(at)) lines.push(at);
    }
  let texts: string[] = [];
  let code: string[] = [];
  // A local binding is named nowhere but in its scope.
  if (!local)
    try {
      const renamed = new Set(files.map((f) => f.path));
      const found = await wordSearch(ctx, [name], ctx.signal);
      texts = found.filter((p) => !renamed.has(p) && !indexLanguageOf(p));
      // By name, a file left alone may call it too: on a receiver whose type the search cannot tell.
      if (nameBased) code = found.filter((p) => !renamed.has(p) && indexLanguageOf(p));
    } catch (error) {
      if (ctx.signal.aborted) throw error;
    }
  const notes: string[] = [];
  const list = (places: string[]) =>
    places.slice(0, MAX_STILL).join(', ') +
    (places.length > MAX_STILL ? ` and ${places.length - MAX_STILL} more` : '');
  const places = [...lines, ...texts];
  if (places.length > 0)
    notes.push(
      `(${name} is still written where the rename does not reach (comments, strings, docs, same-named symbols): ${list(places)}; update those that mean this symbol)`,
    );
  if (code.length > 0)
    notes.push(
      `(not renamed, and still naming ${name}: ${list(code)}; by name the rename cannot tell whether they use this symbol or another of that name: check them)`,
    );
  return notes.length > 0 ? notes.join('\n') : undefined;
}

export const renameSymbolTool = defineTool({
  name: 'rename_symbol',
  description: 'Rename the symbol at path+line/column (or occurrence) everywhere; refused if it adds errors.',
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const planned = await plan(args, ctx);
    const summary = `rename ${args.name} to ${args.new_name}`;
    if (typeof planned === 'string') return { reads: [ctx.workspace.root], writes: [], summary };
    const move = javaFileMove(planned.files, planned.name, args.new_name);
    const writes = await Promise.all(
      [...planned.files.map((f) => f.path), ...(move ? [move.to] : [])].map((p) => ctx.workspace.resolve(p)),
    );
    const diff = planned.files.map((f) => fileChangeDiff(f.path, f.before, f.after)).join('\n');
    return { reads: writes, writes, diff, summary: `${summary} in ${planned.files.length} files` };
  },
  async execute(args, ctx) {
    const planned = await plan(args, ctx);
    if (typeof planned === 'string') return fail(planned);
    // With a service, its diagnostics; by name, the changed files parse as before (and the result says what else
    // was not checked).
    const checked = planned.service
      ? await check(planned, args, ctx)
      : checkByName(planned.files, planned.name, args.new_name);
    if (checked && 'refuse' in checked) return fail(checked.refuse, { refused: true });
    const { files } = planned;
    // A Java type's file goes with it: written under the new name, the old one removed.
    const move = javaFileMove(files, planned.name, args.new_name);
    const moveTo = move ? await ctx.workspace.resolve(move.to) : undefined;
    if (
      move &&
      moveTo &&
      (await fs.stat(moveTo).then(
        () => true,
        () => false,
      ))
    )
      return fail(
        `${move.to} already exists: the renamed ${planned.name}.java cannot take its name; pick another name`,
      );
    const changes = await Promise.all(
      files.map(async (f) => ({
        absolute: f.path === move?.from && moveTo ? moveTo : await ctx.workspace.resolve(f.path),
        before: f.path === move?.from ? undefined : f.before,
        after: f.after,
      })),
    );
    await writeFilesAtomic(changes, ctx);
    if (move) await fs.rm(await ctx.workspace.resolve(move.from), { force: true });
    const count = files.reduce((sum, f) => sum + f.count, 0);
    const list = files.map((f) => `  ${f.path} (${f.count})`).join('\n');
    const how = [
      planned.service ? undefined : planned.local ? localNote(planned.local, planned.name) : NAME_BASED,
      planned.hierarchy,
      checked?.note,
      planned.alias,
    ]
      .filter((n) => n !== undefined)
      .map((n) => `\n${n}`)
      .join('');
    const undecided = planned.undecided?.length
      ? `\n${undecidedNote(planned.undecided, planned.name, 'not renamed')}`
      : '';
    const written = files.map((f) => (move && f.path === move.from ? { ...f, path: move.to } : f));
    const left = await stillWritten(
      ctx,
      planned.name,
      written,
      !planned.service,
      new Set(planned.undecided?.map((u) => `${u.path}:${u.line}`)),
      planned.local,
    );
    const moved = move ? `\nmoved ${move.from} to ${move.to}: a Java type's file is named after it` : '';
    const text = `renamed ${args.name} to ${args.new_name}: ${count} occurrences in ${files.length} files\n${list}${moved}${how}${undecided}${left ? `\n${left}` : ''}`;
    const display = files.map((f) => fileChangeDiff(f.path, f.before, f.after)).join('\n');
    const result = ok(
      text,
      { files: files.length, occurrences: count, name_based: !planned.service },
      display,
    );
    // Checked above when a service renamed it; the name-based rename is checked after the fact where it can be.
    if (planned.service) {
      ctx.languages?.changed(files.map((f) => f.path));
      return result;
    }
    return withNewErrors(ctx, changes, result, { leftNamed: true });
  },
});
