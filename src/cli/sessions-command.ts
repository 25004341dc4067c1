// `keel sessions list | show <id> | export <id> --format md|html|json | rm <id>`: the saved sessions of a workspace.
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ExitCode } from '../core/errors.js';
import type { ExportFormat } from '../session/export.js';
import { exportFormatOf, writeExport } from '../session/export-file.js';
import { clearMarker } from '../session/marker.js';
import { findSession, readSession, SessionError, sessionPath } from '../session/session-file.js';
import { removeSessionImages } from '../session/session-images.js';
import { sidecarOf } from '../session/session-list.js';
import { listSessions } from '../session/session-sidecar.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { sanitize } from '../ui/sanitize.js';
import { outputClosed } from './closed-output.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure } from './report.js';
import { printList, workspaceSessions } from './sessions-list.js';

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
      printList(await listSessions(await workspaceSessions(options.cwd)), options.output, out);
    },
    out,
  );
}

async function load(id: string, options: GlobalOptions) {
  const dir = await workspaceSessions(options.cwd);
  const found = await findSession(dir, id);
  const record = await readSession(sessionPath(dir, found));
  if (!record) throw unreadable(found);
  return { dir, id: found, record };
}

const unreadable = (id: string) =>
  new SessionError(
    `session ${id} cannot be read`,
    `it holds no session record (cut short or not a session); keel sessions rm ${id} removes it`,
  );

/** Stdout as a session stream writes to it: each piece taken before the next is read (a slow pipe holds one). */
const stdoutWrite =
  (transform: (text: string) => string = (text) => text) =>
  (text: string) =>
    // A closed reader is watchClosedOutput's to handle (the writes go nowhere, and the stream stops at the signal).
    new Promise<void>((done) => process.stdout.write(transform(text), () => done()));

/**
 * Writes session `id` to stdout as Markdown or JSON as it reads the file, never the whole of it in memory (an 87 MB
 * session took 660 MB read at once).
 */
async function streamSession(id: string, options: GlobalOptions, format: 'md' | 'json', sanitized: boolean) {
  const dir = await workspaceSessions(options.cwd);
  const found = await findSession(dir, id);
  const file = sessionPath(dir, found);
  // The exporters (marked) load only for show and export, not for list.
  const { scanSession, writeJson, writeMarkdown } = await import('../session/session-stream.js');
  const scan = await scanSession(file);
  if (!scan) throw unreadable(found);
  const write = stdoutWrite(sanitized ? sanitize : undefined);
  if (format === 'md') await writeMarkdown(file, scan, write, outputClosed);
  else await writeJson(file, scan, write, outputClosed);
}

export function sessionsShowCommand(id: string, options: GlobalOptions): Promise<number> {
  return withFailure(options, () =>
    options.output === 'text'
      ? streamSession(id, options, 'md', true)
      : streamSession(id, options, 'json', false),
  );
}

export function sessionsExportCommand(
  id: string,
  options: GlobalOptions & { format?: ExportFormat; out?: string },
): Promise<number> {
  return withFailure(options, async () => {
    // `--out session.html` asks for HTML as /save does; Markdown when neither says.
    const format =
      options.format ?? (options.out === undefined ? undefined : exportFormatOf(options.out)) ?? 'md';
    if (options.out === undefined && format !== 'html') return streamSession(id, options, format, false);
    const { record } = await load(id, options);
    const { exportSession } = await import('../session/export.js');
    const text = exportSession(record, format);
    if (options.out === undefined) process.stdout.write(text);
    else {
      await writeExport(resolve(options.out), text);
      process.stderr.write(`wrote ${resolve(options.out)}\n`);
    }
  });
}

export function sessionsRmCommand(id: string, options: GlobalOptions): Promise<number> {
  return withFailure(options, async () => {
    // Not read first: a session cut short before its first record, or damaged, can be removed too.
    const dir = await workspaceSessions(options.cwd);
    const found = await findSession(dir, id);
    const file = sessionPath(dir, found);
    await rm(file);
    await rm(sidecarOf(file), { force: true });
    await removeSessionImages(file);
    await clearMarker(file);
    process.stderr.write(`removed session ${found}\n`);
  });
}
