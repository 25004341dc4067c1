// Tools defined in config (`tools.custom.<name>`): a command template or a script, run with checked values as
// separate argv elements through ctx.runner, never a shell. The preview's command is that exact argv, quoted, so
// the command policy (denylist, modes, the user's rules), approvals and audit judge what really runs.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { CustomToolConfig } from '../config/extend-schema.js';
import { ConfigError } from '../core/errors.js';
import { clip } from '../core/text.js';
import { runForeground } from '../tools/execute-command.js';
import { defineJsonSchemaTool, fail, type Tool, type ToolContext, type ToolResult } from '../tools/tool.js';
import { parseCommandTemplate, TemplateError, type TemplateWord } from './command-template.js';
import {
  ArgumentError,
  anchored,
  bindArguments,
  fillTemplate,
  parametersSchema,
  scriptArgv,
  shellQuote,
} from './custom-args.js';

export interface CustomToolOptions {
  /** Where a relative `script` is looked for, in order: the defining config file's folder, then the workspace. */
  scriptDirs: readonly string[];
  /** Why a found script must not run (a project's script linked out of the workspace), or undefined. */
  refuseScript?: (file: string) => Promise<string | undefined>;
  /** Told of each tool left out (its script refused). */
  warn?: (message: string) => void;
}

function configError(name: string, key: string, message: string): ConfigError {
  return new ConfigError(`tools.custom.${name}.${key}: ${message}`, {
    hint: 'see "Custom tools" in the README',
  });
}

function findScript(name: string, script: string, dirs: readonly string[]): string {
  if (isAbsolute(script)) return script;
  const found = dirs.map((dir) => resolve(dir, script)).find((file) => existsSync(file));
  if (!found) throw configError(name, 'script', `${script} not found in ${dirs.join(' or ')}`);
  return found;
}

/** The parameters with their template_validations folded in; a check set in both places is an error. */
function withValidations(name: string, def: CustomToolConfig): CustomToolConfig['parameters'] {
  const parameters = { ...def.parameters };
  for (const [param, checks] of Object.entries(def.template_validations)) {
    const p = parameters[param];
    const key = `template_validations.${param}`;
    if (!p) throw configError(name, key, 'names no parameter');
    if ((checks.pattern && p.pattern) || (checks.max_length && p.max_length)) {
      throw configError(name, key, 'a check is set both here and on the parameter; keep one');
    }
    parameters[param] = { ...p, ...checks };
  }
  return parameters;
}

/** Checks the definition (template, patterns, script) and makes the tool; a bad definition is a ConfigError. */
export async function customTool(
  name: string,
  def: CustomToolConfig,
  options: CustomToolOptions,
): Promise<Tool> {
  def = { ...def, parameters: withValidations(name, def) };
  for (const [param, p] of Object.entries(def.parameters)) {
    if (p.pattern === undefined) continue;
    try {
      new RegExp(anchored(p.pattern), 'u');
    } catch (error) {
      throw configError(name, `parameters.${param}.pattern`, (error as Error).message);
    }
  }
  let words: TemplateWord[] | undefined;
  if (def.command !== undefined) {
    try {
      words = await parseCommandTemplate(def.command, Object.keys(def.parameters));
    } catch (error) {
      if (error instanceof TemplateError) throw configError(name, 'command', error.message);
      throw error;
    }
  }
  const script = def.script === undefined ? undefined : findScript(name, def.script, options.scriptDirs);

  async function argvFor(args: Record<string, unknown>, ctx: ToolContext) {
    const bound = await bindArguments(def.parameters, args, ctx.workspace);
    const argv = words
      ? fillTemplate(words, bound.values)
      : scriptArgv(script!, def.parameters, bound.values);
    return { argv, paths: bound.paths };
  }

  return defineJsonSchemaTool({
    name,
    description: def.description,
    inputSchema: parametersSchema(def.parameters),
    safety: 'dangerous',
    async preview(args, ctx) {
      const { argv, paths } = await argvFor(args, ctx);
      const command = shellQuote(argv);
      return { reads: paths, writes: [], command, summary: `run ${name}: \`${clip(command, 200)}\`` };
    },
    async execute(args, ctx): Promise<ToolResult> {
      let argv: string[];
      try {
        ({ argv } = await argvFor(args, ctx));
      } catch (error) {
        if (error instanceof ArgumentError) return fail(error.message);
        throw error;
      }
      const timeoutMs = Math.min(ctx.limits.commandTimeoutMs, (def.timeout_seconds ?? Infinity) * 1000);
      // The script runs from beside the user's config too, a folder the sandbox hides: it is shown, read-only.
      const readable = script === undefined ? {} : { readable: [script] };
      return runForeground({ command: shellQuote(argv), argv, ...readable }, timeoutMs, ctx, {
        subject: name,
        display: name,
      });
    },
  });
}

/** Every tool of `tools.custom`, in config order. */
export async function customTools(
  defs: Record<string, CustomToolConfig>,
  options: CustomToolOptions,
): Promise<Tool[]> {
  const tools: Tool[] = [];
  for (const [name, def] of Object.entries(defs)) {
    const script = def.script === undefined ? undefined : findScript(name, def.script, options.scriptDirs);
    const refused = script === undefined ? undefined : await options.refuseScript?.(script);
    if (refused !== undefined) {
      options.warn?.(`tool ${name} left out: its script ${script} is skipped: ${refused}`);
      continue;
    }
    tools.push(await customTool(name, def, options));
  }
  return tools;
}
