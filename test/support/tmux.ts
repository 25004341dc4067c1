// Drives the built keel in a real terminal: a private tmux server (its own socket, no user config) running one
// pane of a fixed size; keys go in with send-keys, the screen comes back with capture-pane (-e keeps the colours).
// Reads go through one tmux client in control mode, not a tmux process each: waiting for a screen re-reads it when
// tmux says the pane printed something, where polling started a process every 100 ms.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { keelBin } from './cli.js';

const run = promisify(execFile);

export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A tmux client in control mode (-C): commands in on stdin, each answered by a %begin … %end block. */
interface Control {
  /** The output lines of a command (one with no quotes or spaces in its words but those given here). */
  command(line: string): Promise<string[]>;
  /** Resolves at the pane's next output, or after `ms`. */
  nextOutput(ms: number): Promise<void>;
  close(): void;
}

function controlClient(socket: string, env: Record<string, string>): Control {
  const child: ChildProcess = spawn('tmux', ['-S', socket, '-f', '/dev/null', '-C', 'attach-session'], {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const pending: { resolve: (lines: string[]) => void; reject: (error: Error) => void }[] = [];
  let block: { lines: string[]; ours: boolean } | undefined;
  let waiters: (() => void)[] = [];
  let rest = '';
  const fail = (error: Error) => {
    for (const p of pending.splice(0)) p.reject(error);
  };
  child.on('error', fail);
  child.on('close', () => fail(new Error('the tmux control client ended')));
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    rest += chunk;
    for (let nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n')) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (block) {
        const end = /^%(end|error) \d+ \d+ \d+$/.exec(line);
        if (!end) {
          block.lines.push(line);
          continue;
        }
        // Flags 1: a command this client sent (the attach's own block has 0).
        const done = block;
        block = undefined;
        if (!done.ours) continue;
        const p = pending.shift();
        if (end[1] === 'end') p?.resolve(done.lines);
        else p?.reject(new Error(`tmux: ${done.lines.join('\n')}`));
      } else if (line.startsWith('%begin ')) {
        block = { lines: [], ours: line.endsWith(' 1') };
      } else if (line.startsWith('%output ')) {
        for (const wake of waiters.splice(0)) wake();
      }
    }
  });
  return {
    command: (line) =>
      new Promise((resolve, reject) => {
        pending.push({ resolve, reject });
        child.stdin?.write(`${line}\n`);
      }),
    nextOutput: (ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
    close: () => {
      waiters = [];
      child.stdin?.end();
      child.kill();
    },
  };
}

export interface Terminal {
  /** The temp HOME of this keel (config, state, data under it). */
  home: string;
  /** tmux key names or literal text: send('hello', 'Enter'), send('C-c'). */
  keys(...keys: string[]): Promise<void>;
  /** Literal text, no key names. */
  type(text: string): Promise<void>;
  /** Text pasted as the terminal pastes it (bracketed when the program asked for that). */
  paste(text: string): Promise<void>;
  /** The screen plus scrollback; `escapes` keeps the colour and style sequences. */
  screen(escapes?: boolean): Promise<string>;
  /** Waits until the screen satisfies `test` (a string it contains, or a predicate); fails after the deadline. */
  waitFor(
    test: string | ((screen: string) => boolean),
    options?: { escapes?: boolean; timeoutMs?: number },
  ): Promise<string>;
  /** With `held`: starts keel (until then the pane's shell waits; what is typed waits in the terminal's buffer). */
  release(): Promise<void>;
  /** Whether keel has exited (the pane stays, dead, to be read). */
  exited(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Starts `keel ...args` in a 100×30 terminal with a temp HOME; colour on (no NO_COLOR). `exitStatus`: the shell that
 * starts keel prints `keel exited with <code>` when it ends (tmux itself may never learn a process's status).
 * `held`: keel starts only at `release()`, so keys typed before it are type-ahead however slow tmux is under load.
 */
export async function startTerminal(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; exitStatus?: boolean; held?: boolean },
): Promise<Terminal> {
  const home = await mkdtemp(join(tmpdir(), 'keel-tty-'));
  const socket = join(home, 'tmux.sock');
  await mkdir(join(home, '.config'), { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    KEEL_KEYRING: 'off',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    ...options.env,
  };
  const tmux = (...argv: string[]) => run('tmux', ['-S', socket, '-f', '/dev/null', ...argv], { env });
  const quoted = [process.execPath, keelBin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const started = options.exitStatus ? `${quoted}; echo "keel exited with $?"` : `exec ${quoted}`;
  // The shell reads nothing while it waits, so typed lines stay in the terminal's input buffer for keel.
  const go = join(home, 'go');
  const command = options.held ? `while [ ! -e '${go}' ]; do sleep 0.02; done; ${started}` : started;
  await tmux('new-session', '-d', '-x', '100', '-y', '30', '-c', options.cwd, command);
  await tmux('set-option', '-g', 'remain-on-exit', 'on');
  await tmux('set-option', '-g', 'history-limit', '5000');
  const control = controlClient(socket, env);
  const screen = async (escapes = false) =>
    `${(await control.command(`capture-pane -p -J -S -${escapes ? ' -e' : ''}`)).join('\n')}\n`;
  return {
    home,
    keys: async (...keys) => void (await tmux('send-keys', ...keys)),
    type: async (text) => void (await tmux('send-keys', '-l', text)),
    paste: async (text) => {
      await tmux('set-buffer', text);
      await tmux('paste-buffer', '-p');
    },
    screen,
    async waitFor(test, { escapes = false, timeoutMs = 15_000 } = {}) {
      const matches = typeof test === 'string' ? (s: string) => s.includes(test) : test;
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        // Armed before the read, so output printed while it runs is not missed.
        const changed = control.nextOutput(1000);
        last = await screen(escapes);
        if (matches(last)) return last;
        if (Date.now() > deadline)
          throw new Error(
            `terminal never showed ${typeof test === 'string' ? JSON.stringify(test) : 'the expected screen'}; it shows:\n${last}`,
          );
        await changed;
      }
    },
    release: () => writeFile(go, ''),
    exited: async () => (await control.command("display-message -p '#{pane_dead}'"))[0]?.trim() === '1',
    async close() {
      control.close();
      await tmux('kill-server').catch(() => {});
      // A git process the killed chat started (its checkpoint store) may still be writing there.
      await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
}
