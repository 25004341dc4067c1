// Reads lines from a stream one at a time, for the REPL and its approval questions alike. On a terminal it also
// offers Tab completion, a history, and keeps a bracketed paste of several lines together as one. Keys typed while
// no prompt is up (a turn runs) edit the line and queue lines unseen: the turn owns the screen until the next prompt.
import { createInterface, type Interface } from 'node:readline';
import { type Completer, gated, queuedCompleter } from './line-reader-io.js';

/** Tab completion: the candidates for the line so far, and the part of the line they replace. */
export type { Completer } from './line-reader-io.js';

export interface LineReaderOptions {
  completer?: Completer;
  /** Earlier input, newest first (up/down recall it). */
  history?: string[];
}

/** Terminal modes: the terminal wraps pasted text in ESC[200~ … ESC[201~ while this is on. */
const PASTE_ON = '\x1b[?2004h';
const PASTE_OFF = '\x1b[?2004l';

export class LineReader {
  private readonly rl: Interface;
  private readonly queue: string[] = [];
  private waiting: ((line: string | null) => void) | undefined;
  private closed = false;
  /** Inside a bracketed paste: its lines are held and sent with the line that ends it. */
  private pasting = false;
  private pasted: string[] = [];
  private pasteMode = false;
  /** Set by Shift+Tab (ESC [ Z) until readline's own handling of it, which would complete the line, is skipped. */
  private shiftTab = false;
  private shiftTabHandler: (() => void) | undefined;
  /** The Tab completion under way: a Tab typed before it ends completes the line as it leaves it. */
  /** Text to put in the input line at the next prompt (a message taken back by /rewind). */
  private initial: string | undefined;
  /** What Esc Esc at an empty message prompt submits, and when the last lone Esc came. */
  private doubleEscape: string | undefined;
  private lastEscape = 0;
  private atMessagePrompt = false;
  /** What Esc does anywhere but the message prompt (a turn runs, a question waits): the chat's interrupt. */
  private escapeWhileBusy: (() => void) | undefined;
  /** Inside interject's write: text written there goes straight out, the prompt is drawn again once, after it. */
  private interjecting = false;
  /**
   * One of our prompts is up, waiting for its line: only then does readline's echo and redrawing of the line reach
   * the terminal. Between prompts the chat's turn writes (its answer, tool lines, the spinner); keys echoed among
   * them would land inside that output, leave the spinner's frames behind, and make readline's next redraw move
   * up over lines it no longer owns.
   */
  private prompting = false;
  private readonly pasteOff = () => {
    if (this.pasteMode) this.output.write(PASTE_OFF);
    this.pasteMode = false;
  };

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly interactive: boolean,
    options: LineReaderOptions = {},
  ) {
    const { completer } = options;
    this.rl = createInterface({
      input,
      output: interactive ? gated(output, () => this.prompting) : undefined,
      terminal: interactive,
      ...(interactive && options.history ? { history: options.history, historySize: 1000 } : {}),
      ...(interactive ? { removeHistoryDuplicates: true } : {}),
      ...(interactive && completer
        ? {
            completer: queuedCompleter(
              completer,
              () => this.rl.line.slice(0, this.rl.cursor),
              // Readline takes Shift+Tab for Tab: no completion for it.
              () => {
                const skip = this.shiftTab;
                this.shiftTab = false;
                return skip;
              },
            ),
          }
        : {}),
    });
    if (interactive) {
      // Before readline's listener: Shift+Tab is noted first, so the completer above can skip it.
      input.prependListener(
        'keypress',
        (_text: string | undefined, key: { name?: string; shift?: boolean }) => {
          if (key?.name !== 'tab') return;
          // Readline takes keys read together for a paste and inserts their Tabs as text; a real paste comes
          // bracketed here, so a Tab outside one was typed (Tab Tab, or keys typed ahead of a busy moment) and
          // completes, as in GNU readline.
          (this.rl as unknown as { isCompletionEnabled: boolean }).isCompletionEnabled = !this.pasting;
          if (!key.shift) return;
          this.shiftTab = completer !== undefined;
          this.shiftTabHandler?.();
        },
      );
      // Pasted lines stay one message: readline still gives each line, held here until the paste ends.
      input.on('keypress', (_text: string | undefined, key: { name?: string } | undefined) => {
        if (key?.name === 'paste-start') this.pasting = true;
        if (key?.name === 'paste-end') this.pasting = false;
        if (key?.name === 'escape') this.escape((key as { meta?: boolean }).meta === true);
      });
      // The terminal went away (its window closed): reading it or switching its raw mode fails with EIO, which
      // readline passes on as its own error. That is the end of input, as Ctrl-D is, not an error to crash on.
      let gone = false;
      this.rl.on('error', () => {
        if (gone || this.closed) return;
        gone = true;
        this.rl.close();
      });
      output.write(PASTE_ON);
      this.pasteMode = true;
      // However Keel exits, the terminal is not left wrapping pastes for the shell.
      process.once('exit', this.pasteOff);
    }
    this.rl.on('line', (typed) => {
      if (this.pasting) {
        this.pasted.push(typed);
        if (this.prompting) this.showPrompt('… ');
        return;
      }
      const line = this.pasted.length > 0 ? [...this.pasted, typed].join('\n') : typed;
      this.pasted = [];
      // Readline has ended the prompt's line; what comes next is the chat's until the next prompt.
      this.prompting = false;
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(line);
      } else this.queue.push(line);
    });
    this.rl.on('close', () => {
      this.closed = true;
      this.waiting?.(null);
      this.waiting = undefined;
    });
  }

  /**
   * The user's next message: a line, a pasted block, or lines joined while each ends with a backslash (the
   * continuation lines are prompted with `…`). Null at end of input.
   */
  async readMessage(prompt: string): Promise<string | null> {
    this.atMessagePrompt = true;
    let line = await this.read(prompt).finally(() => {
      this.atMessagePrompt = false;
    });
    if (line === null) return null;
    const lines: string[] = [];
    while (line.endsWith('\\')) {
      lines.push(line.slice(0, -1));
      const next = await this.read('… ');
      if (next === null) break;
      line = next;
    }
    return lines.length > 0 ? [...lines, line.endsWith('\\') ? line.slice(0, -1) : line].join('\n') : line;
  }

  /**
   * What was typed while no prompt is up (unseen until the next prompt), in a few words for the spinner's line:
   * the lines queued and the line being typed; empty when nothing was.
   */
  typedAhead(): string {
    if (this.prompting || !this.interactive) return '';
    const line = ((this.rl as unknown as { line?: string }).line ?? '').replace(/\s+/g, ' ');
    const queued = this.queue.length;
    return [
      queued > 0 ? `${queued} line${queued === 1 ? '' : 's'} queued` : '',
      line.trim() ? `typed: ${line}` : '',
    ]
      .filter(Boolean)
      .map((part) => ` · ${part}`)
      .join('');
  }

  /** Resolves with the next line, or null at end of input. */
  read(prompt: string): Promise<string | null> {
    const queued = this.queue.shift();
    if (queued !== undefined) {
      // Typed while a turn ran and not shown then: shown now, at its prompt, where it takes effect.
      if (this.interactive) this.output.write(`${prompt}${queued.replace(/\n/g, '\n… ')}\n`);
      return Promise.resolve(queued);
    }
    if (this.closed) return Promise.resolve(null);
    this.showPrompt(prompt);
    const waiting = new Promise<string | null>((resolve) => {
      this.waiting = resolve;
    });
    if (this.interactive && this.initial !== undefined) this.rl.write(this.initial);
    this.initial = undefined;
    return waiting;
  }

  /**
   * A question that follows work the person waited on (the plan of a plan-mode turn, a drafted commit message):
   * on a terminal only a line entered after it is shown answers it. Lines entered before it were typed ahead as
   * the next messages, not as answers to a question not yet seen: they stay queued for the prompts after it.
   * Piped input has no before and after: its next line answers. Null at end of input.
   */
  question(prompt: string): Promise<string | null> {
    if (!this.interactive) return this.read(prompt);
    if (this.closed) return Promise.resolve(null);
    this.showPrompt(prompt);
    return new Promise<string | null>((resolve) => {
      this.waiting = resolve;
    });
  }

  /** Puts `text` (one line) in the input line at the next prompt, for the user to edit and send. */
  prefill(text: string): void {
    this.initial = text;
  }

  /** Esc Esc at an empty message prompt submits `line` (the chat's /rewind). */
  bindDoubleEscape(line: string): void {
    this.doubleEscape = line;
  }

  /**
   * Esc anywhere but the message prompt (a turn runs, an approval or a command's question waits) calls `handler`:
   * Claude Code's and Codex's key to stop a turn or turn a question down.
   */
  onEscapeWhileBusy(handler: () => void): void {
    this.escapeWhileBusy = handler;
  }

  private escape(meta: boolean): void {
    if (!this.atMessagePrompt && !this.closed) {
      this.escapeWhileBusy?.();
      return;
    }
    const line = this.doubleEscape;
    if (line === undefined || !this.atMessagePrompt || this.rl.line !== '') {
      this.lastEscape = 0;
      return;
    }
    // readline reports Esc Esc typed together as one Esc with meta; two lone ones count when close together.
    const now = Date.now();
    if (!meta && now - this.lastEscape > 800) {
      this.lastEscape = now;
      return;
    }
    this.lastEscape = 0;
    // Typed as if by the user, after readline has finished with this key.
    setImmediate(() => this.rl.write(`${line}\n`));
  }

  /**
   * Asks an approval question. Only a line typed after the question is shown answers it: lines queued while the
   * agent worked (meant as the next message, or a "y" typed ahead) and a half-typed line are discarded, so no
   * earlier keystroke can approve a command the person has not seen. The question is written even when input
   * is not a terminal. Resolves null when `signal` aborts (Ctrl-C) or at end of input.
   */
  ask(prompt: string, signal: AbortSignal): Promise<string | null> {
    this.queue.length = 0;
    this.pasted = [];
    if (this.closed || signal.aborted) return Promise.resolve(null);
    if (this.interactive) {
      // Ctrl-E then Ctrl-U: erase the line being edited (readline's documented way to simulate keys). Asked while a
      // turn runs, the erase is unseen (no prompt is up); were a prompt up, the redraw would show the chat's prompt
      // before the question, so that prompt is cleared first.
      this.rl.setPrompt('');
      this.rl.write(null, { ctrl: true, name: 'e' });
      this.rl.write(null, { ctrl: true, name: 'u' });
    }
    const answered = new Promise<string | null>((resolve) => {
      const answer = (line: string | null) => {
        signal.removeEventListener('abort', onAbort);
        if (this.waiting === answer) {
          this.waiting = undefined;
          this.prompting = false;
        }
        // An answer is no message worth recalling with the up arrow.
        const history = (this.rl as unknown as { history?: string[] }).history;
        if (line !== null && history?.[0] === line) history.shift();
        resolve(line);
      };
      const onAbort = () => answer(null);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting = answer;
    });
    // Listening before the question is out: an answer that comes back at once is not queued and lost.
    if (this.interactive) {
      // Lines above the last are plain output; the last is readline's prompt, redrawn on history recall.
      const lastBreak = prompt.lastIndexOf('\n') + 1;
      this.output.write(prompt.slice(0, lastBreak));
      this.showPrompt(prompt.slice(lastBreak));
    } else this.output.write(prompt);
    return answered;
  }

  /**
   * On a terminal the prompt goes through readline, not a bare write: readline redraws the line (history recall,
   * Ctrl-U, a resize) with the prompt it was given, so any other prompt would turn into its default `> `.
   */
  private showPrompt(prompt: string): void {
    if (!this.interactive) return;
    if (!this.prompting) {
      // Nothing of the line is on the screen (edits since the last prompt were not shown): readline must not move
      // up over the rows it counted for them, which now hold the turn's output.
      (this.rl as unknown as { prevRows?: number }).prevRows = 0;
      this.prompting = true;
    }
    this.rl.setPrompt(prompt);
    this.rl.prompt(true);
  }

  /**
   * Hands the terminal to another program (an editor) or prompt (a hidden key's) while `run` lasts: input is
   * paused and a terminal leaves raw mode; both are restored afterwards. Readline hears keys through the input's
   * keypress events, paused or not, so those are cut off meanwhile: a key typed at a prompt reading the input
   * itself must never also become the chat's next message.
   */
  async handOver<T>(run: () => Promise<T>): Promise<T> {
    const tty = this.input as NodeJS.ReadStream;
    const raw = this.interactive && tty.isTTY && tty.isRaw;
    this.rl.pause();
    if (raw) tty.setRawMode(false);
    const keypress = this.input.listeners('keypress') as ((...args: unknown[]) => void)[];
    this.input.removeAllListeners('keypress');
    try {
      return await run();
    } finally {
      for (const listener of keypress) this.input.on('keypress', listener);
      if (raw) tty.setRawMode(true);
      if (!this.closed) this.rl.resume();
    }
  }

  /** Erases a half-typed line (Ctrl-C at the prompt); false when there was none. */
  clearLine(): boolean {
    if (!this.interactive || this.rl.line === '') return false;
    this.rl.write(null, { ctrl: true, name: 'e' });
    this.rl.write(null, { ctrl: true, name: 'u' });
    return true;
  }

  /** Shift+Tab (the terminal sends ESC [ Z): the chat cycles its mode. */
  onShiftTab(handler: () => void): void {
    this.shiftTabHandler = handler;
  }

  /**
   * Writes text above the line being typed (a mode switched by Shift+Tab): the prompt's line is cleared, the
   * text written, and the prompt with what was typed drawn again below it.
   */
  interject(write: () => void): void {
    // No prompt up: the screen is the turn's, nothing of ours to clear or draw again.
    if (!this.interactive || this.closed || this.interjecting || !this.prompting) {
      write();
      return;
    }
    this.wipePrompt();
    this.interjecting = true;
    try {
      write();
    } finally {
      this.interjecting = false;
    }
    this.rl.prompt(true);
  }

  /** Clears the prompt and its line from the screen, every row of it when the line wraps; the cursor at its start. */
  private wipePrompt(): void {
    const rl = this.rl as unknown as { prevRows?: number };
    // prevRows: the rows readline's last redraw put the cursor below the prompt's first row.
    const up = rl.prevRows ?? 0;
    this.output.write(`${up > 0 ? `\x1b[${up}A` : ''}\r\x1b[J`);
    rl.prevRows = 0;
  }

  /**
   * Writes text that arrives while a prompt waits for input (the chat's run finishing its set-up as the user
   * types, a late MCP server's warning) above the prompt, as interject does; at once when no prompt is up.
   */
  above(write: () => void): void {
    if (this.waiting === undefined) write();
    else this.interject(write);
  }

  onInterrupt(handler: () => void): void {
    this.rl.on('SIGINT', handler);
  }

  /** Ends the input. `erase`: a prompt still up, and what was typed at it, are wiped (the chat ends with an error). */
  close(erase = false): void {
    if (erase && this.interactive && this.prompting && !this.closed) this.wipePrompt();
    this.pasteOff();
    process.off('exit', this.pasteOff);
    this.rl.close();
  }
}
