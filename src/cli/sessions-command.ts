// `keel sessions list | show <id> | export <id> --format md|html|json | rm <id>`: the saved sessions of a workspace.
import { realpath, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { dataDir } from '../config/paths.js';
import { ExitCode } from '../core/errors.js';
import { resolveWorkspaceDir } from '../runtime/workspace-dir.js';
import type { ExportFormat } from '../session/export.js';
import { clearMarker } from '../session/marker.js';
import { findSession, readSession, SessionError, sessionDir, sessionPath } from '../session/session-file.js';
import { removeSessionImages } from '../session/session-images.js';
import { listSessions, sidecarOf } from '../session/session-sidecar.js';
import type { SessionSummary } from '../session/session-summary.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { sanitize } from '../ui/sanitize.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure } from './report.js';

async function workspaceSessions(options: GlobalOptions): Promise<string> {
  return sessionDir(dataDir(process.env), await realpath(await resolveWorkspaceDir(options.cwd)));
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

function formatList(sessions: SessionSummary[]): string {
  const rows = sessions.map((s) => [
    s.id,
    localTime(s.updated),
    `${s.turns} turn${s.turns === 1 ? '' : 's'}`,
    `${tokens(s.input_tokens + s.output_tokens)} tok${s.cache_read_tokens > 0 ? ` (${tokens(s.cache_read_tokens)} cached)` : ''}`,
    s.cost === undefined ? '-' : `$${s.cost.toFixed(2)}`,
    sanitize(s.title),
  ]);
  const widths = rows[0]!.slice(0, -1).map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows.map((r) => r.map((cell, i) => (i < widths.length ? cell.padEnd(widths[i]!) : cell)).join('  ')).join('\n')}\n`;
}

async function withFailure(
  options: GlobalOptions,
  body: () => Promise<void>,
  out: CommandOutput = processOutput,
): Promise<number> {
  try {
    await body();
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json: options.output !== 'text', out });
  }
}

export function sessionsListCommand(
  options: GlobalOptions,
  out: CommandOutput = processOutput,
): Promise<number> {
  return withFailure(
    options,
    async () => {
      const sessions = await listSessions(await workspaceSessions(options));
      if (options.output !== 'text') out.print(`${JSON.stringify(sessions, null, 2)}\n`);
      else if (sessions.length === 0) out.notice('no sessions in this workspace yet\n');
      else out.print(formatList(sessions));
    },
    out,
  );
}

async function load(id: string, options: GlobalOptions) {
  const dir = await workspaceSessions(options);
  const found = await findSession(dir, id);
  const record = await readSession(sessionPath(dir, found));
  if (!record) throw new SessionError(`session ${found} cannot be read`);
  return { dir, id: found, record };
}

export function sessionsShowCommand(id: string, options: GlobalOptions): Promise<number> {
  return withFailure(options, async () => {
    const { record } = await load(id, options);
    // Markdown rendering (marked) loads only for show and export, not for list.
    const { exportSession, toMarkdown } = await import('../session/export.js');
    process.stdout.write(
      options.output === 'text' ? sanitize(toMarkdown(record)) : exportSession(record, 'json'),
    );
  });
}

export function sessionsExportCommand(
  id: string,
  options: GlobalOptions & { format: ExportFormat; out?: string },
): Promise<number> {
  return withFailure(options, async () => {
    const { record } = await load(id, options);
    const { exportSession } = await import('../session/export.js');
    const text = exportSession(record, options.format);
    if (options.out === undefined) process.stdout.write(text);
    else {
      await writeFile(resolve(options.out), text, { mode: 0o600 });
      process.stderr.write(`wrote ${resolve(options.out)}\n`);
    }
  });
}

export function sessionsRmCommand(id: string, options: GlobalOptions): Promise<number> {
  return withFailure(options, async () => {
    const { dir, id: found } = await load(id, options);
    const file = sessionPath(dir, found);
    await rm(file);
    await rm(sidecarOf(file), { force: true });
    await removeSessionImages(file);
    await clearMarker(file);
    process.stderr.write(`removed session ${found}\n`);
  });
}
