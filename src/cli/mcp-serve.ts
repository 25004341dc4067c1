// `keel mcp serve`: Keel's own tools for another MCP client, under Keel's policy (--mode, default restricted),
// the workspace jail (--cwd), the user's pre_tool/post_tool hooks, checkpoints, the output cap and the audit log —
// all from the run assembly (runtime/tool-host.ts). Nobody can approve over MCP, so a call the policy would ask
// about is refused with the reason, as in a headless run. Only the protocol reaches stdout.

import type { ToolSpec } from '../core/model.js';
import { serveTools } from '../mcp/server.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { runStamp } from '../runtime/session.js';
import { openToolHost, type ToolHost } from '../runtime/tool-host.js';
import type { ExecutionMode } from '../safety/policy.js';
import { offeredInPlanMode, type ToolRegistry } from '../tools/registry.js';
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
    await serveTools({
      version,
      tools: () => servedSpecs(host.registry, mode),
      runTool: servedCalls(host, serveId),
    });
    host.runner.killAll();
    await host.languages.close();
    host.checkpoints?.close();
    return 0;
  } catch (error) {
    return reportFailure(error, { debug: options.debug });
  }
}

/** The tools a client is offered: in plan mode only those that plan, as a run offers (the policy refuses the rest). */
export function servedSpecs(registry: ToolRegistry, mode: ExecutionMode): ToolSpec[] {
  const specs = registry.specs();
  if (mode !== 'plan') return specs;
  return specs.filter((spec) =>
    offeredInPlanMode(registry.get(spec.name) ?? { name: spec.name, safety: 'dangerous' }),
  );
}

/**
 * How each call a client sends runs: one step `keel undo` can take back, with its own checkpoint. A client may send
 * calls at once; those that may change files run one at a time, in the order they came — checkpoint, change, the
 * state it left — or their checkpoints would interleave and one undo step would hold all their changes. Read-only
 * ones run beside them, as a turn's do in the agent loop.
 */
export function servedCalls(
  host: Pick<ToolHost, 'executor' | 'checkpoints' | 'events'>,
  serveId: string,
): (name: string, args: unknown, signal: AbortSignal) => Promise<{ text: string; isError: boolean }> {
  let calls = 0;
  // Settles when every call that came so far and may change files has finished.
  let changing: Promise<void> = Promise.resolve();
  return async (name, args, signal) => {
    calls += 1;
    const n = calls;
    const call = { id: `mcp-${n}`, name, input: JSON.stringify(args) };
    // The call's place in line is kept while it is assessed.
    const before = changing;
    let done = () => {};
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    changing = before.then(() => finished);
    let outcome: { content: string; isError: boolean };
    try {
      const assessed = await host.executor.assess?.(call, n, signal);
      if (assessed?.readOnly) {
        done();
        // Decided again as it runs: a change running beside it may have changed what the policy would say.
        outcome = await host.executor.run(call, n, signal);
      } else {
        await before;
        host.checkpoints?.startRun(`${serveId}-${n}`);
        try {
          outcome = await host.executor.run(call, n, signal);
        } finally {
          await host.checkpoints?.settle();
        }
      }
    } finally {
      done();
    }
    await host.events.flush();
    return { text: outcome.content, isError: outcome.isError };
  };
}
