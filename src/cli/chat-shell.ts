// `!<command>` in the chat: the user's own command, through the policy like any (asked about, checkpointed,
// audited); its output waits and goes to the model with the next message (no model turn of its own).
import type { Run } from '../runtime/assemble.js';

export class UserShell {
  private pending: string[] = [];
  private count = 0;

  async run(agent: Run, command: string, signal: AbortSignal): Promise<void> {
    this.count += 1;
    const call = {
      id: `user-shell-${this.count}`,
      name: 'execute_command',
      input: JSON.stringify({ command }),
    };
    const result = await agent.executor.execute(call, 0, signal);
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
