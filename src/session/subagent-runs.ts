// A saved session's sub-agent work, for export and for the history a resumed run or chat shows first.
import type { AgentEvent } from '../core/events.js';

/**
 * What each task's sub-agent did, by the task call's id: one line per tool call (`✓ read_file {"path":"a.ts"} →
 * …`), indented one step per nested task. Its conversation is not the session's, so it is shown only this way.
 */
export function subagentRuns(events: readonly AgentEvent[]): Map<string, string[]> {
  const runs = new Map<string, string[]>();
  const inputs = new Map<string, string>();
  for (const e of events) {
    if (e.parent === undefined) continue;
    const [top = e.parent, ...nested] = e.parent.split('/');
    if (e.type === 'tool_call') inputs.set(`${e.parent} ${e.id}`, JSON.stringify(e.args) ?? '');
    if (e.type !== 'tool_result') continue;
    const input = (inputs.get(`${e.parent} ${e.id}`) ?? '').slice(0, 120);
    const outcome = (e.success ? e.display : (e.error ?? e.display)).split('\n')[0] ?? '';
    const line = `${'  '.repeat(nested.length)}${e.success ? '✓' : '✗'} ${e.name} ${input} → ${outcome}`;
    runs.set(top, [...(runs.get(top) ?? []), line]);
  }
  return runs;
}
