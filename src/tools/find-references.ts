// find_references: every reference of one binding, as its language service sees it; without a service, a name-based
// search of the syntax tree (code only, shadowing locals left out).
import { promises as fs } from 'node:fs';
import * as z from 'zod';
import type { SourceLocation } from '../code/language/service.js';
import { findProjectReferences } from '../code/references.js';
import { shownPath } from '../core/shown-path.js';
import { codeIndexOf } from './code-index-of.js';
import { bindingFields, localNote, NAME_BASED, symbolTarget, undecidedNote } from './symbol-target.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';

const schema = z.strictObject(bindingFields);

const MAX_LINES = 200;

/** `path:line:col (definition): the line`, for the locations a service found. */
async function serviceLines(ctx: ToolContext, locations: readonly SourceLocation[]): Promise<string[]> {
  const texts = new Map<string, string[]>();
  const lines: string[] = [];
  for (const l of locations.slice(0, MAX_LINES)) {
    if (!texts.has(l.path)) {
      const absolute = await ctx.workspace.resolveForRead(l.path);
      texts.set(l.path, (await fs.readFile(absolute, 'utf8').catch(() => '')).split('\n'));
    }
    const text = texts.get(l.path)![l.line - 1] ?? '';
    const kind = l.definition ? ' (definition)' : '';
    lines.push(`${shownPath(l.path)}:${l.line}:${l.column}${kind}: ${text.trim().slice(0, 160)}`);
  }
  if (locations.length > MAX_LINES) lines.push(`[${locations.length - MAX_LINES} more references not shown]`);
  return lines;
}

export const findReferencesTool = defineTool({
  name: 'find_references',
  description: 'References of the symbol at path+line/column (or occurrence).',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    return { reads: [ctx.workspace.root], writes: [], summary: `find references to ${args.name}` };
  },
  async execute(args, ctx) {
    // A search may pick the module-level one of several same-named definitions; a rename never guesses.
    const target = await symbolTarget(ctx, args, { topLevel: true });
    if (target.kind === 'error') return fail(target.error);
    if (target.kind === 'service') {
      const locations = await target.service.references(target.at, ctx.signal);
      const files = new Set(locations.map((l) => l.path)).size;
      const lines = await serviceLines(ctx, locations);
      if (locations.length === 0) lines.push(`(no references to ${args.name})`);
      if (target.note) lines.push(target.note);
      return ok(
        lines.join('\n'),
        { references: locations.length, files },
        `${locations.length} references to ${args.name}`,
      );
    }
    const index = await codeIndexOf(ctx);
    const files = await findProjectReferences(
      index,
      target.name,
      target.definedIn,
      ctx.signal,
      target.line,
      target.column,
    );
    const lines: string[] = [];
    let count = 0;
    let shadowed = 0;
    for (const file of files) {
      shadowed += file.shadowed;
      const text = file.source.split('\n');
      for (const o of file.occurrences) {
        count += 1;
        if (lines.length < MAX_LINES) {
          const kind = o.definition ? ' (definition)' : '';
          lines.push(
            `${shownPath(file.path)}:${o.line}:${o.column}${kind}: ${text[o.line - 1]!.trim().slice(0, 160)}`,
          );
        }
      }
    }
    if (count > MAX_LINES) lines.push(`[${count - MAX_LINES} more references not shown]`);
    if (count === 0) lines.push(`(no references to ${args.name} in code)`);
    if (shadowed > 0) lines.push(`(${shadowed} uses of local bindings that shadow ${target.name} left out)`);
    const undecided = files.flatMap((f) => f.undecided.map((o) => ({ path: f.path, line: o.line })));
    if (undecided.length > 0) lines.push(undecidedNote(undecided, target.name, 'not listed'));
    const local = files[0]?.local;
    if (local) lines.push(localNote({ ...local, path: files[0]!.path }, target.name));
    else if (count > 0) lines.push(NAME_BASED);
    if (target.note) lines.push(target.note);
    return ok(
      lines.join('\n'),
      { references: count, files: files.length, shadowed, undecided: undecided.length, name_based: true },
      `${count} references to ${args.name}`,
    );
  },
});
