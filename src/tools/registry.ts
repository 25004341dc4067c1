// The tool registry: looks tools up by name and offers their specs (JSON Schema) to the model. Tools can be
// added and removed while a run goes on (MCP servers, config tools); the loop asks for the specs every turn.
import * as z from 'zod';
import type { ToolSpec } from '../core/model.js';
import type { SafetyLevel } from '../core/safety-level.js';
import { builtinTools, projectToolLoaders } from './builtins.js';
import type { Tool } from './tool.js';

export interface ToolRegistry {
  get(name: string): Tool | undefined;
  list(): Tool[];
  /** The specs offered to the model now; the same array until a tool is added or removed. */
  specs(): ToolSpec[];
  add(tool: Tool): void;
  /**
   * Takes a tool out. `gone` says why, for a tool the model was offered that will not come back in this run (its
   * MCP server exited): a later call to it is told that, not "unknown tool".
   */
  remove(name: string, gone?: string): boolean;
  /** Why a tool offered earlier in the run is gone (what remove was told), if it is. */
  gone(name: string): string | undefined;
  /** Whether a tool of this name is held, offered or hidden by `restrict`. */
  has(name: string): boolean;
  /**
   * Offers only the tools named (a custom command's allowed-tools, a run's agent): the others, and any tool joining
   * later under another name (an MCP server's), are hidden from get, list and specs until the returned function
   * lifts it.
   */
  restrict(names: readonly string[]): () => void;
}

/** The built-in tools' specs, made from their zod schemas at build time (scripts/build.mjs); absent from source. */
declare const KEEL_TOOL_SPECS: Record<string, ToolSpec> | undefined;
const prebuilt: Record<string, ToolSpec> = typeof KEEL_TOOL_SPECS === 'object' ? KEEL_TOOL_SPECS : {};
/** Their safety levels, recorded with the specs: plan mode and keel ask choose tools by them. */
declare const KEEL_TOOL_SAFETY: Record<string, SafetyLevel> | undefined;
const prebuiltSafety: Record<string, SafetyLevel> =
  typeof KEEL_TOOL_SAFETY === 'object' ? KEEL_TOOL_SAFETY : {};

/**
 * A built-in tool: where the build recorded its spec and safety, a stand-in offering them, whose module (its zod
 * schema, its helpers) loads when a call is first validated, previewed or run; from source, the tool itself.
 */
function builtin(name: string, load: () => Tool): Tool {
  const spec = prebuilt[name];
  const safety = prebuiltSafety[name];
  if (!spec || !safety) return load();
  let tool: Tool | undefined;
  const real = () => {
    tool ??= load();
    return tool;
  };
  return {
    name,
    description: spec.description,
    safety,
    get schema() {
      return real().schema;
    },
    get preview(): Tool['preview'] {
      const { preview } = real();
      return preview && ((args, ctx) => preview.call(real(), args, ctx));
    },
    execute: (args, ctx) => real().execute(args, ctx),
  };
}

/**
 * Each zod schema's JSON Schema, converted once: from source (tests, the library) every run's registry asks again
 * for the same tools' schemas. Shared as the build's prebuilt specs are.
 */
const converted = new WeakMap<z.ZodType, Record<string, unknown>>();

export function toSpec(tool: Tool): ToolSpec {
  if (tool.jsonSchema)
    return { name: tool.name, description: tool.description, inputSchema: tool.jsonSchema };
  // Converting 25 zod schemas costs tens of milliseconds before the first request; the build did it already.
  const built = prebuilt[tool.name];
  if (built && built.description === tool.description) return built;
  let inputSchema = converted.get(tool.schema);
  if (!inputSchema) {
    // io: 'input' keeps fields with defaults optional, as the model may omit them.
    const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.schema, { io: 'input' });
    inputSchema = lean(schema);
    converted.set(tool.schema, inputSchema);
  }
  return { name: tool.name, description: tool.description, inputSchema };
}

/** What validation alone enforces (bounds, lengths) or fills in (defaults): the model need not read it… */
const VALIDATION_ONLY = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'default',
]);

