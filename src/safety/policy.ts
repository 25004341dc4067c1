// Execution policy: decide(tool call) -> allow | ask | deny, with a reason.
// (Interface; implementation to follow.)
import type { SafetyLevel } from '../tools/tool.js';

export type ExecutionMode = 'interactive' | 'restricted_autonomous' | 'full_autonomous';

export interface PolicyDecision {
  decision: 'allow' | 'ask' | 'deny';
  /** Why; for ask and deny this is shown to the user and, on deny, returned to the model. */
  reason: string;
}

export interface PolicyRequest {
  tool: string;
  safety: SafetyLevel;
  args: unknown;
}

export interface Policy {
  readonly mode: ExecutionMode;
  decide(request: PolicyRequest): Promise<PolicyDecision>;
}
