// The command runner: each command in its own process group with its markers (process-tree.ts), a timeout,
// capped output, background commands by id, and a kill that reaches every process a command started. Runs bash
// directly, or through a launcher (the sandbox). Tracks live commands so Keel can kill them all when it exits,
// and a watchdog kills them if Keel dies without exiting (kill -9).
import { randomBytes } from 'node:crypto';
import type {
  BackgroundCommand,
  BackgroundRequest,
  BackgroundStatus,
  CommandOutcome,
  CommandRequest,
  CommandRunner,
} from '../core/runner.js';
import { bashLauncher, CommandProcess, type Launcher } from './command-process.js';
import { HeadTailBuffer, TailBuffer } from './output-buffers.js';
import { killTree, markerLink, startTimeOf } from './process-tree.js';
import { startWatchdog, type Watchdog } from './watchdog.js';

export { commandEnv } from './command-env.js';

/** Background commands running at once, at most: each holds processes and buffers until killed. */
export const MAX_BACKGROUND = 8;

/** Runs commands with `env` (already reduced to the allowlist by the caller, see commandEnv). */
export function createProcessRunner(env: NodeJS.ProcessEnv, launch: Launcher = bashLauncher): CommandRunner {
  // Every command's marker starts with this run's random id, so killAll finds them all and nothing else. Made with
  // the first command: node:crypto is not loaded before a run's first model request.
  let id: string | undefined;
  const runId = () => (id ??= randomBytes(6).toString('hex'));
  // Everything a command of this runner starts is younger than Keel itself.
  const startedAt = startTimeOf(process.pid);
  let count = 0;
  // Started with the first command: a run that runs none never pays for it.
  let watchdog: Watchdog | undefined | null = null;
  const live = new Set<CommandProcess>();
  const background = new Map<string, Background>();

  const spawnCommand = (
    command: string,
    cwd: string,
    onOutput: (stream: 'stdout' | 'stderr', chunk: Buffer) => void,
    argv?: readonly string[],
    gitWrites?: boolean,
    readable?: readonly string[],
  ): CommandProcess => {
    count += 1;
    const proc = new CommandProcess(
      launch(command, cwd, argv, gitWrites, readable),
      { cwd, env, marker: `${runId()}-${count}` },
      onOutput,
    );
    live.add(proc);
    if (watchdog === null) watchdog = startWatchdog(`${runId()}-`, markerLink(`${runId()}-`));
    const group = proc.pid;
    if (group !== undefined) watchdog?.watch(group);
    void proc.ended.then(() => {
      live.delete(proc);
      if (group !== undefined) watchdog?.unwatch(group);
    });
    return proc;
  };

  return {
    run: (request) => runCommand(request, spawnCommand),
    start(request) {
      const running = [...background.values()].filter((b) => !b.exited);
      if (running.length >= MAX_BACKGROUND) {
        throw new Error(
          `${MAX_BACKGROUND} background commands are already running (${running.map((b) => b.id).join(', ')}); kill one first`,
        );
      }
      const id = `bg${background.size + 1}`;
      const command = new Background(id, request, spawnCommand);
      background.set(id, command);
      return command;
    },
    background: (id) => background.get(id),
    running: () => [...background.values()].filter((b) => !b.exited),
    killAll() {
      let killed = 0;
      for (const proc of live) killed += proc.sweep();
      live.clear();
      // A run that started no command has nothing marked to find: the scan of every process is skipped.
      if (count === 0) return killed;
      // Anything marked by this run that escaped its command's tracking.
      const fdLink = markerLink(`${runId()}-`);
      killed += killTree({
        marker: `${runId()}-`,
        prefix: true,
        since: startedAt,
        ...(fdLink ? { fdLink } : {}),
      }).killed;
      return killed;
    },
  };
}

type SpawnCommand = (
  command: string,
  cwd: string,
  onOutput: (stream: 'stdout' | 'stderr', chunk: Buffer) => void,
  argv?: readonly string[],
  gitWrites?: boolean,
  readable?: readonly string[],
) => CommandProcess;

async function runCommand(request: CommandRequest, spawnCommand: SpawnCommand): Promise<CommandOutcome> {
  const stdout = new HeadTailBuffer(request.maxStdoutBytes);
  const stderr = new HeadTailBuffer(request.maxStderrBytes);
  const proc = spawnCommand(
    request.command,
    request.cwd,
    (stream, chunk) => (stream === 'stdout' ? stdout : stderr).push(chunk),
    request.argv,
    request.gitWrites,
    request.readable,
  );
  let stopped: CommandOutcome['stopped'];
  const stop = (reason: NonNullable<CommandOutcome['stopped']>): void => {
    if (stopped) return;
    stopped = reason;
    proc.stop();
  };
  const onAbort = (): void => stop('aborted');
  request.signal.addEventListener('abort', onAbort, { once: true });
  if (request.signal.aborted) onAbort();
  const timer = setTimeout(() => stop('timeout'), request.timeoutMs);
  const ended = await proc.ended;
  clearTimeout(timer);
  request.signal.removeEventListener('abort', onAbort);
  if (ended instanceof Error) throw new Error(`could not start the command: ${ended.message}`);
  return {
    exitCode: ended.code,
    signal: ended.signal,
    stdout: stdout.result(),
    stderr: stderr.result(),
    leftovers: { ...proc.leftovers },
    ...(stopped ? { stopped } : {}),
  };
}

/** A command running in the background: unread output in bounded buffers, status, kill. */
class Background implements BackgroundCommand {
  readonly command: string;
  exited = false;
  private status: BackgroundStatus = { state: 'running' };
  private readonly stdout: TailBuffer;
  private readonly stderr: TailBuffer;
  private readonly proc: CommandProcess;
  private killed = false;
  private startError: string | undefined;

  constructor(
    readonly id: string,
    request: BackgroundRequest,
    spawnCommand: SpawnCommand,
  ) {
    this.command = request.command;
    this.stdout = new TailBuffer(request.maxStdoutBytes);
    this.stderr = new TailBuffer(request.maxStderrBytes);
    this.proc = spawnCommand(request.command, request.cwd, (stream, chunk) =>
      (stream === 'stdout' ? this.stdout : this.stderr).push(chunk),
    );
    void this.proc.ended.then((ended) => {
      this.exited = true;
      if (ended instanceof Error) this.startError = ended.message;
      this.status = {
        state: 'exited',
        exitCode: ended instanceof Error ? 127 : ended.code,
        signal: ended instanceof Error ? null : ended.signal,
        killed: this.killed,
        leftovers: { ...this.proc.leftovers },
      };
    });
  }

  read() {
    const stderr = this.stderr.take();
    if (this.startError) stderr.text += `could not start: ${this.startError}\n`;
    this.startError = undefined;
    return { stdout: this.stdout.take(), stderr, status: this.status };
  }

  async settle(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.proc.ended, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  async kill(): Promise<BackgroundStatus> {
    if (!this.exited) {
      this.killed = true;
      this.proc.stop();
    }
    // The constructor's handler on the same promise, registered first, has set the final status by then.
    await this.proc.ended;
    return this.status;
  }
}
