// `keel policy show` (the modes table) and `keel policy check` (what the policy decides for a command or a file
// tool call, through the same engine and rules the agent uses; exit 0 allow, 1 ask, 2 deny).
import type { ToolPreview } from '../core/approval.js';
import { ExitCode, KeelError, UsageError } from '../core/errors.js';
import { formatHooks } from '../extend/hook-listing.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { openToolHost } from '../runtime/tool-host.js';
import { ACTIONS, type ActionKind, MODES } from '../safety/modes.js';
import { COMMAND_TOOL, type PolicyDecision } from '../safety/policy.js';
import { sanitize } from '../ui/sanitize.js';
import type { GlobalOptions } from './global-options.js';
import { chooseMode, type ModeFlags } from './mode-options.js';
import { reportFailure, reportWarnings } from './report.js';
import { loadConfigFor } from './run-options.js';

export interface PolicyShowOptions extends GlobalOptions {
  json?: boolean;
}

export interface PolicyCheckOptions extends GlobalOptions, ModeFlags {
  command?: string;
  path?: string;
  tool?: string;
  json?: boolean;
}

/** The modes table as aligned text: one row per kind of action, one column per mode. */
export function formatModesTable(): string {
  const rows = Object.values(ACTIONS).map((row) => [row.label, row.interactive, row.restricted, row.full]);
  const header = ['action', ...MODES];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export async function policyShowCommand(options: PolicyShowOptions): Promise<number> {
  let loaded: Awaited<ReturnType<typeof loadConfigFor>>;
  try {
    loaded = await loadConfigFor(options);
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json: options.json === true });
  }
  reportWarnings(loaded.warnings);
  const { hooks } = loaded.config;
  if (options.json) {
    const actions = Object.entries(ACTIONS).map(([kind, row]) => ({ kind: kind as ActionKind, ...row }));
    process.stdout.write(`${JSON.stringify({ modes: MODES, actions, hooks }, null, 2)}\n`);
  } else {
    process.stdout.write(`${formatModesTable()}\n`);
    process.stdout.write(
      '\nDenylisted acts, protected paths and the confirm tier apply in every mode. Headless runs refuse what would ask.\n',
    );
    process.stdout.write(`\n${sanitize(formatHooks(hooks, loaded.sources))}\n`);
  }
  return ExitCode.ok;
}

const EXIT_FOR: Readonly<Record<PolicyDecision['decision'], number>> = { allow: 0, ask: 1, deny: 2 };

export async function policyCheckCommand(options: PolicyCheckOptions): Promise<number> {
  try {
    if ((options.command === undefined) === (options.path === undefined)) {
      throw new UsageError('give either --command "<cmd>" or --path <path> --tool <name>');
    }
    if (options.path !== undefined && options.tool === undefined) {
      throw new UsageError('--path needs --tool <name>, e.g. --tool write_file');
    }
    const loaded = await loadConfigFor(options);
    reportWarnings(loaded.warnings);
    const mode = chooseMode(options, loaded.config.agent.terminal.default_mode, 'restricted');
    // The policy, jail and tools a run would open, its rules checked; nothing runs, so nothing is guarded or
    // sandboxed (the sandbox changes no decision asked about here).
    const host = await openToolHost({
      loaded,
      dir: await resolveWorkspaceDir(options.cwd),
      mode,
      allow: options.allow,
      sandbox: false,
      env: process.env,
      runId: 'policy-check',
      guarded: false,
    });
    const { registry, policy } = host;
    const toolName = options.command !== undefined ? COMMAND_TOOL : (options.tool ?? '');
    const tool = registry.get(toolName);
    if (!tool) {
      const names = registry.list().map((t) => t.name);
      throw new UsageError(`no tool named ${toolName} in this configuration`, {
        hint: `tools: ${names.join(', ')}`,
      });
    }
    const raw =
      options.command !== undefined
        ? { command: options.command }
        : { path: options.path, ...(tool.name === 'write_file' ? { content: '' } : {}) };
    const parsed = tool.schema.safeParse(raw);
    if (!parsed.success)
      throw new UsageError(`${tool.name} does not take these arguments: ${parsed.error.message}`);
    // The preview is built as the executor builds it; a path that escapes the workspace is refused right there.
    const ctx = host.contextFor(new AbortController().signal);
    let decision: PolicyDecision;
    try {
      const preview: ToolPreview = tool.preview
        ? await tool.preview(parsed.data, ctx)
        : { reads: [], writes: [], summary: tool.name };
      decision = await policy.decide({ tool: tool.name, safety: tool.safety, args: parsed.data, preview });
    } catch (error) {
      if (!(error instanceof KeelError) || error.code !== 'path_escape') throw error;
      decision = { decision: 'deny', reason: error.message, reasons: [error.message] };
    }
    printDecision(decision, mode, options.json === true);
    return EXIT_FOR[decision.decision];
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json: options.json });
  }
}

function printDecision(decision: PolicyDecision, mode: string, json: boolean): void {
  if (json) {
    const { decision: verdict, reasons, hint } = decision;
    process.stdout.write(
      `${JSON.stringify({ decision: verdict, reasons, ...(hint ? { hint } : {}), mode })}\n`,
    );
    return;
  }
  const lines = [`${decision.decision} (mode: ${mode})`, ...decision.reasons.map((r) => `  - ${r}`)];
  if (decision.hint && decision.decision !== 'allow') lines.push(`to allow it: ${decision.hint}`);
  // Reasons quote the command, which may hold control characters: printed escaped.
  process.stdout.write(sanitize(`${lines.join('\n')}\n`));
}
