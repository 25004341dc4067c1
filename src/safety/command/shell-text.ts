// Shell text that makes what is shown differ from what runs: control characters, and expansions that run a
// variable's value as code (`${x@P}`, `${!x}`).

/** `${!name}` (not `${!prefix*}` or `${!array[@]}`, which list names): the value names what is expanded. */
export const INDIRECT = /^\$\{!(?![A-Za-z_][A-Za-z0-9_]*(\*|@|\[[@*]\])\})/;
/** `${x@P}` expands the value as a prompt string, running the command substitutions in it. */
export const PROMPT_EXPANSION = /@P\}$/;

/** Any C0 control character other than tab and newline, or DEL. */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f) return true;
  }
  return false;
}

/** Why an expansion runs a variable's value as code, which no reading of the command shows (none: `[]`). */
export function codeExpansions(text: string): string[] {
  const why: string[] = [];
  if (INDIRECT.test(text)) why.push('an indirect expansion, which can run its value as code');
  if (PROMPT_EXPANSION.test(text)) why.push('a prompt expansion, which runs the code in its value');
  return why;
}
