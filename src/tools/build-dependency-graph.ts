// build_dependency_graph: the repository's module graph (imports resolved to files) with its import cycles.
import { z } from 'zod';
import { goModule } from '../code/go-module.js';
import { buildModuleGraph } from '../code/module-graph.js';
import { codeIndexOf, indexPath } from './code-index-of.js';
import { defineTool, ok, readPreview } from './tool.js';

const schema = z.object({ path: z.string().optional().describe('limit to this directory or file') });

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
      if (targets.length > 0) lines.push(`${file} → ${targets.join(', ')}`);
    }
    if (lines.length === 0) lines.push('(no imports between files of the repository)');
    lines.push(graph.cycles.length === 0 ? 'cycles: none' : `cycles (${graph.cycles.length}):`);
    for (const cycle of graph.cycles) lines.push(`  ${[...cycle, cycle[0]].join(' → ')}`);
    const external = [...graph.external].sort((a, b) => b[1] - a[1]).slice(0, 30);
    if (external.length > 0) lines.push(`external: ${external.map(([m, n]) => `${m} (${n})`).join(', ')}`);
    const summary = `${graph.edges.size} files, ${edges} imports, ${graph.cycles.length} cycles`;
    return ok(lines.join('\n'), { files: graph.edges.size, edges, cycles: graph.cycles.length }, summary);
  },
});
