// The config keys that extend Keel without TypeScript: tools defined in config (`tools.custom`) and hooks.
// A project file sets them only in a trusted folder (config/trust.ts: `tools.`, `hooks.`).
import * as z from 'zod';

const parameterTypes = ['string', 'number', 'boolean', 'enum', 'path'] as const;

/** One parameter of a config-defined tool, with its template_validations (pattern, max_length). */
const customParameter = z
  .object({
    type: z.enum(parameterTypes).default('string'),
    description: z.string().default(''),
    /** enum: the allowed values. */
    values: z.array(z.string()).min(1).optional(),
    /** A regular expression the whole value must match. */
    pattern: z.string().optional(),
    max_length: z.number().int().positive().optional(),
    required: z.boolean().default(true),
    /** Let a value start with `-` (otherwise refused: it would read as an option). */
    allow_dash: z.boolean().default(false),
  })
  .strict()
  .refine((p) => p.type !== 'enum' || p.values !== undefined, { message: 'an enum parameter needs values' });

export type CustomParameter = z.infer<typeof customParameter>;

const customTool = z
  .object({
    description: z.string().min(1),
    parameters: z.record(z.string().regex(/^[A-Za-z_][\w]*$/), customParameter).default({}),
    /** `prog --flag {{param}}`: split into argv once; each `{{param}}` fills one argv element. */
    command: z.string().min(1).optional(),
    /** A program run directly with the parameters as its arguments, in the order they are declared. */
    script: z.string().min(1).optional(),
    timeout_seconds: z.number().int().positive().optional(),
    /** cmd2ai's spelling of the checks: parameter → {pattern, max_length}, the same as setting them on it. */
    template_validations: z
      .record(
        z.string(),
        z
          .object({ pattern: z.string().optional(), max_length: z.number().int().positive().optional() })
          .strict(),
      )
      .default({}),
  })
  .strict()
  .refine((t) => (t.command === undefined) !== (t.script === undefined), {
    message: 'give either command or script',
  });

export type CustomToolConfig = z.infer<typeof customTool>;

export const customToolsSchema = z
  .object({
    custom: z
      .record(z.string().regex(/^[A-Za-z][\w-]{0,63}$/), customTool)
      .default({})
      .describe('tools defined in config: name → {description, parameters, command | script}'),
  })
  .strict()
  .prefault({})
  .describe('tools defined in config');

const hook = z
  .object({
    match: z.string().min(1).default('*'),
    command: z.string().min(1),
    timeout_seconds: z.number().int().positive().default(30),
  })
  .strict();

export type HookConfig = z.infer<typeof hook>;

const hookList = z.array(hook).default([]);

export const hooksSchema = z
  .object({
    pre_tool: hookList.describe('before a tool call runs; exit 2 blocks it, stderr is the reason'),
    post_tool: hookList.describe('after a tool call ran, with its result'),
    session_start: hookList.describe('when a run or chat starts'),
    stop: hookList.describe('when a run or chat turn ends'),
  })
  .strict()
  .prefault({})
  .describe('commands run on agent events, given a JSON event on stdin');

export type HooksConfig = z.infer<typeof hooksSchema>;
