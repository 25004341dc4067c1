// The files and commands inside sed and awk programs given on the command line: `sed 'w ~/.zshenv'`,
// `sed 's/x/y/w out'`, `sed 'e cmd'`, `awk '{print > "f"}'`, `awk 'BEGIN{system("cmd")}'` — so a "text" argument
// cannot hide a write or a command from the denylist.

export interface ScriptEffects {
  reads: string[];
  writes: string[];
  /** Shell commands the program runs, as literal text. */
  commands: string[];
  /** Shell commands the program writes its output to (`print | "sh"`): they read it as standard input. */
  pipes: string[];
  /** The program runs a command the checker cannot read (sed's `e` flag, `system(x)` on a variable). */
  opaque: boolean;
}

const none = (): ScriptEffects => ({ reads: [], writes: [], commands: [], pipes: [], opaque: false });

// An address: a line number, `first~step`, `$` or `/re/`, optionally a range, optionally negated.
const ONE_ADDRESS = String.raw`(?:\d+(?:~\d+)?|\$|/(?:\\.|[^/])*/[IM]*)`;
const ADDRESS = new RegExp(String.raw`^${ONE_ADDRESS}(?:\s*,\s*(?:${ONE_ADDRESS}|[+~]\d+))?\s*!?\s*`);

/** The end of `s<d>re<d>replacement<d>`: the index after the third delimiter. */
function substitutionEnd(part: string): number {
  const delimiter = part[1];
  let i = 2;
  for (let seen = 0; i < part.length && seen < 2; i++) {
    if (part[i] === '\\') i++;
    else if (part[i] === delimiter) seen++;
  }
  return i;
}

/** What a sed script reads, writes and runs. */
export function sedEffects(script: string): ScriptEffects {
  const effects = none();
  for (const line of script.split(/[;\n]/)) {
    const part = line
      .trim()
      .replace(/^[{}]\s*/, '')
      .replace(ADDRESS, '');
    const command = part[0];
    const rest = part.slice(1).trim();
    if (command === 'w' || command === 'W') effects.writes.push(rest);
    else if (command === 'r' || command === 'R') effects.reads.push(rest);
    else if (command === 'e') {
      if (rest === '') effects.opaque = true;
      else effects.commands.push(rest);
    } else if (command === 's' && part.length > 1) {
      const flags = part.slice(substitutionEnd(part));
      if (/^[gpiImM0-9]*e/.test(flags)) effects.opaque = true;
      const written = /^[gpiImMe0-9]*w\s*(.+)$/.exec(flags);
      if (written?.[1]) effects.writes.push(written[1].trim());
    }
  }
  return effects;
}

/** What an awk program writes (`print > "f"`) and runs (`system("cmd")`, `print | "cmd"`, `"cmd" | getline`). */
export function awkEffects(program: string): ScriptEffects {
  const effects = none();
  for (const m of program.matchAll(/\bprintf?\b[^;{}]*?(>>?|\|)\s*"((?:\\.|[^"\\])*)"/g)) {
    if (m[1] === '|') effects.pipes.push(m[2] ?? '');
    else effects.writes.push(m[2] ?? '');
  }
  for (const m of program.matchAll(/"((?:\\.|[^"\\])*)"\s*\|\s*getline/g)) effects.commands.push(m[1] ?? '');
  for (const m of program.matchAll(/\bsystem\s*\(\s*([^)]*)\)/g)) {
    const literal = /^"((?:\\.|[^"\\])*)"$/.exec((m[1] ?? '').trim());
    if (literal) effects.commands.push(literal[1] ?? '');
    else effects.opaque = true;
  }
  if (/\|\s*getline/.test(program) && !/"\s*\|\s*getline/.test(program)) effects.opaque = true;
  if (/\bprintf?\b[^;{}]*?(>>?|\|)\s*[A-Za-z_(]/.test(program)) effects.opaque = true;
  return effects;
}
