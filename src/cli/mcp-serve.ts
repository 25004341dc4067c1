// `keel mcp serve`: Keel's own tools for another MCP client, under Keel's policy (--mode, default restricted),
// the workspace jail (--cwd), the user's pre_tool/post_tool hooks, checkpoints, the output cap and the audit log —
// all from the run assembly (runtime/tool-host.ts). Nobody can approve over MCP, so a call the policy would ask
// about is refused with the reason, as in a headless run. Only the protocol reaches stdout.
import { serveTools } from '../mcp/server.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { runStamp } from '../runtime/session.js';
import { openToolHost } from '../runtime/tool-host.js';
import type { GlobalOptions } from './global-options.js';
import { chooseMode, type ModeFlags } from './mode-options.js';
import { reportFailure, reportWarnings } from './report.js';
import { loadConfigFor } from './run-options.js';

declare const KEEL_VERSION: string;
const version = typeof KEEL_VERSION === 'string' ? KEEL_VERSION : '0.0.0-dev';

export async function mcpServeCommand(
  options: GlobalOptions & ModeFlags & { sandbox?: boolean },
): Promise<number> {
  try {
    const loaded = await loadConfigFor(options);
    reportWarnings(loaded.warnings);
    const mode = chooseMode(options, loaded.config.agent.terminal.default_mode, 'restricted');
    const serveId = `mcp-${runStamp()}-${process.pid}`;
    const host = await openToolHost({
      loaded,
      dir: await resolveWorkspaceDir(options.cwd),
      mode,
      allow: options.allow,
      sandbox: options.sandbox,
      env: process.env,
      runId: serveId,
      // Only warnings are shown (on stderr); calls and results go to the audit log.
      consumers: [
        (event) => {
          if (event.type === 'warning') reportWarnings([event.message]);
        },
      ],
    });
    let calls = 0;
    await serveTools({
      version,
      tools: () => host.registry.specs(),
      async runTool(name, args, signal) {
        // Each call is one step `keel undo` can take back.
        calls += 1;
        host.checkpoints?.startRun(`${serveId}-${calls}`);
        const call = { id: `mcp-${calls}`, name, input: JSON.stringify(args) };
        const { content, isError } = await host.executor.run(call, calls, signal);
        await host.checkpoints?.settle();
        await host.events.flush();
        return { text: content, isError };
      },
    });
    host.runner.killAll();
    await host.languages.close();
    host.checkpoints?.close();
    return 0;
  } catch (error) {
    return reportFailure(error, { debug: options.debug });
  }
}
