// The end of a plan run on stderr: when it stops with instructions not done (turn limit, interrupt, failure, or an
// answer with steps left), which ones, so nobody mistakes a partial run for a finished plan.
import type { AgentEvent, EventSink } from '../core/events.js';
import { trackPlan } from '../plan/progress.js';
import type { Style } from './style.js';
import { todoLine } from './todo-list.js';

export interface PlanReportOptions {
  stderr: NodeJS.WritableStream;
  style: Style;
  instructions: readonly string[];
  ascii: boolean;
}

export function createPlanReport(options: PlanReportOptions): EventSink {
  const { stderr, style } = options;
  const tracker = trackPlan(options.instructions);
  return (event: AgentEvent) => {
    if (event.type === 'todo') tracker.update(event.todos);
    if (event.type !== 'run_end' || event.parent !== undefined) return;
    const steps = tracker.steps();
    const left = steps.filter((step) => step.status !== 'done');
    if (left.length === 0) return;
    const lines = left.map((step) =>
      todoLine({ id: step.id, content: step.instruction, status: step.status }, style, options.ascii),
    );
    const done = steps.length - left.length;
    stderr.write(
      `${style.yellow('plan not finished:')} ${done} of ${steps.length} instructions done; not done:\n${lines.join('\n')}\n`,
    );
  };
}
