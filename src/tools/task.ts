// task: runs a sub-agent with its own conversation on a self-contained task and gives the model only its final
// answer. The sub-agent is the runtime's (ctx.subagents): same policy, checkpoints, audit and hooks as the run.
import * as z from 'zod';
import type { AgentSummary } from '../core/subagents.js';
import { defineTool, fail, ok } from './tool.js';

// Built when a call is first validated: the model reads the JSON Schema below, so a run that never starts a task
// (most) never builds it.
const makeSchema = () =>
  z.strictObject({
    description: z.string().min(1),
    prompt: z.string().min(1),
    agent: z.string().optional(),
  });
let schema: ReturnType<typeof makeSchema> | undefined;

/** The tool's description, naming the agents a task may ask for (one short line each: it is paid on every request). */
export function taskDescription(agents: readonly AgentSummary[]): string {
  const listed = agents.map((a) => `${a.name}: ${a.description}`).join('; ');
  return (
    'Run a self-contained task in a sub-agent with its own context (read-only tools by default); only its ' +
    'answer returns. Read-only tasks run in parallel.' +
    (listed ? ` Agents: ${listed}.` : '')
  );
}

/** The JSON Schema the model reads: written out, since the agent names change per project. */
function inputSchema(agents: readonly AgentSummary[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      description: { type: 'string', description: '3-5 words' },
      prompt: { type: 'string', description: 'the whole task; it sees nothing else' },
      ...(agents.length > 0 ? { agent: { type: 'string', enum: agents.map((a) => a.name) } } : {}),
    },
    required: ['description', 'prompt'],
  };
}

export function taskTool(agents: readonly AgentSummary[]) {
  return defineTool({
    name: 'task',
    description: taskDescription(agents),
    get schema() {
      schema ??= makeSchema();
      return schema;
    },
    jsonSchema: inputSchema(agents),
    // The task itself changes nothing: each of its sub-agent's calls goes through the policy on its own.
    safety: 'safe',
    async preview(args, ctx) {
      const readOnly = ctx.subagents?.readOnly(args.agent);
      return {
        // It may read anything: a file an earlier call of the turn writes keeps it from running ahead of that call.
        reads: [ctx.workspace.root],
        writes: [],
        summary: `task ${args.agent ?? 'default'}: ${args.description}`,
        ...(readOnly === false ? { sequential: true } : {}),
      };
    },
    async execute(args, ctx) {
      if (!ctx.subagents) return fail('sub-agents are not available in this run');
      let outcome: Awaited<ReturnType<typeof ctx.subagents.run>>;
      try {
        outcome = await ctx.subagents.run(
          {
            callId: ctx.callId ?? 'task',
            description: args.description,
            prompt: args.prompt,
            agent: args.agent,
          },
          { signal: ctx.signal, emit: ctx.emit },
        );
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error));
      }
      const { usage } = outcome;
      const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
      const spent = `${plural(outcome.turns, 'turn')}, ${plural(outcome.toolCalls, 'tool call')}, ${usage.input_tokens} in / ${usage.output_tokens} out tokens`;
      const metadata = {
        agent: outcome.agent,
        reason: outcome.reason,
        turns: outcome.turns,
        tool_calls: outcome.toolCalls,
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
      };
      const note = outcome.note ? `\n[${outcome.note}]` : '';
      const footer = `\n[task ${outcome.agent}: ${spent}]${note}`;
      if (outcome.reason !== 'done') {
        const partial = outcome.answer ? `; its last answer:\n${outcome.answer}` : '';
        return fail(`the sub-agent stopped (${outcome.reason})${partial}${footer}`, metadata);
      }
      const firstLine = outcome.answer.split('\n')[0] ?? '';
      return ok(`${outcome.answer}${footer}`, metadata, `${outcome.agent}: ${firstLine} (${spent})`);
    },
  });
}
