// The system prompt: short on purpose, since every byte is paid again on every request.
import type { ExecutionMode } from '../safety/policy.js';

const commandRules: Record<ExecutionMode, string> = {
  restricted_autonomous:
    'execute_command runs only read-only commands (ls, cat, head, tail, grep, find, echo, pwd, which, type) without redirection; use the file tools to change files.',
  full_autonomous: 'execute_command may run any command except destructive system-wide ones.',
  interactive: 'execute_command asks the user before running anything beyond read-only commands.',
};

export function systemPrompt(options: { workspace: string; mode: ExecutionMode }): string {
  return [
    'You are Keel, an autonomous coding agent. You work in the workspace',
    `${options.workspace}; tool paths are relative to it and cannot leave it.`,
    'Act with the tools instead of describing what to do. Read before you change; make the smallest change that does the job.',
    commandRules[options.mode],
    'If a tool fails, read the error and adapt. When the task is done, reply with a short final answer and no tool call.',
  ].join(' ');
}
