// What the policy decides for a command, for the command tables: one call to the real decide, nothing run.
import { expect } from 'vitest';
import { createPolicy, type ExecutionMode, type PolicyDecision } from '../../../src/safety/policy.js';
import type { Workspace } from '../../../src/safety/workspace.js';

export type Decide = (mode: ExecutionMode, command: string, workspace?: Workspace) => Promise<PolicyDecision>;

/** `decide(mode, command)` in `workspace` (or another one passed per call), with `env()` for the policy if given. */
export function commandDecider(workspace: () => Workspace, env?: () => NodeJS.ProcessEnv): Decide {
  return (mode, command, ws = workspace()) =>
    createPolicy({ mode, workspace: ws, ...(env ? { env: env() } : {}) }).decide({
      tool: 'execute_command',
      safety: 'dangerous',
      args: { command },
      preview: { reads: [], writes: [], summary: '' },
    });
}

/** Read-only: allowed in every mode, and marked read-only (no checkpoint). */
export async function expectReadOnlyIn(
  decide: Decide,
  command: string,
  workspace?: Workspace,
): Promise<void> {
  for (const mode of ['restricted', 'interactive', 'full'] as const) {
    const decision = await decide(mode, command, workspace);
    expect(decision, `${mode}: ${decision.reason}`).toMatchObject({ decision: 'allow', readOnly: true });
  }
}
