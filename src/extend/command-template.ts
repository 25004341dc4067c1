// A config-defined tool's command template (`prog --out={{file}} {{query}}`), split into argv once, when the
// config loads, by the bash parser: each word becomes literal text and parameter slots, so a value later fills
// exactly one argv element and no shell ever reads it. Shell syntax in the template itself is refused.
import { randomBytes } from 'node:crypto';
import { analyzeCommand } from '../safety/command/analysis.js';

/** One argv element: literal text and parameter names, in order. */
export type TemplateWord = ({ text: string } | { param: string })[];

const PLACEHOLDER = /\{\{\s*([A-Za-z_]\w*)\s*\}\}/g;

export class TemplateError extends Error {}

/**
 * Splits `template` into words. Placeholders are swapped for letters-only tokens before parsing, so the parser
 * sees plain words, then mapped back. `params`: the declared parameter names (an unknown one is an error).
 */
export async function parseCommandTemplate(
  template: string,
  params: readonly string[],
): Promise<TemplateWord[]> {
  const tag = `KEELP${randomBytes(4).toString('hex')}X`;
  const names: string[] = [];
  const source = template.replace(PLACEHOLDER, (_match, name: string) => {
    if (!params.includes(name)) throw new TemplateError(`{{${name}}} names no parameter`);
    names.push(name);
    return `${tag}${names.length - 1}${tag}`;
  });
  if (/\{\{|\}\}/.test(source)) throw new TemplateError('a placeholder is not of the form {{name}}');
  const analysis = await analyzeCommand(source);
  const [command, ...more] = analysis.commands;
  const issue = analysis.issues[0];
  if (issue) throw new TemplateError(`shell syntax is not supported (${issue.kind.replaceAll('_', ' ')})`);
  if (!command || more.length > 0) throw new TemplateError('it must be one plain command (no ;, &&, |)');
  if (
    !command.literal ||
    command.redirects.length > 0 ||
    command.assignments.length > 0 ||
    command.globs.length > 0
  ) {
    throw new TemplateError('redirections, VAR=value and glob patterns are not supported');
  }
  // The model fills values, never the program.
  if (command.argv[0]?.includes(tag)) throw new TemplateError('the program itself cannot be a {{parameter}}');
  const split = new RegExp(`${tag}(\\d+)${tag}`, 'g');
  return command.argv.map((word) => {
    const parts: TemplateWord = [];
    let last = 0;
    for (const match of word.matchAll(split)) {
      if (match.index > last) parts.push({ text: word.slice(last, match.index) });
      parts.push({ param: names[Number(match[1])]! });
      last = match.index + match[0].length;
    }
    if (last < word.length) parts.push({ text: word.slice(last) });
    return parts;
  });
}
