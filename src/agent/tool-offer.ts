// Which built-in tools a request offers: the basic file and shell tools always, the rest in groups that join when the
// user's message calls for them (the intent classifier's verdict, or words that name them) or when the model used one,
// and stay once offered, so the request prefix stays stable for prompt caching. Every tool byte is paid on every
// request: a one-file fix needs no rename, barrel or dependency graph. Tools that are not built in (MCP, custom) are
// always offered. A first message the classifier cannot read with confidence gets every group.
import type { ToolSpec } from '../core/model.js';
import { isPath } from './entities.js';
import type { Classification } from './intent.js';

/** The code-intelligence tools: offered together, folded into one `code` tool (code-tool.ts). */
export const CODE_TOOLS = [
  'get_codebase_map',
  'search_code',
  'inspect_symbol',
  'get_imports_exports',
  'build_dependency_graph',
  'find_references',
  'rename_symbol',
  'organize_imports',
  'create_barrel',
  'get_diagnostics',
] as const;

type Group = 'files' | 'background' | 'code' | 'plan' | 'web' | 'delegate';

/** The groups of the built-in tools beyond the basic ones (list, read, write, edit, grep, glob, commands). */
const GROUPS: Readonly<Record<Group, readonly string[]>> = {
  files: ['create_directory', 'delete_path', 'move_path', 'copy_path', 'append_file', 'diff_files'],
  background: ['command_output', 'kill_command'],
  code: CODE_TOOLS,
  plan: ['todo_write'],
  web: ['web_fetch', 'web_search'],
  // Sub-agents pay off on searches across a project, not on a one-file fix.
  delegate: ['task'],
};

const groupOf = new Map<string, Group>(
  (Object.entries(GROUPS) as [Group, readonly string[]][]).flatMap(([group, names]) =>
    names.map((name) => [name, group] as const),
  ),
);

/** Words in a message that ask for a group whatever the intent (matched on word boundaries, lowercased). */
const ASKED_BY: Readonly<Record<Group, RegExp>> = {
  files: /\b(move|rename|copy|delete|remove|mkdir|directory|folder|append)\b/,
  background: /\b(background|server|watch|daemon|long[- ]running)\b/,
  code: /\b(rename|references?|symbols?|callers?|usages?|imports?|exports?|barrel|dependenc(y|ies)|codebase|architecture|type errors?|diagnostics?|definition)\b/,
  plan: /\b(plan|steps|todo)\b/,
  // Not a bare "search": searching the code is the basic tools' job.
  web: /https?:\/\/|\bwww\.|\b(web|website|online|internet|urls?|docs|documentation|google|changelog|release notes|latest version|look it up)\b/,
  delegate: /\b(explore|investigate|delegate|sub-?agents?|agents?|parallel|review)\b/,
};

/** What each intent needs beyond the basic tools; the scope adds planning for work across files. */
const BY_INTENT: Readonly<Record<Classification['intent'], readonly Group[]>> = {
  explain: ['code'],
  analyze: ['code'],
  debug: [],
  test: ['background'],
  refactor: ['files', 'code'],
  implement: [],
  // Documenting a module reads its API: its definitions, signatures and exports.
  document: ['code'],
};

const CONFIDENT = 0.5;

/**
 * Work that a todo list helps: the whole project, or several files — but not a message that names just two files
 * (read one, write the other), which the basic tools do in a step or two.
 */
function planWorthy(classified: Classification): boolean {
  if (classified.scope === 'single_file') return false;
  if (classified.scope !== 'multi_file') return true;
  const paths = classified.entities.filter(isPath);
  return paths.length !== 2 || paths.some((path) => path.endsWith('/'));
}

export class ToolOffer {
  readonly #joined = new Set<Group>();

  #messages = 0;

  /**
   * A user message: the groups it calls for join. A first message that cannot be read with confidence gets every
   * group; a later one ("thanks", "go on") keeps what the conversation has.
   */
  message(text: string, classified: Classification | undefined, plan = false): void {
    const first = this.#messages++ === 0;
    if (!classified || classified.confidence < CONFIDENT) {
      if (first) for (const group of Object.keys(GROUPS) as Group[]) this.#joined.add(group);
      return;
    }
    for (const group of BY_INTENT[classified.intent]) this.#joined.add(group);
    if (planWorthy(classified) || plan) this.#joined.add('plan');
    if (classified.scope === 'whole_project') this.#joined.add('delegate');
    // A symbol named (computeTotal, MathUtil.computeTotal): the tools that find and change symbols by what they are.
    if (classified.entities.some((entity) => !isPath(entity))) this.#joined.add('code');
    const lower = text.toLowerCase();
    for (const [group, words] of Object.entries(ASKED_BY) as [Group, RegExp][]) {
      if (words.test(lower)) this.#joined.add(group);
    }
  }

  /** The model called a tool: its group joins (it knew the tool, from an earlier offer or a guess). */
  used(name: string, args: string): void {
    if (name === 'code') this.#joined.add('code');
    const group = groupOf.get(name);
    if (group) this.#joined.add(group);
    if (name === 'execute_command' && /"background"\s*:\s*true/.test(args)) this.#joined.add('background');
  }

  /** The tools to offer now, in the registry's order. */
  select(specs: readonly ToolSpec[]): ToolSpec[] {
    return specs.filter((spec) => {
      const group = groupOf.get(spec.name);
      return group === undefined || this.#joined.has(group);
    });
  }
}
