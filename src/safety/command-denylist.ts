// The denylist: catastrophic commands refused in every mode, matched on parsed argv (after unwrapping
// env/timeout/xargs/... and `bash -c`), never on the raw string.
import path from 'node:path';
import { analyzeCommand, type CommandAnalysis } from './command-analysis.js';
import {
  CHMOD_OPEN_MODES,
  DD_WIPE_SOURCES,
  DENIED_PROGRAM_PREFIXES,
  DENIED_PROGRAMS,
  DOWNLOADERS,
  lookup,
  RM_PROTECTED,
  SHELLS,
  WRAPPERS,
} from './command-rules.js';
import type { Workspace } from './workspace.js';

const MAX_NESTING = 3;

export const programName = (word: string | undefined): string => path.posix.basename(word ?? '');

/** The command and every command it wraps: `env FOO=1 timeout 5 rm x` → [env ..., timeout ..., rm x]. */
export function unwrap(argv: readonly string[]): string[][] {
  const chain: string[][] = [[...argv]];
  let current = [...argv];
  for (let depth = 0; depth < 10; depth++) {
    const wrapper = lookup(WRAPPERS, programName(current[0]));
    if (!wrapper) break;
    let i = 1;
    while (i < current.length) {
      const arg = current[i] ?? '';
      if (arg === '--') {
        i++;
        break;
      }
      if (wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) i++;
      else if (arg.startsWith('-') && arg !== '-') i += wrapper.valueFlags.includes(arg) ? 2 : 1;
      else break;
    }
    current = current.slice(i + wrapper.positionals);
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

interface Flags {
  letters: Set<string>;
  long: Set<string>;
  operands: string[];
}

function splitFlags(args: readonly string[]): Flags {
  const flags: Flags = { letters: new Set(), long: new Set(), operands: [] };
  let options = true;
  for (const arg of args) {
    if (options && arg === '--') options = false;
    else if (options && arg.startsWith('--')) flags.long.add(arg.split('=')[0] ?? arg);
    else if (options && /^-[A-Za-z]+$/.test(arg)) for (const c of arg.slice(1)) flags.letters.add(c);
    else flags.operands.push(arg);
  }
  return flags;
}

/** `$HOME/x`, `${HOME}`, `~/` → `~...`; `//a/./b/` → `/a/b`; a trailing `/*` names its directory. */
function normaliseTarget(target: string): string {
  let t = target.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, '~');
  if (/^~[^/]*/.test(t)) t = `~${t.replace(/^~[^/]*/, '')}`;
  t = path.posix.normalize(t);
  for (;;) {
    const next = t.replace(/\/(\*|\.\*)?$/, '') || '/';
    if (next === t) break;
    t = next;
  }
  return t === '~/' ? '~' : t;
}

function rmReason(args: readonly string[]): string | undefined {
  const flags = splitFlags(args);
  if (flags.long.has('--no-preserve-root')) return 'rm --no-preserve-root';
  if (!flags.letters.has('r') && !flags.letters.has('R') && !flags.long.has('--recursive')) return undefined;
  for (const operand of flags.operands) {
    const t = normaliseTarget(operand);
    if (RM_PROTECTED.includes(t)) return `recursive rm of ${operand} wipes the system or home directory`;
    if (t === '.' || t === '*' || t === '..' || t === '.*')
      return `recursive rm of ${operand} wipes the workspace`;
    if (t.startsWith('$')) return `recursive rm of ${operand} depends on a variable that may be empty`;
  }
  return undefined;
}

function ddReason(args: readonly string[]): string | undefined {
  const input = args.find((a) => a.startsWith('if='))?.slice(3);
  const output = args.find((a) => a.startsWith('of='))?.slice(3);
  if (output === undefined) return undefined;
  if (input !== undefined && DD_WIPE_SOURCES.includes(input)) return `dd from ${input} overwrites ${output}`;
  if (/^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk)/.test(output)) return `dd writes to the disk device ${output}`;
  return undefined;
}

function chmodReason(args: readonly string[]): string | undefined {
  const flags = splitFlags(args);
  const recursive = flags.letters.has('R') || flags.long.has('--recursive');
  const open = flags.operands.find((a) => CHMOD_OPEN_MODES.includes(a));
  return recursive && open ? `chmod -R ${open} opens every file to everyone` : undefined;
}

/** The `-c` script of `bash -c '...'` / `sh -ec '...'`, if any. */
function shellScript(args: readonly string[]): string | undefined {
  const flagIndex = args.findIndex((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a));
  if (flagIndex === -1) return undefined;
  return args.slice(flagIndex + 1).find((a) => !a.startsWith('-')) ?? '';
}

async function argvReason(argv: readonly string[], depth: number): Promise<string | undefined> {
  const program = programName(argv[0]);
  const args = argv.slice(1);
  const denied = lookup(DENIED_PROGRAMS, program);
  if (denied) return `${program}: ${denied}`;
  for (const [prefix, why] of Object.entries(DENIED_PROGRAM_PREFIXES)) {
    if (program.startsWith(prefix)) return `${program}: ${why}`;
  }
  if (program === 'rm') return rmReason(args);
  if (program === 'dd') return ddReason(args);
  if (program === 'chmod') return chmodReason(args);
  if (SHELLS.includes(program)) {
    const script = shellScript(args);
    if (script === undefined) return undefined;
    if (depth >= MAX_NESTING) return 'shell scripts nested too deeply to check';
    return findDenied(await analyzeCommand(script), depth + 1);
  }
  return undefined;
}

/** Why the analysed command is on the denylist, or undefined when it is not. */
export async function findDenied(analysis: CommandAnalysis, depth = 0): Promise<string | undefined> {
  const recursive = analysis.functions.find((f) => f.recursive);
  if (recursive) return `defines a function ${recursive.name} that calls itself (fork bomb)`;
  const programs = new Set<string>();
  for (const command of analysis.commands) {
    for (const argv of unwrap(command.argv)) {
      programs.add(programName(argv[0]));
      const reason = await argvReason(argv, depth);
      if (reason) return reason;
    }
  }
  const downloader = DOWNLOADERS.find((d) => programs.has(d));
  const shell =
    SHELLS.find((s) => programs.has(s)) ?? (programs.has('source') || programs.has('.') ? 'source' : '');
  if (downloader && shell) return `downloads with ${downloader} and runs it with ${shell}`;
  return undefined;
}

/** What judging a command needs to resolve its targets: the workspace, home, environment, paths the user allows. */
export interface CommandContext {
  workspace: Workspace;
  home: string;
  env: NodeJS.ProcessEnv;
  allowedPaths: readonly string[];
  protectedPaths: readonly string[];
  stateDir: string;
}

export interface ActVerdict {
  tier: 'deny' | 'confirm';
  reason: string;
}

/** Every act of the command that is denied in every mode (deny) or asked even in full mode (confirm). */
export async function judgeCommand(
  analysis: CommandAnalysis,
  _context: CommandContext,
): Promise<ActVerdict[]> {
  const reason = await findDenied(analysis);
  return reason ? [{ tier: 'deny', reason }] : [];
}
