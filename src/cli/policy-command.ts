// `keel policy show` (the modes table) and `keel policy check` (what the policy decides for a command or a file
// tool call, through the same engine and rules the agent uses; exit 0 allow, 1 ask, 2 deny).

import type { KeelConfig } from '../config/schema.js';
import { ExitCode, UsageError } from '../core/errors.js';
import { commandEnv } from '../exec/process-runner.js';
import { INSTALL_HINT, probeBubblewrap } from '../exec/sandbox-choice.js';
import { formatHooks } from '../extend/hook-listing.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { decideCall, decidePath, openToolHost } from '../runtime/tool-host.js';
import { ACTIONS, type ActionKind, CLI_WORDS, MODES, verdictOf } from '../safety/modes.js';
import { COMMAND_TOOL, type PolicyDecision } from '../safety/policy.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { sanitize } from '../ui/sanitize.js';
import { terminalColumns, wrapFor, wrapText } from '../ui/wrap.js';
import type { GlobalOptions } from './global-options.js';
import { defaultMode, type ModeChoice, type ModeFlags, resolveMode } from './mode-options.js';
import { reportFailure, reportWarnings } from './report.js';
import { loadConfigFor } from './run-options.js';

export interface PolicyShowOptions extends GlobalOptions {
  json?: boolean;
}

export interface PolicyCheckOptions extends GlobalOptions, ModeFlags {
  command?: string;
  /** The command as words after `check` (`keel policy check "npm test"`), in place of --command. */
  words?: string[];
  path?: string;
  tool?: string;
  json?: boolean;
  /** --sandbox / --no-sandbox: judge as a run given that flag would (absent: only auto mode probes the sandbox). */
  sandbox?: boolean;
}

/**
 * The modes table as aligned text: one row per kind of action, one column per mode. A terminal narrower than the
 * table (`columns`) gets each action on its own lines instead, wrapped, with its verdicts below it.
 */
export function formatModesTable(columns?: number): string {
  const rows = Object.entries(ACTIONS).map(([kind, row]) => [
    row.label,
    ...MODES.map((mode) => verdictOf(kind as ActionKind, mode)),
  ]);
  const header = ['action', ...MODES];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const table = [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  if (columns === undefined || Math.max(...table.map((l) => l.length)) <= columns) return table.join('\n');
  return rows
    .map(([label = '', ...verdicts]) => {
      const modes = verdicts.map((verdict, i) => `${MODES[i]} ${verdict}`).join(' · ');
      return `${wrapText(label, columns, '')}\n${wrapText(`  ${modes}`, columns, '  ')}`;
    })
    .join('\n');
}

/** Where the sandbox stands here: bubblewrap usable or why not, and which runs use it (safety.sandbox). */
export interface SandboxState {
  available: boolean;
  problem?: string;
  /** safety.sandbox: true (every run), false (never), null (auto and full modes, where bubblewrap works). */
  setting: boolean | null;
  fullModeSandboxed: boolean;
}

async function sandboxState(config: KeelConfig): Promise<SandboxState> {
  const env = commandEnv(process.env, config.safety.env_passthrough);
  const problem = await probeBubblewrap(config.safety.sandbox_network, env);
  const setting = config.safety.sandbox ?? null;
  const state: SandboxState = { available: problem === undefined, setting, fullModeSandboxed: false };
  if (problem !== undefined) state.problem = problem;
  state.fullModeSandboxed = state.available && setting !== false;
  return state;
}

/** One paragraph on the sandbox for `keel policy show`. */
export function formatSandbox(state: SandboxState): string {
  const found = state.available ? 'bubblewrap found and working' : `not available: ${state.problem}`;
  const uses =
    state.setting === true
      ? 'safety.sandbox: true asks for it in every mode'
      : state.setting === false
        ? 'safety.sandbox: false turns it off'
        : `auto and full modes ${state.available ? 'use' : 'would use'} it`;
  const full = state.fullModeSandboxed
    ? 'Auto and full modes run commands in it: only the workspace and /tmp are writable (not .git/hooks, .git/config, .keel), ' +
      'home secrets are hidden, and there is no network unless safety.sandbox_network is true.'
    : 'Auto mode asks about every command beyond the read-only set, and full mode runs commands WITHOUT a sandbox: it asks about commands whose paths or code it cannot see ' +
      `($(...), loop variables, xargs, tar -P, prompt expansion). To get the sandbox: ${INSTALL_HINT}.`;
  return `Sandbox: ${found}; ${uses}.\n${full}`;
}

/** The default mode of run and chat here, and why (`keel policy show`). */
export async function defaultModes(
  config: KeelConfig,
  state: SandboxState,
): Promise<{ run: ModeChoice; chat: ModeChoice }> {
  const base = {
    configured: config.agent.terminal.default_mode,
    sandbox: config.safety.sandbox,
    probe: async () => state.problem,
  };
  return {
    run: await defaultMode({ ...base, fallback: 'restricted' }),
    chat: await defaultMode({ ...base, fallback: 'interactive' }),
  };
}

export function formatDefaults(defaults: { run: ModeChoice; chat: ModeChoice }): string {
  const { run, chat } = defaults;
  if (run.mode === chat.mode) return `Default mode of keel run and keel chat: ${run.mode} (${run.why}).`;
  return `Default mode: ${run.mode} for keel run, ${chat.mode} for keel chat (${run.why}).`;
}

export async function policyShowCommand(
  options: PolicyShowOptions,
  out: CommandOutput = processOutput,
): Promise<number> {
  let loaded: Awaited<ReturnType<typeof loadConfigFor>>;
  try {
    loaded = await loadConfigFor(options);
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json: options.json === true, out });
  }
  reportWarnings(loaded.warnings, out);
  const { hooks } = loaded.config;
  const sandbox = await sandboxState(loaded.config);
  const defaults = await defaultModes(loaded.config, sandbox);
  if (options.json) {
    // Every mode's verdict, plan mode's (derived, not in the table's rows) included.
    const actions = Object.entries(ACTIONS).map(([kind, row]) => ({
      kind: kind as ActionKind,
      label: row.label,
      ...Object.fromEntries(MODES.map((mode) => [mode, verdictOf(kind as ActionKind, mode)])),
      hint: row.hint(CLI_WORDS),
    }));
    out.print(`${JSON.stringify({ modes: MODES, defaults, actions, sandbox, hooks }, null, 2)}\n`);
  } else {
    const columns = terminalColumns(process.stdout);
    const prose = (text: string) => out.print(`\n${wrapFor(text, columns)}\n`);
    out.print(`${formatModesTable(columns)}\n`);
    prose(`${formatDefaults(defaults)} Change it with --mode or agent.terminal.default_mode.`);
    prose(formatSandbox(sandbox));
    prose(
      'Denylisted acts, protected paths and the confirm tier apply in every mode. Headless runs refuse what would ask.',
    );
    prose(sanitize(formatHooks(hooks, loaded.sources)));
  }
  return ExitCode.ok;
}

