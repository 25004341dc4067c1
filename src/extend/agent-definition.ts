// An agent as a file defines it (extend/agent-files.ts) or Keel ships it (extend/builtin-agents.ts).
import type { ExecutionMode } from '../safety/policy.js';

export interface AgentDefinition {
  name: string;
  description: string;
  /** The tools it may use, by name; absent: the read-only ones. */
  tools?: string[];
  /** `provider/model`, or a model of the run's provider; absent: the run's model. */
  model?: string;
  /** Never wider than the parent's: a wider one is narrowed to the parent's. Absent: the parent's. */
  mode?: ExecutionMode;
  /** Added to the system prompt. */
  prompt: string;
  source: 'built-in' | 'user' | 'project';
  file?: string;
}
