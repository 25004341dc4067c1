// `keel run --command <name> [args...]`: a custom command's expanded text as the goal, its allowed-tools as the
// only tools offered for the run.
import { UsageError } from '../core/errors.js';
import type { AgentEvent } from '../core/events.js';
import { loadPromptCommands } from '../extend/prompt-commands.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { keelDirs } from '../safety/read-jail.js';
import { userSecretLinks } from '../safety/secret-links.js';
import { openWorkspace } from '../safety/workspace.js';
import type { ToolRegistry } from '../tools/registry.js';
import { sanitize } from '../ui/sanitize.js';
import { reportWarnings } from './report.js';

export interface CommandGoal {
  text: string;
  allowedTools?: string[];
}

/** Arguments as one line, quoted where needed so `$1`…`$9` see the same words the shell gave. */
const argumentLine = (args: readonly string[]): string =>
  args.map((arg) => (arg === '' || /[\s"'\\]/.test(arg) ? JSON.stringify(arg) : arg)).join(' ');

export async function commandGoal(
  name: string,
  args: readonly string[],
  cwd: string | undefined,
): Promise<CommandGoal> {
  const workspace = await openWorkspace(
    await resolveWorkspaceDir(cwd),
    [],
    keelDirs(process.env),
    userSecretLinks(process.env),
  );
  const { commands, warnings, refused } = await loadPromptCommands({ workspace, env: process.env });
  const wanted = name.replace(/^\//, '');
  const refusal = refused.get(wanted);
  // The refusal is the error itself: no second line saying the same.
  reportWarnings(
    refusal === undefined ? warnings : warnings.filter((w) => !w.includes(refusal.split(': ')[0]!)),
  );
  if (refusal !== undefined) {
    throw new UsageError(`command "${wanted}" is refused: ${refusal}`, {
      hint: 'a project command must be a file inside the workspace, not a link to one outside it or to a secret',
    });
  }
  // `project:review` too: the chat's name for a command named like one of its built-ins (chat-command-names.ts).
  const command =
    commands.find((c) => c.name === wanted) ?? commands.find((c) => `${c.source}:${c.name}` === wanted);
  if (!command) {
    const available = commands.map((c) => c.name).join(', ');
    const { suggestCommand } = await import('./chat-command-names.js');
    const guess = suggestCommand(
      wanted,
      commands.map((c) => c.name),
    );
    throw new UsageError(`unknown command "${name}"${guess ? `; did you mean ${guess}?` : ''}`, {
      hint: available
        ? `available commands: ${available}`
        : 'no commands found: add Markdown files to .keel/commands/ or to commands/ beside the user config',
    });
  }
  const skipped: string[] = [];
  const text = await command.expand(argumentLine(args), undefined, (s) =>
    skipped.push(`@${sanitize(s.path)}: ${sanitize(s.reason)}; sent as text`),
  );
  reportWarnings(skipped);
  return { text, ...(command.allowedTools ? { allowedTools: command.allowedTools } : {}) };
}

/**
 * Offers only the tools a command allows, also among tools joining later (an MCP server's), until the returned
 * function lifts it (the chat: after the command's turn). A name that matches no tool is a warning, unless it is
 * an MCP tool's (`<server>__<tool>`), whose server may not be ready yet.
 */
export function restrictTools(
  registry: ToolRegistry,
  allowed: readonly string[],
  emit: (event: AgentEvent) => void,
): () => void {
  const unknown = allowed.filter((name) => !registry.get(name) && !name.includes('__'));
  if (unknown.length > 0)
    emit({ type: 'warning', message: `allowed-tools names no tool: ${unknown.join(', ')}` });
  return registry.restrict(allowed);
}
