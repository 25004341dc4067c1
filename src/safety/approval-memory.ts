// The "always" answers of one chat: what each one covers (a whole parsed command, or a tool on its paths) and
// the set of those the user gave, which lives as long as the chat; those kept for the workspace are on disk.
import type { ToolPreview } from '../core/approval.js';
import { analyzeCommand } from './command/analysis.js';
import type { KeptApprovals } from './kept-approvals.js';
import { hostOf } from './network.js';

/** What an "always" answer covers: a key to compare and the same in words for the user. */
export interface ApprovalBinding {
  key: string;
  scope: string;
}

/** Everything around and between a flat list's simple commands (operators, redirections, comments), unspaced. */
function glue(source: string, texts: string[]): string[] | undefined {
  const parts: string[] = [];
  let cursor = 0;
  for (const text of texts) {
    const at = source.indexOf(text, cursor);
    if (at < 0) return undefined;
    parts.push(source.slice(cursor, at).replace(/\s+/g, ''));
    cursor = at + text.length;
  }
  parts.push(source.slice(cursor).replace(/\s+/g, ''));
  return parts;
}

/**
 * The key of a command: every simple command's argv (quotes removed, so `git  'status'` is `git status`) and
 * redirections, plus the operators joining them, so `git status` covers neither `git status; rm -rf x` nor
 * `git push`. A command with any construct beyond a flat list of literal words (substitutions, heredocs,
 * subshells, variables...) is bound to its exact text instead: nothing it hides can differ.
 */
async function commandKey(command: string): Promise<string> {
  const analysis = await analyzeCommand(command);
  const exact = JSON.stringify({ exact: command });
  if (analysis.issues.length > 0 || analysis.commands.length === 0) return exact;
  const between = glue(
    command,
    analysis.commands.map((c) => c.text),
  );
  if (!between) return exact;
  const commands = analysis.commands.map((c) => ({
    argv: c.argv,
    redirects: c.redirects.map((r) => [r.fd ?? '', r.operator, r.target]),
  }));
  return JSON.stringify({ commands, between });
}

/** What "always" binds to for a call: its exact parsed command, a web tool's domain, or the tool on the paths it writes. */
export async function approvalBinding(
  tool: string,
  preview: Pick<ToolPreview, 'command' | 'writes' | 'url'>,
  shown: (path: string) => string = (path) => path,
): Promise<ApprovalBinding> {
  // Web access is approved per domain, for every web tool: a page's links and a search stay on that domain.
  const host = preview.url === undefined ? undefined : hostOf(preview.url);
  if (host !== undefined) return { key: `network\0${host}`, scope: `web access to ${host}` };
  if (preview.command !== undefined) {
    return { key: `${tool}\0${await commandKey(preview.command)}`, scope: 'this exact command' };
  }
  const paths = [...preview.writes].sort();
  if (paths.length === 0) return { key: `${tool}\0`, scope: `every ${tool} call` };
  const where = paths.length === 1 ? shown(paths[0]!) : `these ${paths.length} paths`;
  return { key: `${tool}\0${JSON.stringify(paths)}`, scope: `${tool} on ${where}` };
}

/** The bindings the user answered "always" to in this session, and those kept for the workspace (`A`). */
export class ApprovalMemory {
  private readonly keys = new Set<string>();

  constructor(
    /** The workspace's kept answers; absent: `A` is not offered. */
    readonly kept?: KeptApprovals,
  ) {}

  async covers(binding: ApprovalBinding): Promise<boolean> {
    if (this.keys.has(binding.key)) return true;
    return (await this.kept?.covers(binding)) === true;
  }

  remember(binding: ApprovalBinding): void {
    this.keys.add(binding.key);
  }
}
