// `keel acp`: Keel as an Agent Client Protocol agent on stdio, for editors (Zed, JetBrains, Neovim). The
// protocol is src/acp/; this file wires it to the command line's flags and the run assembly. stdout carries the
// protocol only: anything else written there goes to stderr instead.
import { Readable } from 'node:stream';
import { serveAcp } from '../acp/agent.js';
import { type OpenRequest, sessionRequestOf } from '../acp/session.js';
import { ExitCode } from '../core/errors.js';
import { credentialEnvVar, isCredentialProvider, resolveCredential } from '../providers/credentials.js';
import { assembleRun, type Run } from '../runtime/assemble.js';
import { redactingSink } from '../safety/redact-stream.js';
import { clearMarkerSync } from '../session/marker.js';
import type { GlobalOptions } from './global-options.js';
import { type ModeFlags, resolveMode } from './mode-options.js';
import { reportFailure } from './report.js';
import { loadConfigFor, runSource } from './run-options.js';

declare const KEEL_VERSION: string;
const version = typeof KEEL_VERSION === 'string' ? KEEL_VERSION : '0.0.0-dev';

export type AcpOptions = GlobalOptions & ModeFlags & { sandbox?: boolean };

/** stdout for the protocol alone: the protocol's writer keeps the real one, every other writer gets stderr's. */
function claimStdout(): WritableStream<Uint8Array> {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  return new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        write(chunk, (error) => (error ? reject(error) : resolve()));
      }),
  });
}

/**
 * The editor stops its agent with a signal: every session's commands are killed (nothing orphaned) and its active
 * marker cleared (not reported as a crash), then Keel exits. Returns a function that removes the handlers.
 */
function endOnSignals(runs: ReadonlySet<Run>): () => void {
  const handlers = (['SIGTERM', 'SIGHUP', 'SIGINT'] as const).map((name) => {
    const handler = () => {
      for (const run of runs) {
        run.runner.killAll();
        if (run.session) clearMarkerSync(run.session.file);
      }
      process.exit(128 + (name === 'SIGINT' ? 2 : name === 'SIGTERM' ? 15 : 1));
    };
    process.on(name, handler);
    return () => process.off(name, handler);
  });
  return () => {
    for (const off of handlers) off();
  };
}

export async function acpCommand(options: AcpOptions): Promise<number> {
  try {
    const env = process.env;
    // Bad config fails here, once, before any editor session: one message and its exit code.
    const loaded = await loadConfigFor(options);
    const provider = loaded.config.provider.type;
    const missingCredential = async () => {
      if (!isCredentialProvider(provider) || (await resolveCredential(provider, env))) return undefined;
      return { provider, envVar: credentialEnvVar[provider] };
    };
    // Every run started, so a signal can end their commands (their process groups) before Keel exits.
    const runs = new Set<Run>();
    const open = async (request: OpenRequest) => {
      const run = await assembleRun({
        ...runSource(options),
        cwd: request.cwd,
        mode: (config) => request.mode ?? resolveMode(options, config.config, 'interactive'),
        allow: options.allow,
        sandbox: options.sandbox,
        approve: request.approve,
        ...(request.approvals ? { approvals: request.approvals } : {}),
        ...(request.files ? { files: request.files } : {}),
        ...(request.terminal ? { terminal: request.terminal } : {}),
        ...(request.mcpServers ? { mcpServers: request.mcpServers } : {}),
        session: sessionRequestOf(request),
        // Like every machine-readable output, the editor gets events through the run's redactor.
        outputs: (_model, redact) => redactingSink(request.sink, redact),
        env,
      });
      runs.add(run);
      return run;
    };
    const offSignals = endOnSignals(runs);
    const output = claimStdout();
    const host = {
      version,
      open,
      missingCredential,
      log: (message: string) => void process.stderr.write(`keel acp: ${message}\n`),
    };
    await serveAcp(host, output, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
    offSignals();
    return ExitCode.ok;
  } catch (error) {
    // Nothing but the protocol on stdout, failures included.
    const toStderr = (text: string) => void process.stderr.write(text);
    return reportFailure(error, { debug: options.debug, out: { print: toStderr, notice: toStderr } });
  }
}
