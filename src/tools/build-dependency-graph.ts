// build_dependency_graph: the repository's module graph (imports resolved to files) with its import cycles.
import * as z from 'zod';
import { goModule } from '../code/go-module.js';
import type { CyclicGroup } from '../code/import-cycles.js';
import { buildModuleGraph } from '../code/module-graph.js';
import { shownPath } from '../core/shown-path.js';
import { codeIndexOf, indexPath } from './code-index-of.js';
import { defineTool, ok, readPreview } from './tool.js';

const loop = (cycle: readonly string[]) => [...cycle, cycle[0]!].map(shownPath).join(' → ');

/**
 * A group that is one loop, as that loop; a group holding several, as its files and its shortest cycles, each along
 * real imports (printed as one loop, its files would name imports that do not exist).
 */
function describeGroup(group: CyclicGroup): string[] {
  if (group.count === 1 && !group.atLeast) return [`  ${loop(group.cycles[0]!)}`];
  const count = `${group.atLeast ? 'at least ' : ''}${group.count}`;
  const shown =
    group.cycles.length < group.count || group.atLeast ? `; the ${group.cycles.length} shortest:` : ':';
  return [
    `  ${group.files.length} files import each other in ${count} cycles (${group.files.map(shownPath).join(', ')})${shown}`,
    ...group.cycles.map((cycle) => `    ${loop(cycle)}`),
  ];
}

const schema = z.strictObject({ path: z.string().optional().describe('limit to this directory or file') });

export const buildDependencyGraphTool = defineTool({
  name: 'build_dependency_graph',
  description: 'Module dependency graph (file → its imports) with import cycles.',
  schema,
  safety: 'safe',
  preview: (args, ctx) => readPreview(ctx, args.path ?? '.', (shown) => `dependency graph of ${shown}`),
  async execute(args, ctx) {
    const under = await indexPath(ctx, args.path ?? '.');
    const index = await codeIndexOf(ctx);
    const graph = buildModuleGraph(index, under, await goModule(ctx.workspace.root));
    const lines: string[] = [];
    let edges = 0;
    for (const [file, targets] of graph.edges) {
      edges += targets.length;
      if (targets.length > 0) lines.push(`${shownPath(file)} → ${targets.map(shownPath).join(', ')}`);
    }
    if (lines.length === 0) lines.push('(no imports between files of the repository)');
    const cycles = graph.cycles.reduce((n, g) => n + g.count, 0);
    const atLeast = graph.cycles.some((g) => g.atLeast) ? 'at least ' : '';
    lines.push(
      graph.cycles.length === 0
        ? 'cycles: none'
        : graph.cycles.every((g) => g.count === 1)
          ? `cycles (${cycles}):`
          : `cycles (${atLeast}${cycles}, in ${graph.cycles.length} group${graph.cycles.length === 1 ? '' : 's'} of files that import each other):`,
    );
    for (const group of graph.cycles) lines.push(...describeGroup(group));
    // Closed only by imports that never run: no cycle at run time, listed apart.
    const typed = graph.typeOnly;
    if (typed.count > 0)
      lines.push(
        `type-only cycles (${typed.atLeast ? 'at least ' : ''}${typed.count}, closed by \`import type\` or \`if TYPE_CHECKING:\` imports, which do not run)${typed.cycles.length < typed.count ? '; the shortest' : ''}:`,
        ...typed.cycles.map((cycle) => `  ${loop(cycle)}`),
      );
    const external = [...graph.external].sort((a, b) => b[1] - a[1]).slice(0, 30);
    if (external.length > 0) lines.push(`external: ${external.map(([m, n]) => `${m} (${n})`).join(', ')}`);
    const summary = `${graph.edges.size} files, ${edges} imports, ${atLeast}${cycles} cycles`;
    return ok(
      lines.join('\n'),
      {
        files: graph.edges.size,
        edges,
        cycles,
        cyclic_groups: graph.cycles.length,
        type_only_cycles: graph.typeOnly.count,
      },
      summary,
    );
  },
});
