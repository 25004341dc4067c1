// Inline interpreter code: programs given as text (`python3 -c`, `node -e`, `perl -ne`, awk with system(),
// a here-document fed to an interpreter, `bash -c "$X"`), which the command analyser cannot see through.

import { SHELLS } from './act-rules.js';
import type { CommandAnalysis, SimpleCommand } from './analysis.js';
import { awkRunsCommands } from './awk-program.js';
import { programName } from './denylist.js';
import { AWK_PROGRAMS, INLINE_CODE_FLAGS, lookup } from './program-rules.js';
import { unwrap } from './unwrap-argv.js';

/** `-c`, `-ccode`, `--eval=code`, or a short cluster holding the letter (`perl -ne`, `python3 -Bc`). */
function hasCodeFlag(args: readonly string[], flags: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    const found = flags.some((flag) => {
      if (arg === flag || (flag.startsWith('--') && arg.startsWith(`${flag}=`))) return true;
      return /^-[a-zA-Z]$/.test(flag) && /^-[a-zA-Z]+/.test(arg) && arg.slice(1).includes(flag.slice(1));
    });
    if (found) return true;
    // The first operand is the script file: options after it belong to the script.
    if (!arg.startsWith('-')) return false;
  }
  return false;
}

/** Standard input by name: `python3 /dev/stdin <<E` runs the here-document as `python3 - <<E` does. */
const STDIN_NAMES = ['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0'];

/** Only options, or options and standard input named as the script: the program is what stdin holds. */
function readsStdinScript(args: readonly string[]): boolean {
  const script = args.findIndex((a) => !a.startsWith('-'));
  return script === -1 || STDIN_NAMES.includes(args[script] as string);
}

/** The interpreter whose inline code the command runs (`python3`, `awk`, `bash`), or undefined. */
export function inlineCode(command: SimpleCommand, analysis: CommandAnalysis): string | undefined {
  const heredoc = analysis.issues.some((i) => i.kind === 'heredoc');
  for (const argv of unwrap(command.argv)) {
    const program = programName(argv[0]);
    const args = argv.slice(1);
    const flags = lookup(INLINE_CODE_FLAGS, program);
    if (flags && (hasCodeFlag(args, flags) || (heredoc && readsStdinScript(args)))) {
      return program;
    }
    // Judged on the tokenised program: `|` or `system` inside a string or a regular expression runs nothing.
    if (AWK_PROGRAMS.includes(program) && awkRunsCommands(args)) return program;
    if (SHELLS.includes(program)) {
      const flag = args.findIndex((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a));
      // A literal `-c` script is parsed and judged like the command itself; text from an expansion is not.
      const script = flag === -1 ? undefined : args[flag + 1];
      if (script !== undefined && command.nonLiteral.some((i) => command.argv[i] === script)) return program;
      if (heredoc && flag === -1 && args.every((a) => a.startsWith('-'))) return program;
    }
  }
  return undefined;
}
