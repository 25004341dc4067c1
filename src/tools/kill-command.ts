// kill_command: ends one of this run's background commands, with every process it started. Only ids this
// run's runner handed out can be named, so no other process can be reached through it.
import * as z from 'zod';
import { findBackground } from './command-output.js';
import { leftoversNote, outputSections, statusText } from './command-text.js';
import { defineTool, ok } from './tool.js';

const schema = z.strictObject({ id: z.string() });

export const killCommandTool = defineTool({
  name: 'kill_command',
  description: 'Stop a background command.',
  schema,
  safety: 'safe',
  async preview(args) {
    return { reads: [], writes: [], summary: `stop background command ${args.id}` };
  },
  async execute(args, ctx) {
    const command = findBackground(args.id, ctx);
    if ('success' in command) return command;
    const status = await command.kill();
    const { stdout, stderr } = command.read();
    const parts = [`${command.id}: ${statusText(status)}`];
    if (status.state === 'exited') parts.push(...leftoversNote(status.leftovers));
    parts.push(...outputSections(stdout, stderr, (n) => `${n} earlier bytes dropped`));
    return ok(parts.join('\n'), {}, `${command.id}: ${statusText(status)}`);
  },
});
