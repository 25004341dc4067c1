// `@path` in a message or a command file: where one is, and the path it names. The chat's attachments and a custom
// command's includes read them alike, so a path with spaces is written the same way in both.

/**
 * `@path` at the start or after whitespace (an e-mail address is not one); trailing punctuation is not part of it.
 * A path with spaces is quoted (`@"My shot.png"`) or has them escaped as a terminal pastes a dropped file
 * (`@Screenshot\ 2025-01-01.png`).
 */
export const AT_PATH = /(^|\s)@(?:"([^"\n]+)"|((?:\\.|[^\s@\\])+?))(?=[.,;:!?)]*(?:\s|$))/g;

/** A match of AT_PATH's path: shell escapes (`\ `, `\(`) undone; other backslashes kept. */
export const atPathOf = (match: RegExpMatchArray): string =>
  match[2] ?? (match[3] ?? '').replace(/\\([\s'"()[\]&;!$`])/g, '$1');
