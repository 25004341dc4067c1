// A command's argv with its wrappers peeled off (env, timeout, xargs, find -exec ...), for the user's deny and ask
// rules and the inline-code check, which look at the program a wrapper runs.
import { programName } from './denylist.js';
import { lookup, WRAPPERS, wrappedStart } from './program-rules.js';

/** The command and every command it wraps: `env FOO=1 timeout 5 rm x` → [env ..., timeout ..., rm x]. */
export function unwrap(argv: readonly string[]): string[][] {
  const chain: string[][] = [[...argv]];
  let current = [...argv];
  for (let depth = 0; depth < 10; depth++) {
    const wrapper = lookup(WRAPPERS, programName(current[0]));
    if (!wrapper) break;
    current = current.slice(wrappedStart(current, wrapper));
    if (current.length === 0) break;
    chain.push(current);
  }
  // find -exec CMD ... ; runs CMD.
  for (const argv of [...chain]) {
    if (programName(argv[0]) !== 'find') continue;
    argv.forEach((arg, i) => {
      if (/^-(exec|execdir|ok|okdir)$/.test(arg)) {
        const end = argv.findIndex((a, j) => j > i && (a === ';' || a === '+'));
        chain.push(argv.slice(i + 1, end === -1 ? undefined : end));
      }
    });
  }
  return chain;
}
