// `keel run --input-format stream-json --output stream-json`: one process holds a conversation with another
// program. Each user line on stdin is a turn (queued while one runs), events stream on stdout, an "ask" of the
// policy waits for an approval line naming the call's id, a cancel line interrupts the current turn; the process
// ends when stdin does and the last turn has.
import { createInterface } from 'node:readline';
import type { ApprovalAnswer, Approve } from '../core/approval.js';
import { ExitCode, UsageError } from '../core/errors.js';
import type { Run } from '../runtime/assemble.js';
import { writeUnstartedRunEnd } from '../ui/json-output.js';
import type { GlobalOptions } from './global-options.js';
import { type ModeFlags, resolveMode } from './mode-options.js';
import { reportFailure, runExitCode } from './report.js';
import { startRun } from './run-options.js';
import { interruptSignal } from './signals.js';
import { parseStreamInput } from './stream-input.js';

/** The flags of `keel run` a stream session reads (run.ts's RunOptions, which loads this file, has them all). */
export interface StreamSessionOptions extends GlobalOptions, ModeFlags {
  prompt?: string;
  plan?: string;
  command?: string;
  dryRun?: boolean;
  sandbox?: boolean;
  session?: boolean;
  continue?: boolean;
  resume?: string;
}

/** Approvals waiting for their answer line, by call id; every one is refused when stdin ends. */
class PendingApprovals {
  private readonly waiting = new Map<string, (answer: ApprovalAnswer) => void>();
  private closed = false;

  approve: Approve = (request, signal) =>
    new Promise((resolve) => {
      if (this.closed || signal.aborted) return resolve({ decision: 'deny' });
      const done = (answer: ApprovalAnswer) => {
        this.waiting.delete(request.id);
        signal.removeEventListener('abort', refuse);
        resolve(answer);
      };
      const refuse = () => done({ decision: 'deny' });
      signal.addEventListener('abort', refuse, { once: true });
      this.waiting.set(request.id, done);
    });

  /** False when no approval waits for this id. */
  answer(id: string, answer: ApprovalAnswer): boolean {
    const done = this.waiting.get(id);
    done?.(answer);
    return done !== undefined;
  }

  close(): void {
    this.closed = true;
    for (const done of [...this.waiting.values()]) done({ decision: 'deny' });
  }
}

export async function streamSession(options: StreamSessionOptions): Promise<number> {
  // Each turn's loop ends it with run_end; a session that fails before its first turn ends with one here.
  let conversing = false;
  try {
    if (options.output !== 'stream-json') {
      throw new UsageError('--input-format stream-json needs --output stream-json', {
        hint: 'add --output stream-json: the events are what the other program reads',
      });
    }
    if (options.plan !== undefined || options.command !== undefined) {
      throw new UsageError('--input-format stream-json takes its messages on stdin, not --plan or --command');
    }
    const approvals = new PendingApprovals();
    const agent = await startRun(options, {
      mode: (loaded) => resolveMode(options, loaded.config, 'restricted'),
      allow: options.allow,
      approve: approvals.approve,
      streamText: false,
      dryRun: options.dryRun,
      sandbox: options.sandbox,
      session: { save: options.session !== false, continue: options.continue, resume: options.resume },
    });
    conversing = true;
    return await converse(agent, approvals, options);
  } catch (error) {
    const code = reportFailure(error, { debug: options.debug, json: true });
    if (!conversing && options.output === 'stream-json') writeUnstartedRunEnd(process.stdout);
    return code;
  }
}

async function converse(
  agent: Run,
  approvals: PendingApprovals,
  options: StreamSessionOptions,
): Promise<number> {
  const interrupt = interruptSignal(agent.runner);
  const turns: string[] = options.prompt?.trim() ? [options.prompt] : [];
  let turn: AbortController | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let count = 0;
  lines.on('line', (text) => {
    count += 1;
    if (!text.trim()) return;
    const input = parseStreamInput(text);
    if (input.kind === 'user') {
      turns.push(input.text);
      notify();
    } else if (input.kind === 'cancel') turn?.abort();
    else if (input.kind === 'approval') {
      if (!approvals.answer(input.id, input.answer))
        agent.emit({ type: 'warning', message: `stdin line ${count}: no approval waits for id ${input.id}` });
    } else agent.emit({ type: 'warning', message: `stdin line ${count}: ${input.problem}` });
  });
  lines.on('close', () => {
    ended = true;
    approvals.close();
    notify();
  });
  // Ctrl-C, SIGTERM's kin and a closed stdout end the turn and the conversation.
  const stop = () => {
    turn?.abort();
    notify();
  };
  interrupt.signal.addEventListener('abort', stop);
  let code = 0;
  try {
    while (!interrupt.signal.aborted) {
      const next = turns.shift();
      if (next === undefined) {
        if (ended) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      agent.conversation.push({ role: 'user', content: next });
      turn = new AbortController();
      code = runExitCode(await agent.run(turn.signal), options.debug);
      turn = undefined;
    }
    if (interrupt.signal.aborted) code = ExitCode.interrupted;
  } finally {
    interrupt.signal.removeEventListener('abort', stop);
    interrupt.dispose();
    lines.close();
    agent.runner.killAll();
  }
  await agent.close();
  return code;
}
