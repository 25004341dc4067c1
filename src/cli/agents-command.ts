// `keel agents list`: the agents the task tool, `@name` in the chat and `keel run --agent` can run, as text or JSON.
import { loadAgents } from '../extend/agent-files.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { sanitize } from '../ui/sanitize.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure } from './report.js';

export async function agentsListCommand(
  options: GlobalOptions,
  out: CommandOutput = processOutput,
): Promise<number> {
  try {
    const workspace = await resolveWorkspaceDir(options.cwd);
    const { agents, warnings } = await loadAgents({ workspace, env: process.env });
    for (const warning of warnings) out.notice(`warning: ${sanitize(warning)}\n`);
    if (options.output !== 'text') {
      const listed = agents.map(({ prompt: _prompt, ...agent }) => agent);
      out.print(`${JSON.stringify(listed)}\n`);
      return 0;
    }
    for (const agent of agents) {
      const details = [
        agent.source,
        `tools: ${agent.tools?.join(', ') ?? 'read-only'}`,
        ...(agent.model ? [`model: ${agent.model}`] : []),
        ...(agent.mode ? [`mode: ${agent.mode}`] : []),
      ];
      out.print(
        `${sanitize(agent.name)}  ${sanitize(agent.description)}\n  ${sanitize(details.join(' · '))}\n`,
      );
    }
    return 0;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json: options.output !== 'text', out });
  }
}