const EXIT_FOR: Readonly<Record<PolicyDecision['decision'], number>> = { allow: 0, ask: 1, deny: 2 };

export async function policyCheckCommand(
  options: PolicyCheckOptions,
  out: CommandOutput = processOutput,
): Promise<number> {
  try {
    if (options.words !== undefined && options.words.length > 0) {
      if (options.command !== undefined)
        throw new UsageError('give the command once: after check, or with --command');
      options = { ...options, command: options.words.join(' ') };
    }
    if ((options.command === undefined) === (options.path === undefined)) {
      throw new UsageError(
        'give either a command ("<cmd>" or --command "<cmd>") or --path <path> --tool <name>',
      );
    }
    if (options.path !== undefined && options.tool === undefined) {
      throw new UsageError('--path needs --tool <name>, e.g. --tool write_file');
    }
    const loaded = await loadConfigFor(options);
    reportWarnings(loaded.warnings, out);
    // Without --mode, the mode `keel run` would take here (auto where the sandbox works), not a default of its own.
    const mode = await resolveMode(options, loaded.config, 'restricted');
    // The policy, jail and tools a run would open, its rules checked; nothing runs, so nothing is guarded. Without
    // --sandbox or --no-sandbox only auto mode's decisions depend on the sandbox: it is probed there, as a run would
    // (else left out); with one, the sandbox is as a run given it would have (--sandbox where none can be made fails).
    const host = await openToolHost({
      loaded,
      dir: await resolveWorkspaceDir(options.cwd),
      mode,
      allow: options.allow,
      sandbox: options.sandbox ?? (mode === 'auto' ? undefined : false),
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
    const ctx = host.contextFor(new AbortController().signal);
    let decision: PolicyDecision;
    if (parsed.success) decision = await decideCall(tool, parsed.data, policy, ctx);
    // edit_file, move_path, glob, ...: more than a path to make a call of, judged on the path alone.
    else if (options.path !== undefined) decision = await decidePath(tool, options.path, policy, ctx);
    else throw new UsageError(`${tool.name} does not take a command; name a command tool or use --path`);
    out.print(formatDecision(decision, mode, options.json === true));
    return EXIT_FOR[decision.decision];
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json: options.json, out });
  }
}

function formatDecision(decision: PolicyDecision, mode: string, json: boolean): string {
  if (json) {
    const { decision: verdict, reasons, hint } = decision;
    return `${JSON.stringify({ decision: verdict, reasons, ...(hint ? { hint } : {}), mode })}\n`;
  }
  const lines = [`${decision.decision} (mode: ${mode})`, ...decision.reasons.map((r) => `  - ${r}`)];
  if (decision.hint && decision.decision !== 'allow') lines.push(`to allow it: ${decision.hint}`);
  // Reasons quote the command, which may hold control characters: printed escaped.
  return sanitize(`${lines.join('\n')}\n`);
}
