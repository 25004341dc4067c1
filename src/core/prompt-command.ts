// A slash command that becomes a user message: a custom command file (.keel/commands/*.md) or an MCP prompt.
// The chat lists them beside its own commands; `keel run --command name args` runs one headless.

export interface PromptCommand {
  /** Without the slash, e.g. `review` or `everything__simple-prompt`. */
  name: string;
  description: string;
  /** Where it comes from, shown in /help: `project`, `user`, `mcp:<server>`. */
  source: string;
  /** Tool names the command may use (front matter `allowed-tools`); absent: every tool. */
  allowedTools?: string[];
  /** What the arguments are, shown after the name in help (front matter `argument-hint`). */
  argumentHint?: string;
  /** Its expansion appends the `@path` files it names (a custom command file's): the chat attaches none again. */
  includesFiles?: boolean;
  /**
   * The user message for these arguments (placeholders filled, @files included); `skipped` is told of each @file
   * left as text and why (not UTF-8), for the user.
   */
  expand(
    args: string,
    signal?: AbortSignal,
    skipped?: (skip: { path: string; reason: string }) => void,
  ): Promise<string>;
}
