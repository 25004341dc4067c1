// `keel mcp serve`: Keel's own tools for another MCP client, under Keel's policy (--mode, default restricted),
// the workspace jail (--cwd), checkpoints and the audit log. Nobody can approve over MCP, so a call the policy
// would ask about is refused with the reason, as in a headless run. Only the protocol reaches stdout.
import { join } from 'node:path';
import { createCheckpointer } from '../checkpoint/checkpointer.js';
import { cacheDir } from '../config/paths.js';
import { configSecrets } from '../config/secrets.js';
import { createEventStream } from '../core/events.js';
import { serveTools } from '../mcp/server.js';
import { auditLogPath, createAuditLog } from '../safety/audit.js';
import { COMMAND_TOOL } from '../safety/policy.js';
import { createRedactor } from '../safety/redact.js';
import { createTripwire } from '../safety/tripwire.js';
import { executeToolCall, formatForModel } from '../tools/executor.js';
import { createOutputStore } from '../tools/output-cap.js';
import { createRegistry, defaultTools } from '../tools/registry.js';
import type { ToolContext } from '../tools/tool.js';
import type { GlobalOptions } from './global-options.js';
import { chooseMode, type ModeFlags } from './mode-options.js';
import { reportFailure, reportWarnings } from './report.js';
import { openSafety } from './safety-setup.js';
import { runStamp } from './session-setup.js';
import { loadConfigFor, outputCap, resolveWorkspaceDir } from './setup.js';

declare const KEEL_VERSION: string;
const version = typeof KEEL_VERSION === 'string' ? KEEL_VERSION : '0.0.0-dev';

export async function mcpServeCommand(
  options: GlobalOptions & ModeFlags & { sandbox?: boolean },
): Promise<number> {
  try {
    const loaded = await loadConfigFor(options);
    reportWarnings(loaded.warnings);
    const { config } = loaded;
    const mode = chooseMode(options, config.agent.terminal.default_mode, 'restricted');
    const { state, outputRoot, workspace, commands, policy } = await openSafety(loaded, {
      dir: await resolveWorkspaceDir(options.cwd),
      mode,
      sandbox: options.sandbox,
      allow: options.allow,
    });
    if (commands.warning) reportWarnings([commands.warning]);
    const registry = createRegistry(defaultTools());
    if (!config.safety.allow_command_execution) {
      for (const name of [COMMAND_TOOL, 'command_output', 'kill_command']) registry.remove(name);
    }
    const audit = createAuditLog({
      file: auditLogPath(state),
      cwd: workspace.root,
      redact: createRedactor(process.env, [...configSecrets(config), ...(loaded.secrets ?? [])]),
      audited: (name) => (registry.get(name)?.safety ?? 'safe') !== 'safe',
      onError: (error) => reportWarnings([`audit log not written: ${String(error)}`]),
    });
    // Only warnings are shown (on stderr); calls and results go to the audit log.
    const events = createEventStream(audit, (event) => {
      if (event.type === 'warning') reportWarnings([event.message]);
    });
    const serveId = `mcp-${runStamp()}-${process.pid}`;
    const checkpoints = createCheckpointer({
      root: workspace.root,
      stateDir: state,
      env: process.env,
      maxIgnoredKb: config.checkpoints.max_ignored_file_kb,
      warn: (message) => events.emit({ type: 'warning', message }),
    });
    const saveOutput = createOutputStore(join(outputRoot, serveId));
    const tripwire = createTripwire({
      root: workspace.root,
      globs: config.safety.protected_paths,
      env: process.env,
    });
    let calls = 0;
    await serveTools({
      version,
      tools: () => registry.specs(),
      async runTool(name, args, signal) {
        // Each call is one step `keel undo` can take back.
        calls += 1;
        checkpoints.startRun(`${serveId}-${calls}`);
        const ctx: ToolContext = {
          workspace,
          policy,
          signal,
          emit: events.emit,
          limits: {
            maxOutputSize: outputCap(
              config.agent.tools.max_output_size,
              config.agent.conversation.max_tokens,
            ),
            maxFileReadSize: config.agent.tools.max_file_read_size,
            commandTimeoutMs: config.agent.terminal.timeout_seconds * 1000,
            maxStdoutBytes: config.agent.terminal.max_stdout_bytes,
            maxStderrBytes: config.agent.terminal.max_stderr_bytes,
          },
          runner: commands.runner,
          stateDir: state,
          cacheDir: cacheDir(process.env),
          saveOutput,
          tripwire,
          beforeChange: (change) => checkpoints.take(change),
        };
        const call = { id: `mcp-${calls}`, name, input: JSON.stringify(args) };
        const result = await executeToolCall(call, calls, registry, ctx);
        await events.flush();
        return { text: formatForModel(result), isError: !result.success };
      },
    });
    commands.runner.killAll();
    return 0;
  } catch (error) {
    return reportFailure(error, { debug: options.debug });
  }
}
