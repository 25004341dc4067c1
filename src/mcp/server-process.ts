// A stdio MCP server's process, in a process group of its own, started without the MCP SDK: a run spawns its
// servers at launch, before the SDK has loaded, so they boot while Keel does; the transport (stdio-transport.ts)
// adopts the process once the client exists. Ctrl-C at the terminal does not reach the group, and ending it is one
// signal to the whole group (npx and the server it starts).
import { type ChildProcess, spawn } from 'node:child_process';
import { isAbsolute, resolve } from 'node:path';
import type { McpServerConfig } from '../config/mcp-schema.js';
import { expandAll } from './config.js';

/** How long a server may take to go after SIGTERM before it gets SIGKILL. */
export const KILL_GRACE_MS = 2000;

/**
 * The variables a server inherits from Keel's environment, besides its own `env`: the MCP SDK's
 * DEFAULT_INHERITED_ENV_VARS (a test keeps them equal), so Keel's API keys are not passed.
 */
const INHERITED =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'PROGRAMFILES',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/** As the SDK's getDefaultEnvironment: the inherited variables that are set, shell functions left out. */
export function inheritedEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const key of INHERITED) {
    const value = env[key];
    if (value !== undefined && !value.startsWith('()')) kept[key] = value;
  }
  return kept;
}

export interface StdioServer {
  command: string;
  args: string[];
  /** Its whole environment: the run's inherited variables (HOME, PATH, ...) and its own config's. */
  env: Record<string, string>;
  cwd: string;
}

/**
 * A stdio server's command line, its env with `${VAR}` filled from Keel's environment (throws naming a variable
 * that is not set), and its directory: the workspace, or its `cwd` (a relative one resolved against the workspace).
 */
export function stdioServer(
  name: string,
  config: McpServerConfig,
  env: NodeJS.ProcessEnv,
  workspace: string,
): StdioServer {
  const cwd =
    config.cwd === undefined
      ? workspace
      : isAbsolute(config.cwd)
        ? config.cwd
        : resolve(workspace, config.cwd);
  return {
    command: config.command ?? '',
    args: config.args,
    // Inherited from the run's environment (the library's env option), not this process's.
    env: { ...inheritedEnvironment(env), ...expandAll(config.env, env, `mcp.servers.${name}.env`) },
    cwd,
  };
}

export class ServerProcess {
  readonly child: ChildProcess;
  /** The group's id (its leader's pid), kept after the end so an exit handler can still end what ignored SIGTERM. */
  private readonly group?: number;
  exited = false;
  /** How the process ended, once it has: `exit code 3`, `signal SIGKILL`. */
  exitStatus?: string;
  /** The server's pipes have closed (it exited, or they were closed by Keel). */
  closed = false;
  /** Keel ended it (end()). */
  private ended = false;
  /** Resolves once the process is running; rejects when it could not be started. */
  readonly spawned: Promise<void>;
  /** Resolves when the process has exited (at once when it never started). */
  readonly gone: Promise<void>;
  /** The end of what the server wrote to stderr (piped, never inherited: it must not break the terminal or JSON output). */
  private stderr = '';

  constructor(server: StdioServer) {
    this.child = spawn(server.command, server.args, {
      env: server.env,
      cwd: server.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.group = this.child.pid;
    let onGone = () => {};
    this.gone = new Promise((resolve) => {
      onGone = resolve;
    });
    this.spawned = new Promise((resolve, reject) => {
      this.child.once('spawn', () => resolve());
      this.child.once('error', (error) => {
        this.exited = true;
        onGone();
        reject(error);
      });
    });
    // A failed spawn is read by whoever adopts the process; until then it must not be an unhandled rejection.
    this.spawned.catch(() => {});
    this.child.once('exit', (code, signal) => {
      this.exited = true;
      this.exitStatus = signal ? `signal ${signal}` : `exit code ${code ?? 0}`;
      onGone();
    });
    this.child.once('close', () => {
      this.closed = true;
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4096);
    });
  }

  /** The last 4 KB the server wrote to stderr: why it failed, more often than not. */
  stderrTail(): string {
    return this.stderr;
  }

  get pid(): number | null {
    return this.closed ? null : (this.child.pid ?? null);
  }

  /** Ends the server at once: SIGTERM to its group and its pipes closed; nothing awaited, nothing holds Keel's exit. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.signal('SIGTERM');
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) stream?.destroy();
    this.child.unref();
    // A host that outlives its runs (the library API, an editor) must not keep a server that ignores SIGTERM: it
    // gets SIGKILL after a grace period. The timer is unref'd, so a CLI run still exits at once (killAtExit).
    if (!this.exited) setTimeout(() => this.killAtExit(), KILL_GRACE_MS).unref();
  }

  /** Synchronous, for process exit: SIGKILL to the group unless its leader is known to have gone. */
  killAtExit(): void {
    if (!this.exited) this.signal('SIGKILL');
  }

  /** The whole group (npx and the server it started). */
  signal(signal: NodeJS.Signals): void {
    if (this.group === undefined) return;
    try {
      process.kill(-this.group, signal);
    } catch {
      // The group is gone already; its leader alone, if it somehow is not.
      if (!this.exited) this.child.kill(signal);
    }
  }
}
