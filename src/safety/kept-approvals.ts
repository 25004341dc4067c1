// "Always in this workspace" answers (`A` at an approval): kept in Keel's state dir, one file per workspace (its
// real path's key), never in the repository, which could otherwise grant itself approvals. `/permissions` lists
// them and removes one.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { workspaceKey } from '../config/paths.js';
import { replaceFile } from '../core/replace-file.js';

/** What an answer covers (approval-memory.ts's binding): the key compared, the same in words. */
interface Binding {
  key: string;
  scope: string;
}

/** One kept answer: what it covers (the binding's key), and the same for people. */
export interface KeptApproval {
  key: string;
  tool: string;
  /** The command or the call's summary, as asked. */
  what: string;
  scope: string;
  /** When it was kept (ISO time). */
  added: string;
}

interface KeptFile {
  workspace: string;
  approvals: KeptApproval[];
}

/** Where a workspace's kept answers live. */
export const keptApprovalsFile = (stateDir: string, realRoot: string): string =>
  join(stateDir, 'approvals', `${workspaceKey(realRoot)}.json`);

const isKept = (value: unknown): value is KeptApproval => {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return ['key', 'tool', 'what', 'scope', 'added'].every((k) => typeof v[k] === 'string');
};

export class KeptApprovals {
  constructor(
    private readonly file: string,
    /** The workspace's real path, stored too: a key collision can never grant another workspace's answers. */
    private readonly root: string,
  ) {}

  /** The kept answers; none when the file is missing or not ours (a damaged file grants nothing). */
  async list(): Promise<KeptApproval[]> {
    const text = await readFile(this.file, 'utf8').catch(() => undefined);
    if (text === undefined) return [];
    try {
      const parsed = JSON.parse(text) as Partial<KeptFile>;
      if (parsed.workspace !== this.root || !Array.isArray(parsed.approvals)) return [];
      return parsed.approvals.filter(isKept);
    } catch {
      return [];
    }
  }

  async covers(binding: Binding): Promise<boolean> {
    return (await this.list()).some((a) => a.key === binding.key);
  }

  async keep(binding: Binding, tool: string, what: string): Promise<void> {
    const approvals = await this.list();
    if (approvals.some((a) => a.key === binding.key)) return;
    approvals.push({ key: binding.key, tool, what, scope: binding.scope, added: new Date().toISOString() });
    await this.write(approvals);
  }

  /** Removes the n-th kept answer (1-based, as listed); the one removed, or undefined when there is none. */
  async remove(n: number): Promise<KeptApproval | undefined> {
    const approvals = await this.list();
    const [removed] = Number.isInteger(n) && n >= 1 ? approvals.splice(n - 1, 1) : [];
    if (removed) await this.write(approvals);
    return removed;
  }

  private async write(approvals: KeptApproval[]): Promise<void> {
    const body: KeptFile = { workspace: this.root, approvals };
    await replaceFile(this.file, `${JSON.stringify(body, null, 2)}\n`, { dirMode: 0o700 });
  }
}
