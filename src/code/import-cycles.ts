// Import cycles of a module graph: the groups of files that import each other (Tarjan's strongly connected
// components) and, in each, real cycles along its imports, shortest first. A group is one loop only when it has as
// many imports as files; otherwise it holds several cycles, and printing its files as one loop names imports that
// do not exist.

/** At most this many cycles are listed for a group. */
export const LISTED_CYCLES = 5;
/** Cycles are counted up to this many, and the count's search stops after this many steps: "at least" past them. */
const COUNT_CAP = 1000;
const COUNT_STEPS = 200_000;

export interface CyclicGroup {
  /** The files that import each other, directly or through the others, sorted. */
  files: string[];
  /** Its shortest cycles (at most LISTED_CYCLES), each along real imports and starting at its first file in sort order. */
  cycles: string[][];
  /** How many simple cycles the group holds, counted up to a cap. */
  count: number;
  /** The count stopped at its cap: the group holds at least `count`. */
  atLeast: boolean;
}

/** Tarjan's strongly connected components with a cycle, iteratively (deep import chains must not overflow the stack). */
export function stronglyConnected(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const targets = edges.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const to = targets[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && (edges.get(member) ?? []).includes(member);
        if (component.length > 1 || selfLoop) components.push(component.reverse());
      }
    }
  }
  return components;
}

/** The shortest cycle through `start` within the group (breadth first from its imports back to it). */
function shortestThrough(start: string, next: (file: string) => readonly string[]): string[] | undefined {
  const from = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!;
    for (const to of next(file)) {
      if (to === start) {
        const cycle = [file];
        for (let at = file; at !== start; ) {
          at = from.get(at)!;
          cycle.unshift(at);
        }
        return cycle;
      }
      if (!from.has(to)) {
        from.set(to, file);
        queue.push(to);
      }
    }
  }
  return undefined;
}

/**
 * Simple cycles of the group, each found once from its first file in `order` (paths through later files only),
 * up to COUNT_CAP cycles or COUNT_STEPS steps.
 */
function enumerateCycles(
  order: readonly string[],
  next: (file: string) => readonly string[],
): { cycles: string[][]; complete: boolean } {
  const rank = new Map(order.map((file, i) => [file, i]));
  const cycles: string[][] = [];
  let steps = 0;
  for (let i = 0; i < order.length; i++) {
    const start = order[i]!;
    const path = [start];
    const onPath = new Set(path);
    const work = [{ file: start, next: 0 }];
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const targets = next(frame.file);
      if (frame.next >= targets.length) {
        work.pop();
        onPath.delete(path.pop()!);
        continue;
      }
      if (++steps > COUNT_STEPS) return { cycles, complete: false };
      const to = targets[frame.next++]!;
      if (to === start) {
        cycles.push([...path]);
        if (cycles.length >= COUNT_CAP) return { cycles, complete: false };
        continue;
      }
      if (rank.get(to)! <= i || onPath.has(to)) continue;
      path.push(to);
      onPath.add(to);
      work.push({ file: to, next: 0 });
    }
  }
  return { cycles, complete: true };
}

/** A cycle turned to start at its first file in sort order (one spelling per cycle). */
function rotated(cycle: readonly string[]): string[] {
  let first = 0;
  for (let i = 1; i < cycle.length; i++) if (cycle[i]! < cycle[first]!) first = i;
  return [...cycle.slice(first), ...cycle.slice(0, first)];
}

/** The groups of files that import each other, each with its shortest real cycles and how many it holds. */
export function findCycles(edges: ReadonlyMap<string, readonly string[]>): CyclicGroup[] {
  const groups = stronglyConnected(edges).map((component) => {
    const files = [...component].sort();
    const members = new Set(files);
    const within = new Map(files.map((f) => [f, (edges.get(f) ?? []).filter((to) => members.has(to))]));
    const next = (file: string) => within.get(file) ?? [];
    const { cycles: all, complete } = enumerateCycles(files, next);
    // The shortest cycle through each file as well: when counting stopped early, the enumeration's are not the shortest.
    const found = new Map<string, string[]>();
    const through = files.map((f) => shortestThrough(f, next)).filter((c) => c !== undefined);
    for (const cycle of [...through, ...all]) {
      const spelled = rotated(cycle);
      found.set(spelled.join('\0'), spelled);
    }
    const shortest = [...found.values()].sort(
      (a, b) => a.length - b.length || (a.join('\0') < b.join('\0') ? -1 : 1),
    );
    return {
      files,
      cycles: shortest.slice(0, LISTED_CYCLES),
      // Complete, the enumeration found every cycle; stopped early, those and the shortest ones are a lower bound.
      count: found.size,
      atLeast: !complete,
    };
  });
  return groups.sort((a, b) => (a.files[0]! < b.files[0]! ? -1 : 1));
}
