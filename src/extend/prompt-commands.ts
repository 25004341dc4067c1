// Custom slash commands: Markdown files in `.keel/commands/` (project) and `<config dir>/commands/` (user), named
// by their path (`review.md` → review, `git/commit.md` → git:commit; a project command hides a user one of the
// same name). YAML front matter gives `description`, `allowed-tools` and `argument-hint`; the body, with
// `$ARGUMENTS` and `$1`…`$9` filled and `@path` files included, becomes the user message.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import * as z from 'zod';
import { userConfigPath } from '../config/paths.js';
import { once } from '../core/once.js';
import type { PromptCommand } from '../core/prompt-command.js';
import { createReadJail, type ReadJail, skippedWarning } from '../safety/read-jail.js';
import type { Workspace } from '../safety/workspace.js';
import { includeFiles } from './file-includes.js';

/** `<workspace>/.keel/commands`. */
export const projectCommandsDir = (workspace: string): string => join(workspace, '.keel', 'commands');
/** `<config dir>/commands`, beside the user config file. */
export const userCommandsDir = (env: NodeJS.ProcessEnv): string =>
  join(dirname(userConfigPath(env)), 'commands');

/** A list of tool names: Claude Code writes it as one comma-separated string; a YAML list works too. */
export const toolList = once(() =>
  z
    .union([z.array(z.string()), z.string()])
    .optional()
    .transform((value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean)
        : value,
    ),
);

const frontMatterSchema = once(() =>
  z
    .object({
      description: z.string().optional(),
      'allowed-tools': toolList(),
      'argument-hint': z.string().optional(),
    })
    .loose(),
);

export interface LoadedCommands {
  commands: PromptCommand[];
  /** One per file that could not be read or whose front matter is malformed; that file is left out. */
  warnings: string[];
  /** Project commands skipped by the read jail (a link out of the workspace or into a secret), with why. */
  refused: Map<string, string>;
}

async function markdownFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return names
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(dir, name))
    .sort();
}

/** `---\nyaml\n---\nbody` → its parts; a file without front matter is all body. */
export async function splitFrontMatter(text: string): Promise<{ meta: unknown; body: string }> {
  const match = text.match(/^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/);
  if (!match) return { meta: {}, body: text };
  const { parse } = await import('yaml');
  return { meta: parse(match[1]!) ?? {}, body: text.slice(match[0].length) };
}

/** Splits arguments into words as a shell would for `$1`…`$9` (quotes group, and are removed). */
export function argumentWords(args: string): string[] {
  const words: string[] = [];
  for (const match of args.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    words.push(match[1]?.replace(/\\(.)/g, '$1') ?? match[2] ?? match[3]!);
  }
  return words;
}

/**
 * The body with its placeholders filled; without any, the arguments follow the body. `@$1` naming a path with
 * spaces is quoted (`@"my file.ts"`), so the file is still included.
 */
export function fillPlaceholders(body: string, args: string): string {
  const words = argumentWords(args);
  let used = false;
  const filled = body.replace(/(@?)\$(ARGUMENTS|[1-9])\b/g, (_match, at: string, key: string) => {
    used = true;
    const value = key === 'ARGUMENTS' ? args : (words[Number(key) - 1] ?? '');
    return at && /\s/.test(value) && !value.includes('"') ? `@"${value}"` : `${at}${value}`;
  });
  return used || args.trim() === '' ? filled : `${filled.trimEnd()}\n\n${args}`;
}

/** `git/commit.md` → git:commit. */
const commandName = (root: string, file: string): string =>
  relative(root, file).replace(/\.md$/, '').split(/[\\/]/).join(':');

async function commandFrom(
  file: string,
  root: string,
  source: string,
  workspace: Workspace,
  jail: ReadJail,
  real = file,
): Promise<PromptCommand> {
  const { meta, body } = await splitFrontMatter(await readFile(real, 'utf8'));
  const front = frontMatterSchema().parse(meta);
  const name = commandName(root, file);
  const firstLine = body.trim().split('\n')[0] ?? '';
  return {
    name,
    description: front.description ?? firstLine.slice(0, 80),
    source,
    ...(front['allowed-tools'] ? { allowedTools: front['allowed-tools'] } : {}),
    ...(front['argument-hint'] ? { argumentHint: front['argument-hint'] } : {}),
    includesFiles: true,
    expand: (args, signal, skipped) =>
      includeFiles(fillPlaceholders(body, args), workspace, signal, jail, skipped),
  };
}

/** The project's and the user's commands, sorted by name; the project's win a name both define. */
export async function loadPromptCommands(options: {
  workspace: Workspace;
  env: NodeJS.ProcessEnv;
}): Promise<LoadedCommands> {
  const byName = new Map<string, PromptCommand>();
  const warnings: string[] = [];
  const refused = new Map<string, string>();
  const jail = createReadJail(options.env);
  const dirs = [
    { dir: userCommandsDir(options.env), source: 'user' },
    { dir: projectCommandsDir(options.workspace.root), source: 'project' },
  ];
  for (const { dir, source } of dirs) {
    for (const file of await markdownFiles(dir)) {
      // The user's own commands are theirs to point anywhere; a project's must stay in the workspace.
      const checked = source === 'project' ? await jail.check(file, options.workspace.root) : { real: file };
      if ('refused' in checked) {
        const name = commandName(dir, file);
        refused.set(name, `${relative(options.workspace.root, file)}: ${checked.refused}`);
        byName.delete(name);
        warnings.push(skippedWarning('command file', file, checked.refused));
        continue;
      }
      try {
        const command = await commandFrom(file, dir, source, options.workspace, jail, checked.real);
        byName.set(command.name, command);
        refused.delete(command.name);
      } catch (error) {
        const why = error instanceof z.ZodError ? 'its front matter is malformed' : (error as Error).message;
        warnings.push(`command file ${file} left out: ${why}`);
      }
    }
  }
  const commands = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { commands, warnings, refused };
}
