// The text of shell words as bash reads it: ANSI-C quoting (`$'\x72m'`), control characters that make what is
// shown differ from what runs, and expansions that run a variable's value as code.

const ANSI_C_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

/** The body of `$'...'` with its escapes decoded, as bash does. */
export function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_m, e: string) => {
      if (/^[xuU]/.test(e)) return String.fromCodePoint(Number.parseInt(e.slice(1), 16));
      if (/^[0-7]/.test(e)) return String.fromCharCode(Number.parseInt(e, 8));
      if (e.startsWith('c') && e.length === 2) return String.fromCharCode(e.charCodeAt(1) & 0x1f);
      return ANSI_C_ESCAPES[e] ?? (`\\'"?`.includes(e) ? e : `\\${e}`);
    },
  );
}

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