/**
 * …unless it is a limit a sensible call could reach (a map's budget of 100 to 50,000 tokens, 20 lines of context): a
 * model told only by the validation would learn it by failing. A minimum of 0 or 1 and a maximum of a million or more
 * say nothing a model would not assume.
 */
function isReachableLimit(key: string, value: unknown): boolean {
  if (typeof value !== 'number') return false;
  if (key.startsWith('max') || key === 'exclusiveMaximum') return value < 1_000_000;
  if (key.startsWith('min') || key === 'exclusiveMinimum') return value > 1;
  return false;
}

/**
 * The schema as the model reads it, without what only the validation needs (a non-empty string, a line number
 * under a billion, a default the tool fills in): the validation still applies it, and every byte is paid on every
 * request. Property names are kept whatever they are called.
 */
function lean(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (VALIDATION_ONLY.has(key) && !isReachableLimit(key, value)) continue;
    // The arguments' objects are strict: an unknown key is refused naming the fields, so the model need not read it.
    if (key === 'additionalProperties' && value === false) continue;
    if (key === 'properties' && isObject(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, v]) => [name, isObject(v) ? lean(v) : v]),
      );
      continue;
    }
    if (Array.isArray(value)) out[key] = value.map((v) => (isObject(v) ? lean(v) : v));
    else out[key] = isObject(value) ? lean(value) : value;
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function createRegistry(tools: Tool[]): ToolRegistry {
  const byName = new Map<string, Tool>();
  let specs: ToolSpec[] | undefined;
  let allowed: ReadonlySet<string> | undefined;
  const goneReasons = new Map<string, string>();
  const offered = (name: string) => allowed === undefined || allowed.has(name);
  const registry: ToolRegistry = {
    get: (name) => (offered(name) ? byName.get(name) : undefined),
    list: () => [...byName.values()].filter((tool) => offered(tool.name)),
    specs: () => {
      specs ??= registry.list().map(toSpec);
      return specs;
    },
    add(tool) {
      if (byName.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
      byName.set(tool.name, tool);
      goneReasons.delete(tool.name);
      specs = undefined;
    },
    remove(name, gone) {
      specs = undefined;
      if (gone !== undefined && byName.has(name)) goneReasons.set(name, gone);
      return byName.delete(name);
    },
    gone: (name) => (offered(name) && !byName.has(name) ? goneReasons.get(name) : undefined),
    has: (name) => byName.has(name),
    restrict(names) {
      const before = allowed;
      allowed = new Set(allowed === undefined ? names : names.filter((name) => allowed?.has(name)));
      specs = undefined;
      return () => {
        allowed = before;
        specs = undefined;
      };
    },
  };
  for (const tool of tools) registry.add(tool);
  return registry;
}

/** The built-in file and shell tools. */
export function defaultTools(): Tool[] {
  return Object.entries(builtinTools).map(([name, load]) => builtin(name, load));
}

/** The tools that only read the workspace (`keel ask --tools`): no writes, no commands or their outputs. */
export function readOnlyTools(): Tool[] {
  // Background-command tools and the todo list are for agent runs, not one-shot answers.
  const background = new Set(['command_output', 'kill_command', 'todo_write', 'ask_user']);
  return defaultTools().filter((tool) => tool.safety === 'safe' && !background.has(tool.name));
}

/** Offered in plan mode besides the read-only tools: the plan itself, the web and the user (when present). */
const PLAN_EXTRAS: ReadonlySet<string> = new Set(['todo_write', 'web_fetch', 'web_search', 'ask_user']);
const NOT_FOR_PLANS: ReadonlySet<string> = new Set(['command_output', 'kill_command']);

/** Whether plan mode offers this tool: read-only tools, todo_write, web tools and ask_user; the policy refuses the rest anyway. */
export function offeredInPlanMode(tool: Pick<Tool, 'name' | 'safety'>): boolean {
  return PLAN_EXTRAS.has(tool.name) || (tool.safety === 'safe' && !NOT_FOR_PLANS.has(tool.name));
}

/** The project analyses behind `keel init`: kept out of ordinary runs, whose first request they would only grow. */
export function projectTools(): Tool[] {
  return Object.values(projectToolLoaders).map((load) => load());
}
