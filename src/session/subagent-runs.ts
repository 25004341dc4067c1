// A saved session's sub-agent work, for export and for the history a resumed run or chat shows first.
import type { AgentEvent } from '../core/events.js';

/**
 * What each task's sub-agent did, by the task call's id: one line per tool call (`✓ read_file {"path":"a.ts"} →
 * …`), indented one step per nested task. Its conversation is not the session's, so it is shown only this way.
 */
export function subagentRuns(events: readonly AgentEvent[]): Map<string, string[]> {
  const runs = new SubagentRuns();
  for (const e of events) runs.add(e);
  return runs.byTask;
}

/** The same, event by event (a session read line by line): `byTask` holds the runs of the events added so far. */
export class SubagentRuns {
  readonly byTask = new Map<string, string[]>();
  /** Each sub-agent call's input, as shown, until its result comes. */
  readonly #inputs = new Map<string, string>();

  add(e: AgentEvent): void {
    if (e.parent === undefined) return;
    const [top = e.parent, ...nested] = e.parent.split('/');
    // Only as much of an input as a line shows is kept (a write_file's may hold a whole file).
    if (e.type === 'tool_call')
      this.#inputs.set(`${e.parent} ${e.id}`, (JSON.stringify(e.args) ?? '').slice(0, 120));
    if (e.type !== 'tool_result') return;
    const input = this.#inputs.get(`${e.parent} ${e.id}`) ?? '';
    const outcome = (e.success ? e.display : (e.error ?? e.display)).split('\n')[0] ?? '';
    const line = `${'  '.repeat(nested.length)}${e.success ? '✓' : '✗'} ${e.name} ${input} → ${outcome}`;
    const run = this.byTask.get(top);
    if (run) run.push(line);
    else this.byTask.set(top, [line]);
  }
}

export interface TaskRun {
  /** The task call's id. */
  id: string;
  /** The task's description (its `description` argument), or its agent's name. */
  description: string;
  lines: string[];
}

/** The session's tasks in the order they were called, each with what its sub-agent did (`/tasks`). */
export function taskRuns(events: readonly AgentEvent[]): TaskRun[] {
  const runs = subagentRuns(events);
  const tasks: TaskRun[] = [];
  for (const e of events) {
    if (e.type !== 'tool_call' || e.parent !== undefined || e.name !== 'task') continue;
    const args = (e.args ?? {}) as { description?: unknown; agent?: unknown };
    const description =
      typeof args.description === 'string' ? args.description : String(args.agent ?? 'task');
    tasks.push({ id: e.id, description, lines: runs.get(e.id) ?? [] });
  }
  return tasks;
}
