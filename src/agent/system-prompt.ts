// The system prompt: short on purpose, since every byte is paid again on every request.
import { ALLOWED_PROGRAMS, HARMLESS_REDIRECT_TARGETS } from '../safety/command/program-rules.js';
import type { ExecutionMode } from '../safety/modes.js';
import { type CommandRule, heldBack } from '../safety/user-rules.js';
import { type ContextFile, contextSection } from './context-files.js';

export interface SystemPromptOptions {
  workspace: string;
  mode: ExecutionMode;
  /** Whether the shell tool is offered (safety.allow_command_execution). */
  commands?: boolean;
  /**
   * The user's command rules (config and --allow), parsed as the policy parses them: allow rules are named so the
   * model knows it may run them; what a deny or ask rule holds back is named nowhere as running freely.
   */
  rules?: readonly CommandRule[];
  /** Commands run in the bubblewrap sandbox. */
  sandbox?: { network: boolean };
  /** --dry-run: changes only report what they would do. */
  dryRun?: boolean;
  /** AGENTS.md and the like, in prompt order; none leaves the prompt as it is. */
  contextFiles?: readonly ContextFile[];
}

/** The programs the model is shown by name (the rest of the read-only set is left to a refusal's message). */
const SHOWN_PROGRAMS = [
  'ls',
  'cat',
  'head',
  'tail',
  'grep',
  'rg',
  'find',
  'wc',
  'diff',
  'sort',
  'stat',
  'tree',
];
const SHOWN_GIT = ['status', 'diff', 'log', 'show', 'blame'];

/**
 * The read-only set in short, for the system prompt, where every byte is paid again on every request: the common
 * programs, git's reading subcommands and printing sed/awk, each taken from the rules so none is named that is refused:
 * neither by the read-only set nor by the user's deny and ask rules (`deny: ["git log"]` leaves out git log).
 */
export function readOnlyExamples(rules: readonly CommandRule[] = []): string {
  const free = (...argv: string[]) => heldBack(rules, argv) === undefined;
  const names = SHOWN_PROGRAMS.filter((name) => ALLOWED_PROGRAMS[name] !== undefined && free(name));
  const git = SHOWN_GIT.filter(
    (sub) => ALLOWED_PROGRAMS.git?.subcommands?.[sub] !== undefined && free('git', sub),
  );
  if (git.length > 0) names.push(`git ${git.join('/')}`);
  const scripts = ['sed', 'awk'].filter((name) => ALLOWED_PROGRAMS[name]?.script !== undefined && free(name));
  if (scripts.length > 0) names.push(`printing ${scripts.join('/')}`);
  return names.join(', ');
}

/**
 * What execute_command may do in each mode, worded from the same rules data the policy enforces. The read-only set
 * is named by its common programs only: a command outside them is refused with a message that says why.
 */
function commandRules(mode: ExecutionMode, rules: readonly CommandRule[], sandboxed: boolean): string {
  const readOnly = `${readOnlyExamples(rules)}, etc.`;
  // Deny wins over ask and ask over allow, in the policy as here: an allow rule they override is not named.
  const allowed = rules.filter((r) => r.kind === 'allow' && heldBack(rules, r.words) === undefined);
  const also = allowed.length > 0 ? ` (also: ${allowed.map((r) => r.text).join(', ')})` : '';
  switch (mode) {
    case 'restricted':
      return `execute_command runs only read-only commands${also}: ${readOnly}; no redirection but to ${HARMLESS_REDIRECT_TARGETS.join(', ')}. Change files with the file tools; delete only files you created.`;
    case 'full':
      return `execute_command may run any command inside the workspace except destructive system-wide ones${also}.`;
    case 'auto':
      // Where commands are sandboxed, sandboxRules says so; without a sandbox they are asked about.
      return sandboxed
        ? `File edits and commands${also} run without asking.`
        : `File edits run without asking; commands beyond read-only ones${also} are asked about (no sandbox here).`;
    case 'plan':
      // Plan mode offers no execute_command (registry.ts, offeredInPlanMode): naming it would send the model after a
      // tool it does not have.
      return 'Plan mode: change nothing; no commands are run, only the tools offered.';
    case 'interactive':
      return `execute_command asks the user before running anything beyond read-only commands${also}: ${readOnly}. Edits of existing files and deletes are asked too.`;
  }
}

/** Plan mode: the answer is a plan (todo_write's list, then a short rationale), and nothing is changed. */
export const PLAN_PROMPT =
  'You are in plan mode: investigate with the read-only tools, change nothing, then write the plan with todo_write (one pending item per step, in order) and answer with a short rationale for it. Do not carry the plan out.';

const DRY_RUN =
  'This is a dry run: calls that would change files or run non-read-only commands only report what they would do. Continue as if they had been applied, or finish.';

/** Said only when commands run sandboxed, so failed writes outside the workspace make sense to the model. */
function sandboxRules(sandbox: { network: boolean } | undefined): string[] {
  if (!sandbox) return [];
  const network = sandbox.network ? '' : ', no network';
  return [`Commands run in a sandbox: only the workspace and /tmp are writable${network}.`];
}

export function systemPrompt(options: SystemPromptOptions): string {
  const rules = [
    'You are Keel, an autonomous coding agent in the workspace',
    `${options.workspace}; tool paths are relative to it and cannot leave it.`,
    'Act with tools, not descriptions. Read before changing; make the smallest change that works.',
    options.commands === false
      ? ''
      : commandRules(options.mode, options.rules ?? [], options.sandbox !== undefined),
    ...(options.dryRun ? [DRY_RUN] : []),
    ...(options.mode === 'plan' ? [PLAN_PROMPT] : []),
    ...sandboxRules(options.sandbox),
    'If a tool fails, read the error and adapt. When done, reply with a short final answer and no tool call.',
  ]
    .filter((line) => line !== '')
    .join(' ');
  const files = options.contextFiles ?? [];
  return files.length === 0 ? rules : `${rules}\n\n${contextSection(files)}`;
}
