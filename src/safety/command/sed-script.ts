// Whether a sed invocation only prints: its options, and its script parsed command by command (addresses, `s`
// with its flags, `a`/`i`/`c` text), so a `w` hidden in a flag or after a label is found and text is not mistaken
// for a command. Where this parser and sed could disagree, it ends a token sooner than sed, so it sees more
// commands than sed runs, never fewer.

/** What a sed invocation reads: the indexes into args of its input files, or why it is not read-only. */
export type SedVerdict = { files: number[] } | { problem: string };

/** Options that change only how sed reads and prints. */
const FLAG_LETTERS = 'nErszu';
const LONG_FLAGS = [
  '--quiet',
  '--silent',
  '--regexp-extended',
  '--posix',
  '--separate',
  '--null-data',
  '--unbuffered',
  '--debug',
  '--sandbox',
];

/** sed's arguments (argv without `sed`): the script from `-e` or the first operand, the rest input files. */
export function sedVerdict(args: readonly string[]): SedVerdict {
  const scripts: string[] = [];
  const operands: number[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (!options || !arg.startsWith('-') || arg === '-') {
      operands.push(i);
      continue;
    }
    if (arg === '--') {
      options = false;
    } else if (arg.startsWith('--')) {
      const [name = '', value] = arg.split(/=(.*)/s);
      if (name === '--expression') {
        const script = value ?? args[++i];
        if (script === undefined) return { problem: '`sed --expression` needs a script' };
        scripts.push(script);
      } else if (name === '--line-length' && value !== undefined) {
        // A number: nothing to check.
      } else if (!LONG_FLAGS.includes(arg)) {
        return { problem: `\`sed ${arg}\` can change files or read a script from elsewhere` };
      }
    } else {
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j] ?? '';
        if (FLAG_LETTERS.includes(letter)) continue;
        if (letter === 'e' || letter === 'l') {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
          if (value === undefined) return { problem: `\`sed -${letter}\` needs a value` };
          if (letter === 'e') scripts.push(value);
          break;
        }
        return { problem: `\`sed -${letter}\` can change files or read a script from elsewhere` };
      }
    }
  }
  if (scripts.length === 0) {
    const first = operands.shift();
    if (first === undefined) return { problem: '`sed` without a script' };
    scripts.push(args[first] ?? '');
  }
  // -e scripts are joined by newlines, so text of one `a` command cannot swallow the next script.
  const problem = sedScriptProblem(scripts.join('\n'));
  return problem ? { problem } : { files: operands };
}

const SIMPLE = new Set([...'=dDgGhHnNpPxzF']);
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

/** Why a sed script does more than print (writes, reads other files, runs commands), or undefined. */
export function sedScriptProblem(script: string): string | undefined {
  const s = script;
  let i = 0;
  const skipBlanks = () => {
    while (isBlank(s[i])) i++;
  };
  /** Index after a `<d>...<d>` part starting at the delimiter; -1 when unterminated. */
  const delimited = (at: number, delimiter: string): number => {
    for (let j = at + 1; j < s.length; j++) {
      if (s[j] === '\\') j++;
      else if (s[j] === delimiter) return j + 1;
      else if (s[j] === '\n' && delimiter !== '\n') return -1;
    }
    return -1;
  };
  const address = (): boolean => {
    const c = s[i] ?? '';
    if (/\d/.test(c)) {
      while (/[\d~]/.test(s[i] ?? '')) i++;
    } else if (c === '$') {
      i++;
    } else if (c === '/' || c === '\\') {
      const delimiter = c === '/' ? '/' : (s[i + 1] ?? '');
      const end = delimited(c === '/' ? i : i + 1, delimiter);
      if (end === -1 || delimiter === '' || delimiter === '\n') return false;
      i = end;
      while (/[IM]/.test(s[i] ?? '')) i++;
    } else {
      return true;
    }
    skipBlanks();
    if (s[i] !== ',') return true;
    i++;
    skipBlanks();
    if (s[i] === '+' || s[i] === '~') {
      i++;
      while (/\d/.test(s[i] ?? '')) i++;
      return true;
    }
    const before = i;
    return address() && i > before;
  };
  while (i < s.length) {
    const c = s[i] ?? '';
    if (isBlank(c) || c === '\n' || c === ';' || c === '}') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    if (!address()) return `the sed script \`${script}\` has an address that does not parse`;
    skipBlanks();
    while (s[i] === '!') {
      i++;
      skipBlanks();
    }
    const command = s[i++] ?? '';
    // A block's first command may follow `{` directly.
    if (command === '{') continue;
    if (SIMPLE.has(command)) {
      // No argument.
    } else if (command === 'l' || command === 'q' || command === 'Q' || command === 'L') {
      skipBlanks();
      while (/\d/.test(s[i] ?? '')) i++;
    } else if (command === ':' || command === 'b' || command === 't' || command === 'T') {
      skipBlanks();
      const start = i;
      while (i < s.length && !/[\s;}]/.test(s[i] ?? '')) i++;
      if (command === ':' && i === start) return `the sed script \`${script}\` has an empty label`;
    } else if (command === 'a' || command === 'i' || command === 'c') {
      // Text to the end of the line; a line ending in a backslash continues it.
      while (i < s.length && s[i] !== '\n') i += s[i] === '\\' ? 2 : 1;
    } else if (command === 's' || command === 'y') {
      const delimiter = s[i] ?? '';
      if (delimiter === '' || delimiter === '\\' || delimiter === '\n') {
        return `the sed script \`${script}\` has a \`${command}\` command that does not parse`;
      }
      const middle = delimited(i, delimiter);
      const end = middle === -1 ? -1 : delimited(middle - 1, delimiter);
      if (end === -1) return `the sed script \`${script}\` has a \`${command}\` command that does not parse`;
      i = end;
      if (command === 's') {
        while (/[gpiImM\d]/.test(s[i] ?? '')) i++;
        if (s[i] === 'w') return `the sed script \`${script}\` writes a file (the \`w\` flag of \`s\`)`;
        if (s[i] === 'e') return `the sed script \`${script}\` runs a command (the \`e\` flag of \`s\`)`;
      }
    } else if (command === 'w' || command === 'W') {
      return `the sed script \`${script}\` writes a file (\`${command}\`)`;
    } else if (command === 'r' || command === 'R') {
      return `the sed script \`${script}\` reads a file the path check cannot see (\`${command}\`)`;
    } else if (command === 'e') {
      return `the sed script \`${script}\` runs a command (\`e\`)`;
    } else {
      return `the sed script \`${script}\` uses \`${command}\`, which is not a printing command`;
    }
    skipBlanks();
    const next = s[i];
    if (next !== undefined && !/[\n;}#]/.test(next)) {
      return `the sed script \`${script}\` has \`${next}\` where a command ends`;
    }
  }
  return undefined;
}
