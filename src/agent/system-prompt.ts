// The system prompt: short on purpose, since every byte is paid again on every request.
import { ALLOWED_PROGRAMS, HARMLESS_REDIRECT_TARGETS } from '../safety/command-rules.js';
import type { ExecutionMode } from '../safety/policy.js';
import { type ContextFile, contextSection } from './context-files.js';

/** What execute_command may do in each mode, worded from the same rules data the policy enforces. */
function commandRules(mode: ExecutionMode): string {
  const readOnly = Object.keys(ALLOWED_PROGRAMS).join(', ');
  switch (mode) {
    case 'restricted':
      return `execute_command runs only read-only commands (${readOnly}) without redirection except to ${HARMLESS_REDIRECT_TARGETS.join(', ')}; use the file tools to change files.`;
    case 'full':
      return 'execute_command may run any command except destructive system-wide ones.';
    case 'interactive':
      return `execute_command asks the user before running anything beyond read-only commands (${readOnly}).`;
  }
}

const DRY_RUN =
  'This is a dry run: calls that would change files or run non-read-only commands only report what they would do. Continue as if they had been applied, or finish.';

/** Said only when commands run sandboxed, so failed writes outside the workspace make sense to the model. */
function sandboxRules(sandbox: { network: boolean } | undefined): string[] {
  if (!sandbox) return [];
  const network = sandbox.network ? '' : ' and there is no network';
  return [`Commands run in a sandbox: only the workspace and /tmp are writable${network}.`];
}

export function systemPrompt(options: {
  workspace: string;
  mode: ExecutionMode;
  /** Commands run in the bubblewrap sandbox. */
  sandbox?: { network: boolean };
  dryRun?: boolean;
  /** AGENTS.md and the like, in prompt order; none leaves the prompt as it is. */
  contextFiles?: readonly ContextFile[];
}): string {
  const rules = [
    'You are Keel, an autonomous coding agent. You work in the workspace',
    `${options.workspace}; tool paths are relative to it and cannot leave it.`,
    'Act with the tools instead of describing what to do. Read before you change; make the smallest change that does the job.',
    commandRules(options.mode),
    ...(options.dryRun ? [DRY_RUN] : []),
    ...sandboxRules(options.sandbox),
    'If a tool fails, read the error and adapt. When the task is done, reply with a short final answer and no tool call.',
  ].join(' ');
  const files = options.contextFiles ?? [];
  return files.length === 0 ? rules : `${rules}\n\n${contextSection(files)}`;
}
