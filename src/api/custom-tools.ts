// A library caller's tool as a Keel tool: its schema offered to the model, its arguments validated, its calls run
// through the executor like any other (policy, approval, hooks, audit log, output cap), its failures results.
import * as z from 'zod';
import { UsageError } from '../core/errors.js';
import { defineJsonSchemaTool, fail, ok, type Tool, type ToolResult } from '../tools/tool.js';
import type { CustomTool, CustomToolOutput, ZodLike } from './types.js';

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function isZod(parameters: CustomTool['parameters']): parameters is ZodLike {
  return typeof (parameters as Partial<ZodLike>).safeParse === 'function';
}

/** The JSON Schema the model reads for a zod schema (fields with defaults stay optional, as the model may omit them). */
function zodJsonSchema(name: string, schema: ZodLike): Record<string, unknown> {
  try {
    const { $schema: _ignored, ...json } = z.toJSONSchema(schema as unknown as z.ZodType, { io: 'input' });
    return json;
  } catch (error) {
    throw new UsageError(`tool ${name}: its zod schema cannot be converted to JSON Schema`, {
      hint: `use zod 4, or give the parameters as JSON Schema (${error instanceof Error ? error.message : error})`,
    });
  }
}

/**
 * A tool's arguments are named fields: providers refuse any other schema (HTTP 400 on every request), and one zod
 * cannot read would check nothing. Said when the agent is created, rather than by the first request.
 */
function checkParameters(name: string, json: Record<string, unknown>, fromJson: boolean): void {
  const hint =
    "e.g. { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, or z.object({ … })";
  if (json.type !== undefined && json.type !== 'object')
    throw new UsageError(
      `custom tool ${name}: parameters must describe an object of named arguments, not type ${JSON.stringify(json.type)}`,
      { hint },
    );
  if (!fromJson) return;
  try {
    z.fromJSONSchema(json);
  } catch (error) {
    throw new UsageError(
      `custom tool ${name}: its parameters are not a JSON Schema Keel can check arguments with`,
      {
        hint: `${error instanceof Error ? error.message : String(error)}; ${hint}`,
      },
    );
  }
}

function result(output: CustomToolOutput): ToolResult {
  if (typeof output === 'string') return ok(output);
  if (output && typeof output.output === 'string')
    return output.isError ? fail(output.output) : ok(output.output);
  return fail(`the tool returned ${JSON.stringify(output)}, not a string or { output }`);
}

export function customTool(custom: CustomTool): Tool {
  if (typeof custom.name !== 'string' || !TOOL_NAME.test(custom.name)) {
    throw new UsageError(`custom tool name ${JSON.stringify(custom.name)} is not valid`, {
      hint: 'use 1 to 64 letters, digits, _ or -',
    });
  }
  if (typeof custom.run !== 'function')
    throw new UsageError(`custom tool ${custom.name} has no run function`);
  const { name, description } = custom;
  const safety = custom.safety ?? 'caution';
  const execute = async (args: unknown, ctx: { signal: AbortSignal; workspace: { root: string } }) => {
    try {
      return result(await custom.run(args, { signal: ctx.signal, cwd: ctx.workspace.root }));
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
  };
  // No preview of its writes: the policy treats it as "another tool that may change things" unless it is safe.
  const preview = async (args: unknown) => ({
    reads: [],
    writes: [],
    summary: `${name} ${JSON.stringify(args) ?? ''}`.slice(0, 200),
  });
  if (isZod(custom.parameters)) {
    const jsonSchema = zodJsonSchema(name, custom.parameters);
    checkParameters(name, jsonSchema, false);
    return {
      name,
      description,
      schema: custom.parameters as unknown as z.ZodType,
      jsonSchema,
      safety,
      preview,
      execute,
    };
  }
  if (typeof custom.parameters !== 'object' || custom.parameters === null || Array.isArray(custom.parameters))
    throw new UsageError(`custom tool ${name}: parameters must be a JSON Schema object or a zod schema`);
  checkParameters(name, custom.parameters, true);
  return defineJsonSchemaTool({
    name,
    description,
    inputSchema: custom.parameters,
    safety,
    preview,
    execute,
  });
}
