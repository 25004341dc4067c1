// Which config keys a project file may set only in a trusted folder: those that send credentials or the
// conversation somewhere, widen what may run, or move state outside the workspace. Data, so new keys are a line.
import { configLeaves } from './keys.js';

export interface TrustRule {
  /** A dotted key; `*` stands for one segment; a trailing `.` matches every key under that prefix. */
  pattern: string;
  /** What the key lets a project file do, for `keel trust` and the docs. */
  what: string;
  /** Only for these values (a rule about what a value does, not the key); absent: any value. */
  when?: (value: unknown) => boolean;
}

/** An Ollama model that runs in Ollama's cloud, not on this machine (`gpt-oss:120b-cloud`, `glm-4.6:cloud`). */
export const isOllamaCloudModel = (model: unknown): boolean =>
  typeof model === 'string' && /[:-]cloud$/i.test(model.trim());

export const trustRules: readonly TrustRule[] = [
  // Which provider runs decides where the conversation goes (a local Ollama or a cloud API with the user's key).
  { pattern: 'provider.type', what: 'the provider (where the conversation goes)' },
  // A cassette is the model's output, tool calls included: a repository's would script what runs.
  { pattern: 'provider.replay.', what: 'replayed model output (cassettes)' },
  { pattern: 'provider.*.base_url', what: 'provider base URLs' },
  { pattern: 'provider.*.api_key', what: 'API keys' },
  // Other model names stay a project's to recommend: only Ollama's cloud models send the conversation off the machine.
  {
    pattern: 'provider.ollama.model',
    what: "Ollama's cloud models (the conversation leaves this machine)",
    when: isOllamaCloudModel,
  },
  { pattern: 'provider.copilot.github_url', what: 'GitHub hosts' },
  { pattern: 'provider.copilot.github_api_url', what: 'GitHub hosts' },
  { pattern: 'agent.terminal.default_mode', what: 'the execution mode' },
  { pattern: 'safety.', what: 'safety rules' },
  { pattern: 'mcp.', what: 'MCP servers' },
  { pattern: 'code.language_servers', what: 'language servers (programs Keel starts)' },
  { pattern: 'hooks.', what: 'hooks' },
  { pattern: 'tools.', what: 'custom tools' },
  { pattern: 'web.', what: 'the web search endpoint and its key' },
];

function patternRegExp(pattern: string): RegExp {
  const prefix = pattern.endsWith('.');
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^.]+');
  return new RegExp(`^${body}${prefix ? '' : '$'}`);
}

const compiled = trustRules.map((rule) => ({ rule, regExp: patternRegExp(rule.pattern) }));

/**
 * The rule that makes `key` need a trusted folder when a project file sets it (to `value`: a rule about certain
 * values applies only to those; without a value, only rules about any value), if any.
 */
export function trustRuleFor(key: string, value?: unknown): TrustRule | undefined {
  return compiled.find(
    ({ rule, regExp }) =>
      regExp.test(key) && (rule.when === undefined || (value !== undefined && rule.when(value))),
  )?.rule;
}

export function requiresTrust(key: string, value?: unknown): boolean {
  return trustRuleFor(key, value) !== undefined;
}

/** What trusting a folder lets its project file set, naming only rules that match keys the schema has. */
export function trustGrants(): string[] {
  const grants = new Set<string>();
  for (const leaf of configLeaves()) {
    const rule = compiled.find(({ regExp }) => regExp.test(leaf.key))?.rule;
    if (rule) grants.add(rule.what);
  }
  return [...grants];
}

export interface IgnoredKey {
  key: string;
  /** Where the ignored value was: "project file /w/.keel.yaml:3". */
  source: string;
}

/** Quotes a path for a shell command line when it needs it. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The one warning for an untrusted project file whose trust-requiring keys were ignored. */
export function untrustedWarning(
  projectFile: string,
  workspace: string,
  ignored: readonly IgnoredKey[],
): string {
  const keys = ignored.map((entry) => entry.key).join(', ');
  return (
    `ignored ${keys} from ${projectFile}: this folder is not trusted, and these keys can send your ` +
    `credentials or conversation elsewhere or widen what may run, so your own settings apply. ` +
    `If you trust this repository, run \`keel trust --cwd ${shellWord(workspace)}\` (or \`keel trust\` there)`
  );
}
