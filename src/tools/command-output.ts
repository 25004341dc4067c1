// command_output: what a background command wrote since the last look, and whether it still runs.
import * as z from 'zod';
import type { BackgroundCommand } from '../core/runner.js';
import { leftoversNote, outputSections, statusText } from './command-text.js';
import { defineTool, fail, ok, type ToolContext, type ToolResult } from './tool.js';

const schema = z.strictObject({ id: z.string() });

/** The background command `id` of this run, or a failure naming the ones there are. */
export function findBackground(id: string, ctx: ToolContext): BackgroundCommand | ToolResult {
  const command = ctx.runner.background(id);
  if (command) return command;
  const known = ctx.runner.running().map((c) => c.id);
  return fail(
    `no background command ${id}${known.length ? `; running: ${known.join(', ')}` : '; none is running'}`,
  );
}

export const commandOutputTool = defineTool({
  name: 'command_output',
  description: 'New output and status of a background command.',
  schema,
  safety: 'safe',
  async preview(args) {
    return { reads: [], writes: [], summary: `read the output of ${args.id}` };
  },
  async execute(args, ctx) {
    const command = findBackground(args.id, ctx);
    if ('success' in command) return command;
    const { stdout, stderr, status } = command.read();
    const parts = [`${command.id}: ${statusText(status)}`];
    if (status.state === 'exited') parts.push(...leftoversNote(status.leftovers));
    const sections = outputSections(stdout, stderr, (n) => `${n} earlier bytes dropped`);
    parts.push(...(sections.length ? sections : ['(no new output)']));
    return ok(parts.join('\n'), { state: status.state }, `${command.id}: ${statusText(status)}`);
  },
});
