// Which binding rename_symbol and find_references mean: `path` + `line`/`column`, or `path` + the nth occurrence of
// `name`, else the file that defines `name`; with a language service for that file the binding is exact, without
// one the tools fall back to the name-based search.
import { promises as fs } from 'node:fs';
import * as z from 'zod';
import { bindingAt } from '../code/language/position.js';
import type { LanguageService, SourcePosition } from '../code/language/service.js';
import { localBindingIn } from '../code/local-binding.js';
import { definitionsOf, ownerOf, qualifiedName } from '../code/symbol-definitions.js';
import { shownPath } from '../core/shown-path.js';
import { codeIndexOf, indexPath } from './code-index-of.js';
import type { ToolContext } from './tool.js';

export const bindingFields = {
  name: z.string().min(1),
  path: z.string().optional(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  occurrence: z.number().int().optional().describe('nth in path'),
};

const bindingSchema = z.strictObject(bindingFields);
export type BindingArgs = z.infer<typeof bindingSchema>;

/** Each target's `name` is the symbol's own, the member's of a `Class.member`: what the files spell at its uses. */
export type SymbolTarget =
  /** `note`: which of several same-named definitions was taken (find_references' pick, see definingFile). */
  | { kind: 'service'; name: string; service: LanguageService; at: SourcePosition; note?: string }
  /**
   * No service for the file: the name-based tools, limited to `definedIn` when the model named the file (or a
   * `Class.member` did), and to the definition at `line` of it when the position gave one (Record's `args`, not
   * RecordBuilder's beside it).
   */
  | {
      kind: 'names';
      name: string;
      definedIn: string | undefined;
      line?: number;
      column?: number;
      /** A search's: the same-named members it leaves out (membersLeftOut). */
      note?: string;
    }
  | { kind: 'error'; error: string };

const MEMBER_KINDS = new Set(['method', 'field']);

type Defined = ReturnType<typeof definitionsOf>[number];

/** `path:line (Class.name)`: a definition as a choice to give back. */
const where = (d: Defined) => {
  const owner = ownerOf(d.def);
  return `${shownPath(d.path)}:${d.def.line}${owner ? ` (${owner}.${d.def.name})` : ''}`;
};

/**
 * The file and line of `name`'s one defining file, or why there is none to pick. `topLevel` (a search, never a
 * change): of several, the one module-level definition when the others are members of classes (rich's
 * `cell_len()` beside `Text.cell_len`), with a note naming the others.
 */
async function definingFile(ctx: ToolContext, name: string, topLevel: boolean) {
  const defs = definitionsOf(await codeIndexOf(ctx), name);
  const files = [...new Set(defs.map((d) => d.path))];
  if (files.length <= 1) return defs[0] ? { path: defs[0].path, line: defs[0].def.line } : undefined;
  // Several files define it: a language service needs the one meant, the name-based search takes them all.
  for (const file of files) {
    if (await ctx.languages?.forFile(file)) {
      const places = defs.slice(0, 5).map((d) => `${shownPath(d.path)}:${d.def.line}`);
      const tops = defs.filter((d) => d.def.container === undefined && !MEMBER_KINDS.has(d.def.kind));
      if (topLevel && tops.length === 1) {
        const others = defs.filter((d) => d !== tops[0]).slice(0, 5);
        const also = others.map(
          (d) =>
            `${d.def.container ? `${d.def.container}.` : ''}${name} at ${shownPath(d.path)}:${d.def.line}`,
        );
        return {
          path: tops[0]!.path,
          line: tops[0]!.def.line,
          note: `(the module-level ${name} of ${shownPath(tops[0]!.path)}; also ${also.join(', ')}: give path and line for those)`,
        };
      }
      return `${name} is defined in ${files.length} files (${places.join(', ')}); give path and line`;
    }
  }
  return undefined;
}

/**
 * The one definition a `Class.member` names (`file`: in that file), or why there is none: the class's members of
 * that name in one file (a Java method's overloads) are one.
 */
async function qualifiedDefinition(
  ctx: ToolContext,
  name: string,
  file: string | undefined,
): Promise<Defined | string> {
  const defs = definitionsOf(await codeIndexOf(ctx), name, file);
  if (defs.length === 0)
    return `no definition of ${name}${file ? ` in ${shownPath(file)}` : ''}; try search_code`;
  const files = [...new Set(defs.map((d) => d.path))];
  if (files.length > 1) {
    const first = files.slice(0, 5).map((f) => `${shownPath(f)}:${defs.find((d) => d.path === f)!.def.line}`);
    return `${name} is defined in ${files.length} files (${first.join(', ')}); give path`;
  }
  return defs[0]!;
}

/**
 * The name-based target at `line` of `file` (given, or the line of the `occurrence`-th `name` there), as a
 * definition there: the one on that line, else the file's only one (or its only class's). A line of a use among
 * definitions of several classes is refused: by name the tools cannot tell which one it means, and taking them
 * all renamed Record's `args` and RecordBuilder's alike.
 */
async function namesAt(
  ctx: ToolContext,
  name: string,
  file: string,
  at: { line?: number; column?: number; occurrence?: number },
): Promise<SymbolTarget> {
  let line = at.line;
  let column = at.column;
  if (line === undefined) {
    if (at.occurrence === undefined) return { kind: 'names', name, definedIn: file };
    const text = await fs.readFile(await ctx.workspace.resolveForRead(file), 'utf8').catch(() => undefined);
    if (text === undefined) return { kind: 'error', error: `cannot read ${shownPath(file)}` };
    const found = bindingAt(text, name, { occurrence: at.occurrence });
    if ('error' in found) return { kind: 'error', error: `${shownPath(file)}: ${found.error}` };
    line = found.line;
    column = found.column;
  }
  const index = await codeIndexOf(ctx);
  // A local variable or a parameter there (jsoup's `accum` in Element.text beside TextAccumulator's field): that one.
  if (await localBindingIn(index, name, file, line, column))
    return { kind: 'names', name, definedIn: file, line, ...(column === undefined ? {} : { column }) };
  const defs = definitionsOf(index, name, file);
  const on = defs.some((d) => d.def.line <= line && line <= d.def.endLine);
  if (!on && new Set(defs.map((d) => ownerOf(d.def) ?? '')).size > 1)
    return {
      kind: 'error',
      error: `${shownPath(file)}:${line} is no definition of ${name}, and by name (no language service for this file) it cannot tell which of the file's ${defs.length} definitions it means: ${defs.slice(0, 6).map(where).join(', ')}; give the line of one, or name it Class.${name}`,
    };
  return { kind: 'names', name, definedIn: file, line };
}

export async function symbolTarget(
  ctx: ToolContext,
  args: BindingArgs,
  options: { topLevel?: boolean } = {},
): Promise<SymbolTarget> {
  const { owner, member: name } = qualifiedName(args.name);
  let file: string | undefined = args.path === undefined ? undefined : await indexPath(ctx, args.path);
  let line = args.line;
  let note: string | undefined;
  // By name, every file: a search says which same-named members it leaves out.
  const everywhere = async (): Promise<SymbolTarget> => {
    const left = options.topLevel
      ? membersLeftOut(definitionsOf(await codeIndexOf(ctx), name), name)
      : undefined;
    return { kind: 'names', name, definedIn: undefined, ...(left ? { note: left } : {}) };
  };
  if (owner !== undefined) {
    // `Class.member`: that class's definition, wherever it is; its line unless the call gave a position.
    const defined = await qualifiedDefinition(ctx, args.name, file);
    if (typeof defined === 'string') return { kind: 'error', error: defined };
    file = defined.path;
    if (args.occurrence === undefined) line ??= defined.def.line;
  } else if (file !== undefined) {
    // Neither line nor occurrence: the name where the file defines it, not a mention in a comment above.
    if (line === undefined && args.occurrence === undefined && (await ctx.languages?.forFile(file))) {
      line = definitionsOf(await codeIndexOf(ctx), name, file)[0]?.def.line;
    }
  } else {
    const defined = ctx.languages ? await definingFile(ctx, name, options.topLevel === true) : undefined;
    if (typeof defined === 'string') return { kind: 'error', error: defined };
    if (!defined) return everywhere();
    file = defined.path;
    note = 'note' in defined ? defined.note : undefined;
    if (args.occurrence === undefined) line ??= defined.line;
  }
  const service = await ctx.languages?.forFile(file);
  if (!service) {
    // By name, a file the model did not name is searched whole (every same-named definition), unless a
    // `Class.member` named it.
    if (args.path === undefined && owner === undefined) return everywhere();
    return namesAt(ctx, name, file, {
      line,
      ...(args.column === undefined ? {} : { column: args.column }),
      ...(args.occurrence === undefined ? {} : { occurrence: args.occurrence }),
    });
  }
  const text = await fs.readFile(await ctx.workspace.resolveForRead(file), 'utf8').catch(() => undefined);
  if (text === undefined) return { kind: 'error', error: `cannot read ${shownPath(file)}` };
  const at = bindingAt(text, name, { line, column: args.column, occurrence: args.occurrence });
  if ('error' in at) return { kind: 'error', error: `${shownPath(file)}: ${at.error}` };
  return {
    kind: 'service',
    name,
    service,
    at: { path: file, line: at.line, column: at.column },
    ...(note ? { note } : {}),
  };
}

/**
 * By name, a name that is both module-level and a member (Go's `Lookup` beside `FlagSet.Lookup`) is searched as the
 * module-level one, whose uses are never member accesses: the note names the members whose uses are left out, and
 * how to ask for them. Undefined when there are none.
 */
export function membersLeftOut(defs: readonly Defined[], name: string): string | undefined {
  const members = defs.filter((d) => MEMBER_KINDS.has(d.def.kind));
  if (members.length === 0 || members.length === defs.length) return undefined;
  const named = members.slice(0, 5).map((d) => {
    const owner = ownerOf(d.def);
    return `${owner ? `${owner}.` : ''}${name} at ${shownPath(d.path)}:${d.def.line}`;
  });
  const more = members.length > 5 ? ` and ${members.length - 5} more` : '';
  const owners = new Set(members.map((d) => ownerOf(d.def)));
  const [owner] = owners;
  const ask = owners.size === 1 && owner !== undefined ? `${owner}.${name}` : `Type.${name}`;
  return `(uses of the module-level ${name} only, not of ${named.join(', ')}${more}: ask for ${ask}, or give path and line, for those)`;
}

/** Said by every result of the name-based search. */
export const NAME_BASED = '(name-based: no language service for this file; may include same-named symbols)';

/** Said when a position named a local variable or a parameter: the tool kept to its scope. */
export const localNote = (
  local: { path: string; line: number; from: number; to: number; parameter?: boolean; function?: string },
  name: string,
) =>
  `(the local binding ${name} declared at ${shownPath(local.path)}:${local.line}${local.function ? ` (in ${local.function})` : ''}: only its scope, lines ${local.from}-${local.to}; no language service for this file${
    // A caller may pass a Python parameter by keyword (`prepare(auth=…)`): the function's body alone cannot say.
    local.parameter
      ? `; a parameter: calls passing it by keyword (\`${name}=…\`) are not changed or listed, check them`
      : ''
  })`;

/** Most undecided uses named one by one. */
const MAX_UNDECIDED = 10;

/**
 * Said when a name-based search met uses it could not judge: a member of the name called on a receiver whose type
 * it could not read, while other types have a member of that name too. Each is named, never left unsaid.
 */
export function undecidedNote(
  places: readonly { path: string; line: number }[],
  name: string,
  what: 'not renamed' | 'not listed',
): string {
  const at = [...new Set(places.map((p) => `${shownPath(p.path)}:${p.line}`))];
  const list =
    at.slice(0, MAX_UNDECIDED).join(', ') +
    (at.length > MAX_UNDECIDED ? ` and ${at.length - MAX_UNDECIDED} more` : '');
  return `(${what}: ${name} used where the receiver's type could not be read, and other types define ${name} too, so by name it cannot tell which: ${list}; ${what === 'not renamed' ? 'rename' : 'check'} those that mean this one)`;
}
