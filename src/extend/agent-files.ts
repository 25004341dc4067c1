// Agents defined as files: Markdown in `.keel/agents/` (project; only in a trusted folder, and through the read
// jail) and `<config dir>/agents/` (user). Front matter: `description`, `tools` (allow list), `model`
// (`provider/model` or a model of the configured provider), `mode`; the body is added to the system prompt.
// A project agent hides a user one of the same name, and both hide a built-in one.
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod';
import { userConfigPath } from '../config/paths.js';
import { trustedBy } from '../config/trusted-folders.js';
import { once } from '../core/once.js';
import { MODES } from '../safety/modes.js';
import type { ExecutionMode } from '../safety/policy.js';
import { createReadJail, skippedWarning } from '../safety/read-jail.js';
import type { AgentDefinition } from './agent-definition.js';
import { BUILTIN_AGENTS } from './builtin-agents.js';
import { splitFrontMatter, toolList } from './prompt-commands.js';

/** `<workspace>/.keel/agents`. */
export const projectAgentsDir = (workspace: string): string => join(workspace, '.keel', 'agents');
/** `<config dir>/agents`, beside the user config file. */
export const userAgentsDir = (env: NodeJS.ProcessEnv): string => join(dirname(userConfigPath(env)), 'agents');

/** Agent names are what `@name` and `--agent name` type: no spaces or slashes. */
const NAME = /^[A-Za-z0-9][\w.-]*$/;

const frontMatterSchema = once(() =>
  z
    .object({
      name: z.string().regex(NAME).optional(),
      description: z.string().min(1),
      tools: toolList(),
      model: z.string().min(1).optional(),
      mode: z.enum(MODES as [ExecutionMode, ...ExecutionMode[]]).optional(),
    })
    .loose(),
);

export interface LoadedAgents {
  agents: AgentDefinition[];
  /** One per file left out (malformed, refused by the read jail, or a project's in an untrusted folder). */
  warnings: string[];
}

async function markdownFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(dir, name));
}

/** One agent file; throws with why it is left out. */
export async function parseAgentFile(
  text: string,
  file: string,
  source: AgentDefinition['source'],
): Promise<AgentDefinition> {
  const { meta, body } = await splitFrontMatter(text);
  const parsed = frontMatterSchema().safeParse(meta);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new Error(`its front matter is malformed (${where}${issue?.message ?? 'unexpected shape'})`);
  }
  const front = parsed.data;
  const name = front.name ?? basename(file, '.md');
  if (!NAME.test(name)) throw new Error(`"${name}" is not a usable agent name (letters, digits, . _ -)`);
  return {
    name,
    description: front.description,
    ...(front.tools ? { tools: front.tools } : {}),
    ...(front.model ? { model: front.model } : {}),
    ...(front.mode ? { mode: front.mode } : {}),
    prompt: body.trim(),
    source,
    file,
  };
}

/** The built-in, user and project agents, sorted by name; nothing is read when the folders do not exist. */
export async function loadAgents(options: {
  workspace: string;
  env: NodeJS.ProcessEnv;
}): Promise<LoadedAgents> {
  const byName = new Map<string, AgentDefinition>(BUILTIN_AGENTS.map((a) => [a.name, a]));
  const warnings: string[] = [];
  const jail = createReadJail(options.env);
  const project = await markdownFiles(projectAgentsDir(options.workspace));
  // A repository's agent files choose tools, models and prompts: only a folder the user trusts may bring them.
  const trusted =
    project.length > 0 && (await trustedBy(options.env, options.workspace).catch(() => undefined));
  if (project.length > 0 && !trusted) {
    warnings.push(
      `agent files in ${projectAgentsDir(options.workspace)} ignored: this folder is not trusted (run \`keel trust\` here if you trust it)`,
    );
  }
  const dirs = [
    { files: await markdownFiles(userAgentsDir(options.env)), source: 'user' as const },
    { files: trusted ? project : [], source: 'project' as const },
  ];
  for (const { files, source } of dirs) {
    for (const file of files) {
      const checked = source === 'project' ? await jail.check(file, options.workspace) : { real: file };
      if ('refused' in checked) {
        warnings.push(skippedWarning('agent file', file, checked.refused));
        continue;
      }
      try {
        const agent = await parseAgentFile(await readFile(checked.real, 'utf8'), file, source);
        byName.set(agent.name, agent);
      } catch (error) {
        warnings.push(
          `agent file ${file} left out: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
  // The built-in agents are listed in order: only files read need sorting, and localeCompare's first call loads
  // ICU's collator (~15 ms), which a run without agent files never pays.
  const agents = [...byName.values()];
  if (agents.some((a) => a.source !== 'built-in')) agents.sort((a, b) => a.name.localeCompare(b.name));
  return { agents, warnings };
}

export type { AgentDefinition } from './agent-definition.js';
