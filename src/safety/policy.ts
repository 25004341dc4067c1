// Execution policy: decide(tool call) -> allow | ask | deny, with a reason, from the mode, the tool's
// safety level, its preview (the paths it reads and writes, the command it runs) and the user's config.
import { homedir } from 'node:os';
import { stateDir } from '../config/paths.js';
import type { KeelConfig } from '../config/schema.js';
import type { ToolPreview } from '../core/approval.js';
import type { SafetyLevel } from '../tools/tool.js';
import { analyzeCommand, type CommandAnalysis } from './command-analysis.js';
import { type CommandContext, judgeCommand } from './command-denylist.js';
import { restrictedReason } from './restricted-check.js';
import type { Workspace } from './workspace.js';

export type ExecutionMode = 'interactive' | 'restricted' | 'full';

export interface PolicyDecision {
  decision: 'allow' | 'ask' | 'deny';
  /** Why; for ask and deny this is shown to the user and, on deny, returned to the model. */
  reason: string;
  /** The call only reads (a safe tool, a command of the read-only set): no checkpoint, runs under --dry-run. */
  readOnly?: boolean;
}

export interface PolicyRequest {
  tool: string;
  safety: SafetyLevel;
  args: unknown;
  /** What the call will do, from the tool's preview: absolute paths it reads and writes, its command. */
  preview: ToolPreview;
}

export interface Policy {
  readonly mode: ExecutionMode;
  decide(request: PolicyRequest): Promise<PolicyDecision>;
}

export interface PolicyOptions {
  mode: ExecutionMode;
  workspace: Workspace;
  /** The user's merged config (rules, protected paths as they arrive); absent in unit tests. */
  config?: KeelConfig;
  /** The environment commands run in (HOME, the state dir); default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** Keel's state directory; default: from env. */
  stateDir?: string;
  /** Shell commands run in the bubblewrap sandbox (workspace-only writes, no network by default). */
  sandboxed?: boolean;
}

/** The tool whose argument is a shell command, analysed rather than judged by safety level. */
export const COMMAND_TOOL = 'execute_command';

const ALLOW_ANY_HINT = 're-run with --allow-dangerous to allow any command except the denylist';

const allow = (reason: string): PolicyDecision => ({ decision: 'allow', reason });
const ask = (reason: string): PolicyDecision => ({ decision: 'ask', reason });
const deny = (reason: string): PolicyDecision => ({ decision: 'deny', reason });
const shorten = (text: string): string => (text.length > 80 ? `${text.slice(0, 77)}...` : text);

function commandOf(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null || !('command' in args)) return undefined;
  return typeof args.command === 'string' ? args.command : undefined;
}

function commandContext(options: PolicyOptions): CommandContext {
  const env = options.env ?? process.env;
  return {
    workspace: options.workspace,
    home: env.HOME || homedir(),
    env,
    allowedPaths: options.config?.safety.allowed_paths ?? [],
    protectedPaths: options.config?.safety.protected_paths ?? [],
    stateDir: options.stateDir ?? stateDir(env),
  };
}

async function decideCommand(command: string, options: PolicyOptions): Promise<PolicyDecision> {
  const analysis = await analyzeCommand(command);
  const shown = `\`${shorten(command)}\``;
  const verdicts = await judgeCommand(analysis, commandContext(options));
  const denied = verdicts.filter((v) => v.tier === 'deny').map((v) => v.reason);
  if (denied.length > 0) return deny(`${shown} is refused in every mode: ${denied.join('; ')}`);
  const decision = await decideByMode(command, analysis, options);
  // The confirm tier asks even in full mode (and so is refused when the run cannot ask).
  const confirm = verdicts.filter((v) => v.tier === 'confirm').map((v) => v.reason);
  if (confirm.length === 0 || decision.decision === 'deny') return decision;
  return ask(`${shown} asks for confirmation in every mode: ${confirm.join('; ')}`);
}

async function decideByMode(
  command: string,
  analysis: CommandAnalysis,
  options: PolicyOptions,
): Promise<PolicyDecision> {
  const shown = `\`${shorten(command)}\``;
  if (analysis.issues.some((i) => i.kind === 'parse_error')) {
    return deny(`${shown} does not parse as a bash command; fix the syntax`);
  }
  if (options.mode === 'full') {
    if (analysis.issues.some((i) => i.kind === 'control_character')) {
      return deny(`${shown} contains control characters, so what runs may differ from what is shown`);
    }
    const hidden = analysis.commands.find((c) => c.nonLiteral.includes(0));
    if (hidden) {
      return deny(
        `\`${shorten(hidden.text)}\`: the program name comes from an expansion, so it cannot be checked`,
      );
    }
    return allow('full autonomous mode allows any command outside the denylist');
  }
  const refused = await restrictedReason(analysis, options.workspace);
  if (!refused) return { decision: 'allow', reason: 'read-only command in the allowlist', readOnly: true };
  if (options.mode === 'restricted') return deny(`${refused}; ${ALLOW_ANY_HINT}`);
  // Chat asks instead of refusing; the reason is worded for the person answering, not for a restricted run.
  return ask(
    refused
      .replace(/ is not allowed in restricted mode \(allowed: [^)]*\)/, ' is not a read-only command')
      .replace(/restricted mode/g, 'the read-only set'),
  );
}

/** The policy for a run: restricted, full (--allow-dangerous) or interactive (chat). */
export function createPolicy(options: PolicyOptions): Policy {
  return {
    mode: options.mode,
    async decide(request: PolicyRequest): Promise<PolicyDecision> {
      if (request.tool === COMMAND_TOOL || request.preview.command !== undefined) {
        const command = request.preview.command ?? commandOf(request.args);
        if (command === undefined) return deny(`${COMMAND_TOOL} needs a "command" string`);
        return decideCommand(command, options);
      }
      if (request.safety === 'safe')
        return { decision: 'allow', reason: `${request.tool} is read-only`, readOnly: true };
      if (options.mode !== 'interactive') return allow(`${options.mode} mode allows ${request.tool}`);
      if (request.safety === 'dangerous') return ask(`${request.tool} can destroy data`);
      return allow(`${request.tool} changes files inside the workspace`);
    },
  };
}
