// PageRank over the repository map's graph (rank-graph.ts), name nodes passing on all they receive, and the graph's
// file edges turned around for the hub score.
import type { Graph } from './rank-graph.js';

const DAMPING = 0.85;
const MAX_ITERATIONS = 40;

/**
 * The file-to-file edges turned around, names left out: who depends on a file, for the hub score. Two files that
 * import each other, each the other's only importer (babel-standalone's index.ts and transformScriptTags.ts), are
 * left out of each other's: the pair would hand its score back and forth and keep it, topping the map.
 */
export function reversed(graph: Graph, n: number): Graph {
  const edges = new Set<number>();
  const importers = new Int32Array(n);
  for (let from = 0; from < n; from++)
    for (let e = graph.offsets[from]!; e < graph.offsets[from + 1]!; e++)
      if (graph.targets[e]! < n) {
        edges.add(from * n + graph.targets[e]!);
        importers[graph.targets[e]!]! += 1;
      }
  const kept = (from: number, to: number) =>
    to < n && !(importers[from] === 1 && importers[to] === 1 && edges.has(to * n + from));
  const counts = new Int32Array(n + 1);
  for (let from = 0; from < n; from++)
    for (let e = graph.offsets[from]!; e < graph.offsets[from + 1]!; e++)
      if (kept(from, graph.targets[e]!)) counts[graph.targets[e]! + 1]! += 1;
  for (let i = 0; i < n; i++) counts[i + 1]! += counts[i]!;
  const offsets = Int32Array.from(counts);
  const fill = Int32Array.from(counts);
  const targets = new Int32Array(offsets[n]!);
  const weights = new Float64Array(offsets[n]!);
  for (let from = 0; from < n; from++)
    for (let e = graph.offsets[from]!; e < graph.offsets[from + 1]!; e++) {
      const to = graph.targets[e]!;
      if (!kept(from, to)) continue;
      targets[fill[to]!] = from;
      weights[fill[to]!++] = graph.weights[e]!;
    }
  for (let i = 0; i < n; i++) {
    let total = 0;
    for (let e = offsets[i]!; e < offsets[i + 1]!; e++) total += weights[e]!;
    for (let e = offsets[i]!; e < offsets[i + 1]!; e++) weights[e]! /= total;
  }
  return {
    offsets,
    targets,
    weights,
    nameOffsets: new Int32Array(1),
    definers: new Int32Array(0),
    names: [],
  };
}

/**
 * PageRank with name nodes passing on all they receive, until it settles; from `start` when given (the scores of a
 * near personalisation: a few iterations instead of forty).
 */
export function pageRank(graph: Graph, personal: Float64Array, start?: Float64Array): Float64Array {
  const n = personal.length;
  const names = graph.nameOffsets.length - 1;
  const nameMass = new Float64Array(names);
  let rank = Float64Array.from(start?.length === n ? start : personal);
  let next = new Float64Array(n);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    next.fill(0);
    nameMass.fill(0);
    let dangling = 0;
    for (let from = 0; from < n; from++) {
      const start = graph.offsets[from]!;
      const stop = graph.offsets[from + 1]!;
      if (start === stop) {
        dangling += rank[from]!;
        continue;
      }
      const share = DAMPING * rank[from]!;
      let passed = 0;
      for (let e = start; e < stop; e++) {
        const to = graph.targets[e]!;
        const weight = graph.weights[e]!;
        passed += weight;
        if (to < n) next[to]! += share * weight;
        else nameMass[to - n]! += share * weight;
      }
      // Weights short of 1 (uses of common member names) leak like a file that uses nothing.
      if (passed < 1) dangling += rank[from]! * (1 - passed);
    }
    for (let id = 0; id < names; id++) {
      const mass = nameMass[id]!;
      if (mass === 0) continue;
      const start = graph.nameOffsets[id]!;
      const stop = graph.nameOffsets[id + 1]!;
      const each = mass / (stop - start);
      for (let d = start; d < stop; d++) next[graph.definers[d]!]! += each;
    }
    // Rank leaking from files that use nothing, and the teleport, go back by the personalisation.
    const back = DAMPING * dangling + (1 - DAMPING);
    let change = 0;
    for (let i = 0; i < n; i++) {
      next[i]! += back * personal[i]!;
      change += Math.abs(next[i]! - rank[i]!);
    }
    [rank, next] = [next, rank];
    if (change < 1e-7) break;
  }
  return rank;
}
