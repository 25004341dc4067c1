// Decoding bash's ANSI-C quoted strings ($'…'): the escapes become the characters the command really receives.

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

/** The value of `$'body'`, as bash expands it. */
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
