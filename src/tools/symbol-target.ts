// Which binding rename_symbol and find_references mean: `path` + `line`/`column`, or `path` + the nth occurrence of
// `name`, else the file that defines `name`; with a language service for that file the binding is exact, without
// one the tools fall back to the name-based search.
import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { bindingAt } from '../code/language/position.js';
import type { LanguageService, SourcePosition } from '../code/language/service.js';
import { definitionsOf } from '../code/references.js';
import { codeIndexOf, indexPath } from './code-index-of.js';
import type { ToolContext } from './tool.js';

export const bindingFields = {
  name: z.string().min(1),
  path: z.string().optional(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  occurrence: z.number().int().optional().describe('nth in path'),
};

const bindingSchema = z.object(bindingFields);
export type BindingArgs = z.infer<typeof bindingSchema>;

export type SymbolTarget =
  /** `note`: which of several same-named definitions was taken (find_references' pick, see definingFile). */
  | { kind: 'service'; service: LanguageService; at: SourcePosition; note?: string }
  /**
   * No service for the file: the name-based tools, limited to `definedIn` when the model named the file, and to
   * the definition at `line` of it when the model gave one (Record's `args`, not RecordBuilder's beside it).
   */
  | { kind: 'names'; definedIn: string | undefined; line?: number }
  | { kind: 'error'; error: string };

const MEMBER_KINDS = new Set(['method', 'field']);

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
      const where = defs.slice(0, 5).map((d) => `${d.path}:${d.def.line}`);
      const tops = defs.filter((d) => d.def.container === undefined && !MEMBER_KINDS.has(d.def.kind));
      if (topLevel && tops.length === 1) {
        const others = defs.filter((d) => d !== tops[0]).slice(0, 5);
        const also = others.map(
          (d) => `${d.def.container ? `${d.def.container}.` : ''}${name} at ${d.path}:${d.def.line}`,
        );
        return {
          path: tops[0]!.path,
          line: tops[0]!.def.line,
          note: `(the module-level ${name} of ${tops[0]!.path}; also ${also.join(', ')}: give path and line for those)`,
        };
      }
      return `${name} is defined in ${files.length} files (${where.join(', ')}); give path and line`;
    }
  }
  return undefined;
}

export async function symbolTarget(
  ctx: ToolContext,
  args: BindingArgs,
  options: { topLevel?: boolean } = {},
): Promise<SymbolTarget> {
  let file: string;
  let line = args.line;
  let note: string | undefined;
  if (args.path !== undefined) {
    file = await indexPath(ctx, args.path);
    // Neither line nor occurrence: the name where the file defines it, not a mention in a comment above.
    if (line === undefined && args.occurrence === undefined && (await ctx.languages?.forFile(file))) {
      line = definitionsOf(await codeIndexOf(ctx), args.name, file)[0]?.def.line;
    }
  } else {
    const defined = ctx.languages ? await definingFile(ctx, args.name, options.topLevel === true) : undefined;
    if (typeof defined === 'string') return { kind: 'error', error: defined };
    if (!defined) return { kind: 'names', definedIn: undefined };
    file = defined.path;
    note = 'note' in defined ? defined.note : undefined;
    if (args.occurrence === undefined) line ??= defined.line;
  }
  const service = await ctx.languages?.forFile(file);
  if (!service)
    return args.path === undefined
      ? { kind: 'names', definedIn: undefined }
      : { kind: 'names', definedIn: file, ...(args.line === undefined ? {} : { line: args.line }) };
  const text = await fs.readFile(await ctx.workspace.resolveForRead(file), 'utf8').catch(() => undefined);
  if (text === undefined) return { kind: 'error', error: `cannot read ${file}` };
  const at = bindingAt(text, args.name, { line, column: args.column, occurrence: args.occurrence });
  if ('error' in at) return { kind: 'error', error: `${file}: ${at.error}` };
  return {
    kind: 'service',
    service,
    at: { path: file, line: at.line, column: at.column },
    ...(note ? { note } : {}),
  };
}

/** Said by every result of the name-based search. */
export const NAME_BASED = '(name-based: no language service for this file; may include same-named symbols)';
