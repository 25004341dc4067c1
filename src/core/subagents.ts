// What the `task` tool sees of sub-agents: the agents a task may name and a way to run one. The runtime builds it
// (runtime/subagents.ts) and hands it to tools on their ToolContext, so tools never reach up into the runtime.
import type { AgentEvent, RunEndReason, UsageCounts } from './events.js';

/** An agent a task may name, as the model reads it in the tool's description. */
export interface AgentSummary {
  name: string;
  description: string;
}

export interface TaskRequest {
  /** The task call's id: the sub-agent's events carry it as `parent`. */
  callId: string;
  description: string;
  prompt: string;
  /** An agent's name; absent: a general sub-agent with the read-only tools. */
  agent?: string;
}

/** What a sub-agent gives back: its final answer and what it spent. */
export interface TaskOutcome {
  agent: string;
  reason: RunEndReason;
  answer: string;
  turns: number;
  toolCalls: number;
  usage: UsageCounts;
  /** Why it ran in a narrower mode than its agent file asks for, or another note for the parent. */
  note?: string;
}

export interface Subagents {
  /** The agents a task may name at this depth. */
  readonly agents: readonly AgentSummary[];
  /** Whether a task for `agent` only reads (it then runs beside the turn's other read-only calls); undefined: unknown agent. */
  readOnly(agent: string | undefined): boolean | undefined;
  /** Runs a sub-agent to its end; throws a message the model can act on (unknown agent, depth limit). */
  run(
    request: TaskRequest,
    call: { signal: AbortSignal; emit: (event: AgentEvent) => void },
  ): Promise<TaskOutcome>;
}
