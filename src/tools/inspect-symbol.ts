// inspect_symbol: a symbol's definitions with signature, doc comment and place, and how often it is used (counted
// by the file's language service when it has one, else by the name-based search).
import { promises as fs } from 'node:fs';
import * as z from 'zod';
import { isSupportFile } from '../code/file-roles.js';
import { bindingAt } from '../code/language/position.js';
import { languageOf } from '../code/languages.js';
import { findProjectReferences } from '../code/references.js';
import { definitionsOf, ownerOf, qualifiedName } from '../code/symbol-definitions.js';
import type { Definition } from '../code/tags.js';
import { shownPath } from '../core/shown-path.js';
import { codeIndexOf, indexPath } from './code-index-of.js';
import { membersLeftOut } from './symbol-target.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';

/**
 * Uses (not declarations) of the definitions by their language service: [uses, files]; undefined without one,
 * 'late' when it did not answer within the diagnostics budget (2 s: a cold service still loading the project, which
 * goes on for the next call).
 */
async function serviceUses(
  ctx: ToolContext,
  name: string,
  defs: readonly { path: string; def: { line: number } }[],
): Promise<[number, number] | 'late' | undefined> {
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.limits.diagnosticsMs ?? 2000)]);
  try {
    return await countUses(ctx, name, defs, signal);
  } catch (error) {
    if (ctx.signal.aborted || !signal.aborted) throw error;
    return 'late';
  }
}

async function countUses(
  ctx: ToolContext,
  name: string,
  defs: readonly { path: string; def: { line: number } }[],
  signal: AbortSignal,
): Promise<[number, number] | undefined> {
  const seen = new Set<string>();
  const files = new Set<string>();
  for (const { path, def } of defs) {
    const service = await ctx.languages?.forFile(path);
    if (!service) return undefined;
    const text = await fs.readFile(await ctx.workspace.resolveForRead(path), 'utf8');
    const at = bindingAt(text, name, { line: def.line });
    if ('error' in at) return undefined;
    for (const l of await service.references({ path, line: at.line, column: at.column }, signal)) {
      if (l.definition) continue;
      seen.add(`${l.path}:${l.line}:${l.column}`);
      files.add(l.path);
    }
  }
  return [seen.size, files.size];
}

const schema = z.strictObject({
  name: z.string().min(1).describe('symbol, or Class.member'),
  path: z.string().optional(),
});

export const inspectSymbolTool = defineTool({
  name: 'inspect_symbol',
  description: 'Where a symbol is defined: signature, doc comment, use count.',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    return { reads: [ctx.workspace.root], writes: [], summary: `inspect ${args.name}` };
  },
  async execute(args, ctx) {
    const index = await codeIndexOf(ctx);
    const file = args.path === undefined ? undefined : await indexPath(ctx, args.path);
    const { member } = qualifiedName(args.name);
    // The type or function before same-named methods (gin's Engine struct before a validator's Engine()), the
    // project's code before its tests.
    const order = (d: { path: string; def: Definition }) =>
      (d.def.container !== undefined || d.def.kind === 'method' ? 2 : 0) + (isSupportFile(d.path) ? 1 : 0);
    const defs = definitionsOf(index, args.name, file).sort((a, b) => order(a) - order(b));
    if (defs.length === 0)
      return fail(`no definition of ${args.name}${file ? ` in ${shownPath(file)}` : ''}; try search_code`);
    const counted = await serviceUses(ctx, member, defs.slice(0, 10));
    const exact = Array.isArray(counted) ? counted : undefined;
    let [uses, files] = exact ?? [-1, 0];
    let leftOut: string | undefined;
    if (uses < 0) {
      // One definition: its uses alone (Record's `args`, not RecordBuilder's in the same file), in its file and the
      // files importing it, directly or through a barrel or package re-exporting it.
      const one = defs.length === 1 ? defs[0]! : undefined;
      const refs = await findProjectReferences(index, member, one?.path ?? file, ctx.signal, one?.def.line);
      uses = refs.reduce((n, r) => n + r.occurrences.filter((o) => !o.definition).length, 0);
      files = refs.filter((r) => r.occurrences.some((o) => !o.definition)).length;
      if (!one) leftOut = membersLeftOut(defs, member);
    }
    const blocks = defs.slice(0, 10).map(({ path, def }) => {
      const container = ownerOf(def);
      const owner = container ? ` (in ${container})` : '';
      const lines = [
        `${def.kind} ${def.name}${owner} at ${shownPath(path)}:${def.line}-${def.endLine}`,
        `  ${def.signature}`,
      ];
      if (def.doc) lines.push(`  doc: ${def.doc}`);
      lines.push(`  ${def.exported ? 'exported' : 'not exported'}`);
      return lines.join('\n');
    });
    if (defs.length > 10) blocks.push(`[${defs.length - 10} more definitions]`);
    const how = exact
      ? ''
      : counted === 'late'
        ? ', by name (the language service was still loading; ask again for its count): same-named symbols may be counted'
        : ', by name: same-named symbols may be counted';
    // A component's markup (a Vue template's `@click="inc"`) is not read: its uses there are not in the count.
    const markup = defs.some((d) => !languageOf(d.path))
      ? "; uses in components' markup are not counted"
      : '';
    blocks.push(`references: ${uses} in ${files} files${how}${markup} (find_references lists them)`);
    if (leftOut) blocks.push(leftOut);
    return ok(
      blocks.join('\n'),
      { definitions: defs.length, references: uses },
      `${args.name}: ${defs.length} definitions, ${uses} references`,
    );
  },
});
