// `keel sessions list`, also built on its own as dist/sessions-list.cjs: the launcher hands it every command line
// naming `sessions` and `list`, and it answers from the sessions' sidecars without loading the CLI's 2 MB bundle.
// Whatever it does not answer alone (other flags, help, a session whose sidecar is outdated, any failure) it hands
// to the full CLI having written nothing, so what the user sees is the same either way.
import { realpathSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { dataDir } from '../config/paths.js';
import { formatCost } from '../core/cost.js';
import { resolveWorkspaceDir } from '../runtime/workspace-dir.js';
import { newestFirst, sessionDir, sidecarListing } from '../session/session-list.js';
import type { SessionSummary } from '../session/session-summary.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { sanitize } from '../ui/sanitize.js';
import { watchClosedOutput } from './closed-output.js';
import type { GlobalOptions } from './global-options.js';

type Output = GlobalOptions['output'];

/** The session directory of the workspace `--cwd` names (the current directory by default). */
export async function workspaceSessions(cwd: string | undefined): Promise<string> {
  return sessionDir(dataDir(process.env), await realpath(await resolveWorkspaceDir(cwd)));
}

const pad = (n: number) => String(n).padStart(2, '0');

function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function tokens(n: number): string {
  return n >= 1_000_000
    ? `${(n / 1_000_000).toFixed(1)}M`
    : n >= 1000
      ? `${(n / 1000).toFixed(1)}k`
      : String(n);
}

/** `text` cut to `room` characters, `…` last when cut. */
const clipTo = (text: string, room: number): string =>
  text.length <= room ? text : `${text.slice(0, Math.max(0, room - 1))}…`;

/** The table; on a terminal `columns` wide, each title is cut to what is left of its line, so no row wraps. */
export function formatList(sessions: SessionSummary[], columns?: number): string {
  const rows = sessions.map((s) => [
    s.id,
    localTime(s.updated),
    `${s.turns} turn${s.turns === 1 ? '' : 's'}`,
    `${tokens(s.input_tokens + s.output_tokens)} tok${s.cache_read_tokens > 0 ? ` (${tokens(s.cache_read_tokens)} cached)` : ''}`,
    s.cost === undefined ? '-' : formatCost(s.cost, s.cost_partial),
    sanitize(s.title),
  ]);
  const widths = rows[0]!.slice(0, -1).map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const before = widths.reduce((sum, width) => sum + width + 2, 0);
  // Some of the title is always shown, however narrow the terminal.
  const room = columns === undefined ? Number.POSITIVE_INFINITY : Math.max(12, columns - before);
  return `${rows.map((r) => r.map((cell, i) => (i < widths.length ? cell.padEnd(widths[i]!) : clipTo(cell, room))).join('  ')).join('\n')}\n`;
}

/** The list as `keel sessions list` prints it: a table, or JSON for `--output json` / `stream-json`. */
export function printList(sessions: SessionSummary[], output: Output, out: CommandOutput): void {
  if (output !== 'text') out.print(`${JSON.stringify(sessions, null, 2)}\n`);
  else if (sessions.length === 0) out.notice('no sessions in this workspace yet\n');
  else out.print(formatList(sessions, process.stdout.isTTY ? process.stdout.columns || 80 : undefined));
}

const outputs: readonly string[] = ['text', 'json', 'stream-json'] satisfies Output[];

/**
 * The options of `keel sessions list` when the arguments (after node and the script) are that command with only
 * `--cwd`, `--output` and `--debug`, before, between or after its two words, as commander takes them (the last
 * of a repeated option wins); undefined for any other command line.
 */
export function listArgs(args: readonly string[]): { cwd?: string; output: Output } | undefined {
  const words: string[] = [];
  let cwd: string | undefined;
  let output: Output = 'text';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--debug') continue;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    if (flag === '--cwd' || flag === '--output') {
      const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
      // A value that looks like a flag: what commander makes of it is its own business.
      if (value === undefined || value.startsWith('-')) return undefined;
      if (flag === '--cwd') cwd = value;
      else if (outputs.includes(value)) output = value as Output;
      else return undefined;
    } else if (arg.startsWith('-')) return undefined;
    else words.push(arg);
  }
  if (words.length !== 2 || words[0] !== 'sessions' || words[1] !== 'list') return undefined;
  return { ...(cwd === undefined ? {} : { cwd }), output };
}

/**
 * The sessions listed from their sidecars; undefined when one must be rebuilt from its file or anything failed
 * (a workspace that is not a directory included: the full CLI says so). Synchronous, as workspaceSessions but
 * without its messages: nothing waits on the thread pool.
 */
export function sidecarSessions(cwd: string | undefined): SessionSummary[] | undefined {
  try {
    const dir = resolve(cwd ?? process.cwd());
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return undefined;
    const { summaries, outdated } = sidecarListing(
      sessionDir(dataDir(process.env), realpathSync.native(dir)),
    );
    return outdated.length === 0 ? summaries.sort(newestFirst) : undefined;
  } catch {
    return undefined;
  }
}

/** The launcher's entry: answers `argv` (node's form) when it is a listing this bundle can make, else runs `fullCli`. */
export function run(argv: readonly string[], fullCli: () => void): void {
  const args = listArgs(argv.slice(2));
  const sessions = args && sidecarSessions(args.cwd);
  if (args === undefined || sessions === undefined) {
    fullCli();
    return;
  }
  // `keel sessions list | head -1`: a reader that closed stdout is not an error (as in main.ts).
  watchClosedOutput();
  printList(sessions, args.output, processOutput);
}
