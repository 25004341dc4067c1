// What command analysis reads a command line into: simple commands (argv with quotes removed, redirections,
// assignments, scope) and the issues, the constructs whose effect is not plain literal words.

export type IssueKind =
  | 'command_substitution'
  | 'process_substitution'
  | 'parameter_expansion'
  | 'arithmetic_expansion'
  | 'brace_expansion'
  | 'heredoc'
  | 'subshell'
  | 'group'
  | 'function'
  | 'control_flow'
  | 'test_expression'
  | 'assignment'
  | 'background'
  | 'control_character'
  | 'hidden_continuation'
  | 'parse_error'
  | 'unsupported_syntax';

export interface CommandIssue {
  kind: IssueKind;
  /** The source text of the construct (shortened). */
  text: string;
}

export interface Redirect {
  /** `>`, `>>`, `<`, `&>`, `>&`, `>|`, ...; `<<` and `<<<` for here-documents and here-strings (target: the text). */
  operator: string;
  /** The file descriptor written before the operator (`2` in `2>x`), if any. */
  fd?: string;
  target: string;
  literal: boolean;
}

export interface SimpleCommand {
  /** Words with quotes and escapes removed; a non-literal part keeps its source text (`$HOME`). */
  argv: string[];
  /** True when every word is fully literal. */
  literal: boolean;
  /** Indexes into argv of words that are not fully literal (expansions, substitutions). */
  nonLiteral: number[];
  /** Indexes into argv of words with unquoted glob characters (`*`, `?`, `[`). */
  globs: number[];
  /** Redirections applying to this command, including those of an enclosing group. */
  redirects: Redirect[];
  /** Leading `VAR=value` words. */
  assignments: string[];
  text: string;
  /**
   * The subshell the command runs in: `''` for the top level, `/1`, `/1/3` for nested subshells, substitutions
   * and the parts of a pipeline. A `cd` affects later commands of its own scope and of scopes below it.
   */
  scope: string;
  /** True when the command's standard input comes from a pipe (`curl x | sh`: true for sh). */
  stdinPipe: boolean;
}

export interface WordValue {
  value: string;
  literal: boolean;
  /** The word's unquoted characters, with quoted and escaped characters replaced by `_`. */
  shape: string;
}

export const EMPTY_COMMAND: SimpleCommand = {
  argv: [],
  literal: true,
  nonLiteral: [],
  globs: [],
  redirects: [],
  assignments: [],
  text: '',
  scope: '',
  stdinPipe: false,
};
