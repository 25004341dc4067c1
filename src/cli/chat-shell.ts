// `!<command>` in the chat: the user's own command, through the policy like any (asked about, checkpointed,
// audited), its output shown to the user whole; the output waits and goes to the model with the next message (no
// model turn of its own).

import type { Run } from '../runtime/assemble.js';
import { printedOutput } from '../tools/command-text.js';
import type { ToolResult } from '../tools/tool.js';
import { sanitize } from '../ui/sanitize.js';

export class UserShell {
  private pending: string[] = [];
  private count = 0;

  /** `show` gets what each command printed (stdout, then stderr under its label); none: machine output. */
  constructor(private readonly show?: (text: string) => void) {}

  async run(agent: Run, command: string, signal: AbortSignal): Promise<void> {
    this.count += 1;
    const call = {
      id: `user-shell-${this.count}`,
      name: 'execute_command',
      input: JSON.stringify({ command }),
    };
    const result = await agent.executor.execute(call, 0, signal);
    const printed = commandPrinted(result);
    if (printed && this.show) this.show(`${sanitize(printed)}\n`);
    this.pending.push(...forTheModel(command, result, signal));
  }

  /** The typed message, after the outputs waiting for it. */
  withOutputs(typed: string): string {
    const text = this.pending.length > 0 ? `${this.pending.join('\n\n')}\n\n${typed}` : typed;
    this.pending = [];
    return text;
  }
}

/** What the command printed, from its result for the model (`printedOutput`). */
export function commandPrinted(result: ToolResult): string {
  return printedOutput(result.output);
}

/**
 * What the model hears of the user's own command: its output; that the policy refused it; nothing when the user
 * turned their own command down at its approval (n, Ctrl-C, Esc), which is no news for the model, whose own calls
 * a "declined" result would tell it to stop asking for.
 */
export function forTheModel(command: string, result: ToolResult, signal: AbortSignal): string[] {
  if (result.metadata.policy === 'declined' || (signal.aborted && !result.success)) return [];
  if (result.metadata.policy === 'deny')
    return [`I tried to run \`${command}\` myself; ${result.error ?? 'refused'}`];
  const output = result.success ? result.output : `${result.error ?? 'failed'}\n${result.output}`.trim();
  return [`I ran \`${command}\` myself:\n${output}`];
}
