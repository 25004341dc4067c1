// Makes untrusted text (model output, tool output, file contents, server messages) safe to print on a terminal.
//
// Control characters would otherwise act instead of showing: ESC starts cursor moves, OSC 8 links, OSC 52
// clipboard writes and title changes; BEL rings, backspace and a lone CR overwrite what was shown, C1 controls
// (U+0080–U+009F) are ESC sequences in one character, and bidi overrides reorder a command so it reads as
// another. Each is shown escaped (`\x1b`, `\r`, `\u202e`). Newline and tab stay as they are. Every character is
// escaped on its own, so a sequence split across two streamed deltas never survives either half.
// Sanitize before styling: our own escapes from style.ts are added afterwards.

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this module's job.
const unsafe = /\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

const hex = (code: number, width: number) => code.toString(16).padStart(width, '0');

function escapeMatch(match: string): string {
  // Windows line ends are plain line ends, not an overwrite.
  if (match === '\r\n') return '\n';
  if (match === '\r') return '\\r';
  const code = match.charCodeAt(0);
  return code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}

export function sanitize(text: string): string {
  return text.replace(unsafe, escapeMatch);
}
