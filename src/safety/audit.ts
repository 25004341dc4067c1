// The audit trail: an event consumer that appends one line per command and per file change, run or refused,
// to `<state dir>/audit.log` in xzatoma's format, secrets redacted before anything is written.
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AgentEvent, EventSink } from '../core/events.js';
import type { Redactor } from './redact.js';

/** `$XDG_STATE_HOME/keel/audit.log` for the state dir `<...>/keel`. */
export function auditLogPath(stateDir: string): string {
  return join(stateDir, 'audit.log');
}

export interface AuditOptions {
  file: string;
  /** Where the calls run: the workspace root. */
  cwd: string;
  redact: Redactor;
  /** Whether a tool's calls are audited: not read-only file tools (read_file, list_files, diff_files). */
  audited: (tool: string) => boolean;
  /** A line could not be written; the run goes on. */
  onError?: (error: unknown) => void;
}

/** One line of the log, as `keel audit --json` prints it. */
export interface AuditEntry {
  time: string;
  cwd: string;
  action: string;
  /** The exit code; 0 for a file change that succeeded; null when the call did not run or failed without one. */
  exit: number | null;
  duration_ms: number;
  refused?: string;
  failed?: string;
  dry_run?: boolean;
}

type ToolResultEvent = Extract<AgentEvent, { type: 'tool_result' }>;

/** Control characters (newlines first) as escapes, so one action is one line and a terminal shows it inert. */
function escapeControls(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point.
  return text.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = c.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A field other than the action: no `|` either (escaped), so the line splits back into its fields. */
const field = (text: string) => escapeControls(text).replace(/\|/g, '\\|');

/** What a call did, in a few words: the command, `write_file src/a.ts` or `web_fetch https://…`. */
function actionOf(tool: string, args: unknown): string {
  const fields = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  if (typeof fields.command === 'string') return fields.command;
  if (typeof fields.path === 'string') return `${tool} ${fields.path}`;
  if (typeof fields.url === 'string') return `${tool} ${fields.url}`;
  const json = JSON.stringify(args) ?? '';
  return json === '{}' ? tool : `${tool} ${json.length > 200 ? `${json.slice(0, 197)}...` : json}`;
}

/** `exit:0`, `refused: <reason>`, `failed: <error>` or `dry-run`. */
function outcomeOf(result: ToolResultEvent): string {
  const policy = result.metadata.policy;
  if (policy === 'declined') return 'refused: declined by the user';
  if (policy === 'deny') {
    return `refused: ${(result.error ?? 'refused').replace(/^refused(?: by policy)?: /, '')}`;
  }
  if (result.metadata.dry_run === true) return 'dry-run';
  const exit = result.metadata.exit_code;
  if (typeof exit === 'number' && exit >= 0) return `exit:${exit}`;
  if (result.success) return 'exit:0';
  return `failed: ${result.error ?? 'failed'}`;
}

export function formatAuditLine(entry: {
  time: Date;
  cwd: string;
  action: string;
  outcome: string;
  durationMs: number;
}): string {
  const seconds = `${(entry.durationMs / 1000).toFixed(2)}s`;
  return `${entry.time.toISOString()} | ${field(entry.cwd)} | ${escapeControls(entry.action)} | ${field(entry.outcome)} | ${seconds}\n`;
}

/** Splits a line back into its fields: the action (free text) is whatever lies between cwd and the outcome. */
export function parseAuditLine(line: string): AuditEntry | undefined {
  const sep = ' | ';
  const first = line.indexOf(sep);
  const second = first < 0 ? -1 : line.indexOf(sep, first + sep.length);
  const last = line.lastIndexOf(sep);
  const beforeLast = last < 0 ? -1 : line.lastIndexOf(sep, last - 1);
  if (first < 0 || second < 0 || beforeLast < second) return undefined;
  const unpipe = (text: string) => text.replace(/\\\|/g, '|');
  const outcome = unpipe(line.slice(beforeLast + sep.length, last));
  const duration = Number.parseFloat(line.slice(last + sep.length));
  const entry: AuditEntry = {
    time: line.slice(0, first),
    cwd: unpipe(line.slice(first + sep.length, second)),
    action: line.slice(second + sep.length, beforeLast),
    exit: null,
    duration_ms: Number.isFinite(duration) ? Math.round(duration * 1000) : 0,
  };
  const exit = /^exit:(-?\d+)$/.exec(outcome);
  if (exit) entry.exit = Number(exit[1]);
  else if (outcome.startsWith('refused: ')) entry.refused = outcome.slice('refused: '.length);
  else if (outcome.startsWith('failed: ')) entry.failed = outcome.slice('failed: '.length);
  else if (outcome === 'dry-run') entry.dry_run = true;
  return entry;
}

/**
 * The audit consumer: remembers each audited call's arguments (as the user edited them, if they did) and
 * writes its line when the result comes. Lines are appended in order, each in one O_APPEND write, so several
 * Keel processes can share the log; the file is created 0600 in a 0700 directory.
 */
export function createAuditLog(options: AuditOptions): EventSink {
  const calls = new Map<string, { args: unknown; time: Date }>();
  let writing: Promise<void> = Promise.resolve();
  let reported = false;
  const append = async (line: string) => {
    await mkdir(dirname(options.file), { recursive: true, mode: 0o700 });
    await appendFile(options.file, line, { mode: 0o600, flag: 'a' });
  };
  return (event) => {
    switch (event.type) {
      case 'tool_call':
        if (options.audited(event.name)) calls.set(event.id, { args: event.args, time: new Date() });
        return;
      case 'approval_answered': {
        const call = calls.get(event.id);
        if (call && event.edited) call.args = event.edited;
        return;
      }
      case 'tool_result': {
        const call = calls.get(event.id);
        if (!call) return;
        calls.delete(event.id);
        // Each field redacted before it is escaped and joined: no secret reaches the disk, whatever field hid it.
        const line = formatAuditLine({
          time: call.time,
          cwd: options.redact(options.cwd),
          action: options.redact(actionOf(event.name, call.args)),
          outcome: options.redact(outcomeOf(event)),
          durationMs: event.duration_ms,
        });
        // The tripwire's restore is a line of its own, after the call's: what was put back, and why.
        const tripwire = event.metadata.tripwire;
        const extra =
          typeof tripwire === 'string'
            ? formatAuditLine({
                time: new Date(),
                cwd: options.redact(options.cwd),
                action: options.redact(`tripwire after ${event.name}: ${tripwire}`),
                outcome: 'restored',
                durationMs: 0,
              })
            : '';
        writing = writing
          .then(() => append(line + extra))
          .catch((error: unknown) => {
            if (!reported) options.onError?.(error);
            reported = true;
          });
        return writing;
      }
      default:
        return;
    }
  };
}
