// How a Keel tool call looks to an ACP client: its kind (the editor's icon), a title, the files it touches
// (locations the editor can follow) and, for a file change, the change as old and new text. Pure, from the
// tool's name and arguments (and, for write_file, the text it replaces: replaced-text.ts), so a call announced,
// asked about or replayed from a session looks the same.
import { isAbsolute, join } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';

/** Each built-in tool's kind; tools not named here (MCP, custom, code intelligence) are `other`. */
const KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  list_files: 'read',
  diff_files: 'read',
  detect_project_type: 'read',
  get_project_overview: 'read',
  get_codebase_map: 'read',
  get_imports_exports: 'read',
  extract_conventions: 'read',
  build_dependency_graph: 'read',
  get_diagnostics: 'read',
  inspect_symbol: 'read',
  command_output: 'read',
  grep: 'search',
  glob: 'search',
  search_code: 'search',
  find_references: 'search',
  write_file: 'edit',
  edit_file: 'edit',
  append_file: 'edit',
  create_directory: 'edit',
  create_barrel: 'edit',
  organize_imports: 'edit',
  rename_symbol: 'edit',
  copy_path: 'edit',
  delete_path: 'delete',
  move_path: 'move',
  execute_command: 'execute',
  kill_command: 'execute',
  todo_write: 'think',
  web_fetch: 'fetch',
  web_search: 'fetch',
};

export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? 'other';
}

type Args = Record<string, unknown>;

const asArgs = (args: unknown): Args =>
  typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Args) : {};

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The paths a call names, in argument order: `path`, then `source` and `destination`. */
function namedPaths(args: Args): string[] {
  return ['path', 'source', 'destination'].flatMap((key) => {
    const value = text(args[key]);
    return value ? [value] : [];
  });
}

/** ACP wants absolute paths; a relative one is the workspace's. */
const absolute = (root: string, path: string) => (isAbsolute(path) ? path : join(root, path));

/** One line for the editor: the command, or the tool and the path or pattern it works on. */
export function toolTitle(name: string, rawArgs: unknown): string {
  const args = asArgs(rawArgs);
  const command = text(args.command);
  if (command !== undefined) return command;
  if (name === 'todo_write') return 'update the todo list';
  const [first, second] = namedPaths(args);
  if (first && second) return `${name} ${first} → ${second}`;
  const subject = first ?? text(args.pattern) ?? text(args.query) ?? text(args.symbol) ?? text(args.url);
  return subject ? `${name} ${subject}` : name;
}

export function toolLocations(root: string, rawArgs: unknown): ToolCallLocation[] {
  const args = asArgs(rawArgs);
  const line = typeof args.offset === 'number' ? args.offset : undefined;
  return namedPaths(args).map((path, index) => ({
    path: absolute(root, path),
    ...(index === 0 && line !== undefined ? { line } : {}),
  }));
}

/**
 * A file change as the editor shows it: write_file's content against the text it replaces (`replaced`: null for a
 * new file, undefined when not known, and then no diff is shown rather than a false one), edit_file's replacements
 * one by one.
 */
export function toolDiffs(
  name: string,
  root: string,
  rawArgs: unknown,
  replaced?: string | null,
): ToolCallContent[] {
  const args = asArgs(rawArgs);
  const path = text(args.path);
  if (!path) return [];
  const file = absolute(root, path);
  if (name === 'write_file') {
    const content = text(args.content);
    return content === undefined || replaced === undefined
      ? []
      : [{ type: 'diff', path: file, oldText: replaced, newText: content }];
  }
  if (name !== 'edit_file') return [];
  const edits = Array.isArray(args.edits) ? args.edits.map(asArgs) : [args];
  return edits.flatMap((edit) => {
    const oldText = text(edit.old_string);
    const newText = text(edit.new_string);
    return oldText === undefined || newText === undefined
      ? []
      : [{ type: 'diff', path: file, oldText, newText }];
  });
}

/** The tool_call fields an announcement, a permission request and a replay share. */
export function describeToolCall(root: string, name: string, args: unknown, replaced?: string | null) {
  const diffs = toolDiffs(name, root, args, replaced);
  return {
    title: toolTitle(name, args),
    kind: toolKind(name),
    locations: toolLocations(root, args),
    ...(diffs.length > 0 ? { content: diffs } : {}),
    rawInput: args,
  };
}
