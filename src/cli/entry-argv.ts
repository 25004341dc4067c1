// How people start agents, turned into Keel's subcommands before commander parses: `keel "fix the test"` opens the
// chat with that first message, `keel -p "…"` (or `--print`) is `keel run -p`, `echo "…" | keel` runs headless with
// stdin as the goal, and `keel --continue` resumes in the chat (or headless when there is no terminal).
import type { Command } from 'commander';

export interface Terminal {
  stdin: boolean;
  stdout: boolean;
}

/** The options (long and short) of these commands that take a value, so their values are not read as a message. */
function valueFlags(commands: readonly Command[]): Set<string> {
  const flags = new Set<string>();
  for (const command of commands) {
    for (const option of command.options) {
      if (!option.required && !option.optional) continue;
      if (option.long) flags.add(option.long);
      if (option.short) flags.add(option.short);
    }
  }
  return flags;
}

/** One edit (a letter added, dropped, changed, or two swapped): `keel rnu` is a typo of `run`, not a message. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
    if (diff.length === 1) return true;
    const [i, j] = diff;
    return diff.length === 2 && j === (i ?? 0) + 1 && a[i!] === b[j!] && a[j!] === b[i!];
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  for (let i = 0; i < long.length; i++) if (long.slice(0, i) + long.slice(i + 1) === short) return true;
  return false;
}

const looksLikeCommand = (word: string, names: readonly string[]) =>
  /^[a-z-]{3,}$/.test(word) && names.some((name) => oneEditApart(word, name));

/**
 * The arguments commander should parse. Subcommands, help and version pass through unchanged, and so does a single
 * word one edit from a subcommand's name (commander then names the command it probably meant).
 */
export function entryArgs(args: readonly string[], program: Command, terminal: Terminal): string[] {
  const names = program.commands.flatMap((c) => [c.name(), ...c.aliases()]).concat('help');
  const byName = (name: string) => program.commands.filter((c) => c.name() === name);
  const takesValue = valueFlags([program, ...byName('run'), ...byName('chat')]);
  const options: string[] = [];
  const words: string[] = [];
  let print = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      words.push(...args.slice(i + 1));
      break;
    }
    if (['-h', '--help', '-V', '--version'].includes(arg)) return [...args];
    if (arg === '-p' || arg === '--print') print = true;
    else if (arg.startsWith('--print=')) {
      print = true;
      words.push(arg.slice('--print='.length));
    } else if (arg.startsWith('-') && arg.length > 1) {
      options.push(arg);
      if (takesValue.has(arg) && i + 1 < args.length) options.push(args[++i]!);
    } else {
      if (words.length === 0 && names.includes(arg)) return [...args];
      words.push(arg);
    }
  }
  const message = words.join(' ');
  if (print) return ['run', ...options, ...(message ? ['--prompt', message] : [])];
  if (words.length === 1 && looksLikeCommand(message, names)) return [...args];
  const chat = terminal.stdin && terminal.stdout;
  if (words.length > 0)
    return chat ? ['chat', ...options, '--', message] : ['run', ...options, '--prompt', message];
  // No message: piped input is the goal; at a terminal, options such as --continue belong to the chat.
  if (!terminal.stdin) return ['run', ...options];
  if (chat && options.length > 0) return ['chat', ...options];
  return [...args];
}

/** A flag given together with its own negation (`--sandbox --no-sandbox`): which one was meant is a guess. */
export function contradictoryFlag(args: readonly string[]): string | undefined {
  const end = args.indexOf('--');
  const flags = new Set(end === -1 ? args : args.slice(0, end));
  return [...flags].find((f) => f.startsWith('--no-') && flags.has(`--${f.slice('--no-'.length)}`));
}
