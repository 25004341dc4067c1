// Tool failures by kind, each with the recovery hint the model reads after the error (CodeCraft's error
// recovery). The table is data: the first rule a result matches names its kind; the kind also goes into the
// tool_result event's metadata (`error_kind`) so logs and readers can count them.
import type { ToolResult } from './tool.js';

export type ErrorKind =
  | 'INVALID_ARGS'
  | 'PERMISSION_DENIED'
  | 'OUTSIDE_WORKSPACE'
  | 'FILE_NOT_FOUND'
  | 'EDIT_CONFLICT'
  | 'TIMEOUT'
  | 'COMMAND_FAILED'
  | 'INTERRUPTED'
  | 'NO_MATCHES'
  | 'TOOL_ERROR';

interface KindRule {
  kind: ErrorKind;
  /**
   * Matches the first line of a failed result's error: the tool's own statement. What follows quotes other things
   * (a rename's compiler errors, "Property 'x' does not exist on type …", the nearest region of a file).
   */
  error?: RegExp;
  /** Matches a failed result whose metadata has this key (and value): the policy's refusals carry `policy`. */
  metadata?: readonly [key: string, value?: string];
  /** Matches a successful result whose output says it found nothing (a search with no hits). */
  emptyOutput?: RegExp;
  /** What the model reads after the error; empty: nothing to add. */
  hint: string;
  /**
   * The hint sends the model to Keel's own file tools: given only after their errors. An MCP server's paths may be
   * in another namespace (its own root), where glob and read_file would mislead.
   */
  keelToolsOnly?: true;
}

/** In order: the first match wins (a timed-out command is a TIMEOUT, not a COMMAND_FAILED). */
export const ERROR_KINDS: readonly KindRule[] = [
  // A tool offered earlier whose MCP server went away: its error says what to do instead.
  { kind: 'TOOL_ERROR', metadata: ['tool_gone'], hint: '' },
  {
    kind: 'INVALID_ARGS',
    error: /^(invalid arguments for|arguments are not valid JSON|unknown tool)/,
    hint: "call the tool again with the fields its schema lists, each of the right type; don't guess field names",
  },
  {
    kind: 'PERMISSION_DENIED',
    metadata: ['policy', 'declined'],
    hint: "the user said no: follow what they said, and don't ask for the same call again",
  },
  {
    kind: 'PERMISSION_DENIED',
    metadata: ['policy'],
    hint: "don't repeat the refused call: do the task another way the policy allows, or say what you need and why",
  },
  {
    kind: 'OUTSIDE_WORKSPACE',
    error: /is outside the workspace/,
    hint: 'use a path relative to the workspace root',
  },
  {
    kind: 'PERMISSION_DENIED',
    error: /permission denied|operation not permitted|is protected/i,
    hint: "don't retry the same call; work on files you may change, or say what you need",
  },
  {
    kind: 'FILE_NOT_FOUND',
    error: /no such file or directory|not found: |does not exist|a parent is not a directory/i,
    hint: 'find the right path first: glob with a pattern such as **/name* (or list_files), then use the exact path it returns',
    keelToolsOnly: true,
  },
  {
    kind: 'EDIT_CONFLICT',
    error: /old_string not found/,
    hint: 'read_file the file again for its current text, then copy old_string exactly from it (with enough lines to be unique)',
    keelToolsOnly: true,
  },
  {
    kind: 'EDIT_CONFLICT',
    error: /old_string matches \d+ times/,
    hint: 'copy more of the lines around the change into old_string (read_file shows them) so it matches once, or pass replace_all: true to change every match',
    keelToolsOnly: true,
  },
  // Any other refusal of an edit (a placeholder in new_string, a change that breaks the file) says its own fix.
  { kind: 'EDIT_CONFLICT', error: /^cannot edit /, hint: '' },
  {
    kind: 'TIMEOUT',
    error: /^command timed out/,
    hint: 'narrow the command (fewer files, a filter), or start it with background: true and read its progress with command_output',
    keelToolsOnly: true,
  },
  // Any other tool's timeout (a config-defined tool, a fetch): execute_command's ways out are not its own.
  { kind: 'TIMEOUT', error: /timed out/, hint: '' },
  {
    kind: 'INTERRUPTED',
    error: /^(aborted|interrupted)|command aborted/,
    hint: '',
  },
  {
    kind: 'COMMAND_FAILED',
    error: /^command exited with/,
    hint: 'read the stderr and stdout above and fix the cause before running it again; the same command will fail the same way',
  },
  {
    kind: 'NO_MATCHES',
    emptyOutput: /^(no matches for |no files match )/,
    hint: 'broaden the search: a shorter or case-insensitive pattern, fewer path or include filters, or glob for the file names first',
  },
  { kind: 'TOOL_ERROR', error: /(?:)/, hint: '' },
];

export interface Classified {
  kind: ErrorKind;
  hint: string;
  keelToolsOnly?: true;
}

const classified = (rule: KindRule): Classified => ({
  kind: rule.kind,
  hint: rule.hint,
  ...(rule.keelToolsOnly ? { keelToolsOnly: true } : {}),
});

const firstLine = (text: string) => text.split('\n', 1)[0]!;

/** The kind of a failed result, or of a search that found nothing; undefined for an ordinary success. */
export function classifyResult(result: ToolResult): Classified | undefined {
  for (const rule of ERROR_KINDS) {
    if (result.success) {
      if (rule.emptyOutput?.test(result.output)) return classified(rule);
      continue;
    }
    const error = firstLine(result.error ?? '');
    if (rule.metadata) {
      const [key, value] = rule.metadata;
      if (key in result.metadata && (value === undefined || result.metadata[key] === value))
        return classified(rule);
    }
    if (rule.error?.test(error)) return classified(rule);
  }
  return undefined;
}

/**
 * The result with its kind in the metadata and the hint after what the model reads. `keelTool`: the call was to one
 * of Keel's own tools, not an MCP server's (`server__tool`), so hints naming Keel's file tools apply.
 */
export function withRecoveryHint(result: ToolResult, keelTool = true): ToolResult {
  const found = classifyResult(result);
  if (!found) return result;
  const metadata = { ...result.metadata, error_kind: found.kind };
  if (!found.hint || (found.keelToolsOnly && !keelTool)) return { ...result, metadata };
  const hint = `Hint: ${found.hint}.`;
  return { ...result, output: result.output ? `${result.output}\n${hint}` : hint, metadata };
}
