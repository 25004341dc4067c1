// A config-defined tool's arguments → argv: every value checked against its type and template_validations
// (pattern, max_length), refused when it would read as an option (a leading `-`), paths jailed to the workspace;
// then each fills its slot of the template's words. The model reads every refusal as the tool's error.
import type { CustomParameter } from '../config/extend-schema.js';
import type { Workspace } from '../safety/workspace.js';
import type { TemplateWord } from './command-template.js';

export class ArgumentError extends Error {}

/** The JSON Schema the model is offered: one property per parameter, with the same checks stated. */
export function parametersSchema(params: Record<string, CustomParameter>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(params)) {
    const base = p.description ? { description: p.description } : {};
    if (p.type === 'number') properties[name] = { ...base, type: 'number' };
    else if (p.type === 'boolean') properties[name] = { ...base, type: 'boolean' };
    else if (p.type === 'enum') properties[name] = { ...base, type: 'string', enum: p.values };
    else {
      properties[name] = {
        ...base,
        type: 'string',
        ...(p.type === 'path' && !p.description ? { description: 'a path in the workspace' } : {}),
        ...(p.pattern !== undefined ? { pattern: anchored(p.pattern) } : {}),
        ...(p.max_length !== undefined ? { maxLength: p.max_length } : {}),
      };
    }
  }
  const required = Object.entries(params)
    .filter(([, p]) => p.required)
    .map(([name]) => name);
  return { type: 'object', properties, required, additionalProperties: false };
}

/** A pattern must match the whole value, not a part of it. */
export const anchored = (pattern: string): string => `^(?:${pattern})$`;

/** One value as its argv text, or an ArgumentError saying what is wrong with it. */
async function checkedValue(
  name: string,
  p: CustomParameter,
  value: unknown,
  workspace: Workspace,
): Promise<string> {
  const expected = p.type === 'enum' || p.type === 'path' ? 'string' : p.type;
  if (typeof value !== expected || (typeof value === 'number' && !Number.isFinite(value))) {
    throw new ArgumentError(`${name} must be a ${expected}`);
  }
  const text = String(value);
  if (text.includes('\0')) throw new ArgumentError(`${name} contains a NUL character`);
  if (p.max_length !== undefined && text.length > p.max_length) {
    throw new ArgumentError(`${name} is longer than ${p.max_length} characters`);
  }
  if (p.pattern !== undefined && !new RegExp(anchored(p.pattern), 'u').test(text)) {
    throw new ArgumentError(`${name} does not match the pattern ${p.pattern}`);
  }
  if (p.type === 'enum' && !p.values?.includes(text)) {
    throw new ArgumentError(`${name} must be one of: ${p.values?.join(', ')}`);
  }
  if (text.startsWith('-') && !p.allow_dash) {
    throw new ArgumentError(
      `${name} may not start with "-" (it would be read as an option); pass a value without a leading dash`,
    );
  }
  // The jailed absolute path: `../x` and links out are refused, and `./-rf` cannot turn into an option.
  if (p.type === 'path') return workspace.resolve(text);
  return text;
}

export interface BoundArgs {
  values: Map<string, string>;
  /** Absolute paths of the path parameters. */
  paths: string[];
}

/** Checks every argument; unknown names and missing required ones are errors too. */
export async function bindArguments(
  params: Record<string, CustomParameter>,
  args: Record<string, unknown>,
  workspace: Workspace,
): Promise<BoundArgs> {
  const unknown = Object.keys(args).filter((name) => !(name in params));
  if (unknown.length > 0) throw new ArgumentError(`unknown parameter ${unknown.join(', ')}`);
  const values = new Map<string, string>();
  const paths: string[] = [];
  for (const [name, p] of Object.entries(params)) {
    const value = args[name];
    if (value === undefined || value === null) {
      if (p.required) throw new ArgumentError(`missing required parameter ${name}`);
      continue;
    }
    const text = await checkedValue(name, p, value, workspace);
    values.set(name, text);
    if (p.type === 'path') paths.push(text);
  }
  return { values, paths };
}

/** The template's words with the values filled in; a word naming an absent optional parameter is left out. */
export function fillTemplate(words: readonly TemplateWord[], values: ReadonlyMap<string, string>): string[] {
  const argv: string[] = [];
  for (const word of words) {
    if (word.some((part) => 'param' in part && !values.has(part.param))) continue;
    argv.push(word.map((part) => ('param' in part ? values.get(part.param)! : part.text)).join(''));
  }
  return argv;
}

/** A script's argv: the program, then every declared parameter in order (an absent one as ""). */
export function scriptArgv(
  script: string,
  params: Record<string, CustomParameter>,
  values: ReadonlyMap<string, string>,
): string[] {
  return [script, ...Object.keys(params).map((name) => values.get(name) ?? '')];
}

/** argv as one bash command line that parses back to exactly these words: what the policy and the user see. */
export function shellQuote(argv: readonly string[]): string {
  return argv
    .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`))
    .join(' ');
}
