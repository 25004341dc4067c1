// Where a command's text goes: what the user asked for on stdout, notes and errors on stderr. A subcommand run
// from a chat's slash command gets the chat's screen instead, so the screen stays the one writer of the chat.

export interface CommandOutput {
  /** Output the user asked for (stdout). */
  print(text: string): void;
  /** Notes, warnings and errors (stderr). */
  notice(text: string): void;
}

/** The process's own streams: a command run from the shell. */
export const processOutput: CommandOutput = {
  print: (text) => void process.stdout.write(text),
  notice: (text) => void process.stderr.write(text),
};
