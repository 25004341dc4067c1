// The editor's terminals (ACP `terminal/*`) as Keel's CommandRunner, for a client that offers them: the user sees
// each command run in the editor. Used only where Keel would run commands outside its sandbox anyway (the run
// assembly decides): the policy has judged every command before it gets here, as with the process runner.
import { type AgentContext, methods } from '@agentclientprotocol/sdk';
import type {
  BackgroundCommand,
  BackgroundRequest,
  BackgroundStatus,
  CapturedOutput,
  CommandOutcome,
  CommandRequest,
  CommandRunner,
} from '../core/runner.js';

const NONE: CommandOutcome['leftovers'] = { killed: 0, survived: 0 };

/** How often a background command's output is fetched from the editor. */
const POLL_MS = 300;

/** The editor keeps one stream per terminal: Keel reports it as stdout, cut to the bigger of the two caps. */
const combinedCap = (request: { maxStdoutBytes: number; maxStderrBytes: number }) =>
  Math.max(request.maxStdoutBytes, request.maxStderrBytes);

/** `bash -c <command>`, or the program and its arguments as given (config-defined tools). */
function invocation(request: { command: string; argv?: readonly string[] }) {
  const argv = 'argv' in request && request.argv ? request.argv : undefined;
  return argv && argv.length > 0
    ? { command: argv[0]!, args: argv.slice(1) }
    : { command: 'bash', args: ['-c', request.command] };
}

export function clientTerminalRunner(client: AgentContext, sessionId: () => string): CommandRunner {
  const live = new Set<string>();
  const background = new Map<string, { command: BackgroundCommand; status: () => BackgroundStatus }>();

  const create = async (request: CommandRequest | BackgroundRequest, signal?: AbortSignal) => {
    const { terminalId } = await client.request(
      methods.client.terminal.create,
      {
        sessionId: sessionId(),
        ...invocation(request),
        cwd: request.cwd,
        outputByteLimit: combinedCap(request),
      },
      signal ? { cancellationSignal: signal } : undefined,
    );
    live.add(terminalId);
    return terminalId;
  };
  const output = (terminalId: string) =>
    client.request(methods.client.terminal.output, { sessionId: sessionId(), terminalId });
  const kill = (terminalId: string) =>
    client
      .request(methods.client.terminal.kill, { sessionId: sessionId(), terminalId })
      .catch(() => undefined);
  const release = (terminalId: string) => {
    live.delete(terminalId);
    return client
      .request(methods.client.terminal.release, { sessionId: sessionId(), terminalId })
      .catch(() => undefined);
  };

  const runner: CommandRunner = {
    async run(request) {
      const terminalId = await create(request, request.signal);
      let stopped: CommandOutcome['stopped'];
      const timer = setTimeout(() => {
        stopped = 'timeout';
        void kill(terminalId);
      }, request.timeoutMs);
      const onAbort = () => {
        stopped ??= 'aborted';
        void kill(terminalId);
      };
      request.signal.addEventListener('abort', onAbort, { once: true });
      try {
        const exit = await client.request(methods.client.terminal.waitForExit, {
          sessionId: sessionId(),
          terminalId,
        });
        const shown = await output(terminalId);
        // The editor says only that it cut the start, not how much: said as such, never as a byte count.
        const cut = shown.truncated
          ? `[the editor's terminal kept only the last ${combinedCap(request)} bytes]\n`
          : '';
        const stdout: CapturedOutput = { text: cut + shown.output, dropped: 0 };
        return {
          exitCode: exit.exitCode ?? null,
          signal: exit.signal ?? null,
          stdout,
          stderr: { text: '', dropped: 0 },
          ...(stopped ? { stopped } : {}),
          leftovers: NONE,
        };
      } finally {
        clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
        await release(terminalId);
      }
    },

    start(request) {
      const id = `bg${background.size + 1}`;
      const terminal = create(request);
      let seen = 0;
      let status: BackgroundStatus = { state: 'running' };
      let killed = false;
      let unread = '';
      /** Takes what the editor's terminal holds beyond what was already taken (it returns all it kept). */
      const take = async (terminalId: string) => {
        const shown = await output(terminalId);
        unread += shown.output.length >= seen ? shown.output.slice(seen) : shown.output;
        seen = shown.output.length;
      };
      // The output is fetched as it comes, so a read (synchronous) gives what arrived up to a moment ago.
      const poller = setInterval(() => {
        void terminal.then(take).catch(() => {});
      }, POLL_MS);
      poller.unref();
      const exited = terminal
        .then((terminalId) =>
          client
            .request(methods.client.terminal.waitForExit, { sessionId: sessionId(), terminalId })
            .then(async (exit) => {
              await take(terminalId).catch(() => {});
              status = {
                state: 'exited',
                exitCode: exit.exitCode ?? null,
                signal: exit.signal ?? null,
                killed,
                leftovers: NONE,
              };
              await release(terminalId);
            }),
        )
        .catch(() => {
          status = { state: 'exited', exitCode: null, signal: null, killed, leftovers: NONE };
        })
        .finally(() => clearInterval(poller));
      const command: BackgroundCommand = {
        id,
        command: request.command,
        read() {
          const read = { stdout: { text: unread, dropped: 0 }, stderr: { text: '', dropped: 0 }, status };
          unread = '';
          return read;
        },
        async settle(ms) {
          await Promise.race([exited, new Promise((r) => setTimeout(r, ms).unref())]);
          if (status.state === 'running') await take(await terminal).catch(() => {});
        },
        async kill() {
          killed = true;
          await kill(await terminal);
          await exited;
          return status;
        },
      };
      background.set(id, { command, status: () => status });
      return command;
    },

    background: (id) => background.get(id)?.command,
    running: () =>
      [...background.values()].filter((b) => b.status().state === 'running').map((b) => b.command),

    killAll() {
      const count = live.size;
      for (const terminalId of [...live]) void kill(terminalId).then(() => release(terminalId));
      return count;
    },
  };
  return runner;
}
