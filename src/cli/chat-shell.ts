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
    const output = result.success ? result.output : `${result.error ?? 'failed'}\n${result.output}`.trim();
    this.pending.push(`I ran \`${command}\` myself:\n${output}`);
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
