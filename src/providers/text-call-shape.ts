// Whether a piece of JSON a model wrote in its reply is a tool call, a broken one, or ordinary text (text protocol).

/** One call found in a reply: usable, or broken (the model gets a correction instead of a result it can use). */
export type TextCall =
  | { kind: 'call'; name: string /** JSON text of the arguments object. */; input: string }
  | {
      kind: 'broken';
      /** The tool's name when it could be read, else a placeholder the executor reports as unknown. */
      name: string;
      /** The arguments' JSON text, or the raw block when it is not JSON (the executor then says so). */
      input: string;
      /** What was wrong, for the correction message. */
      problem: string;
      /** The block as the model wrote it, sent back to it as its own words. */
      raw: string;
    };

/**
 * Where the JSON was found: inside `<tool_call>` tags (always meant as a call), a fenced block, bare at a line's
 * start, or inline (bare after other text on its line: a call only when it is a whole, valid call to an offered tool).
 */
export type CallSource = 'tag' | 'fence' | 'bare' | 'inline';

/** The name a broken call gets when none could be read. */
export const unnamedCall = 'invalid_tool_call';

const nameKeys = ['name', 'tool', 'tool_name', 'function'] as const;
const argumentKeys = ['arguments', 'args', 'parameters', 'input', 'params'] as const;

/** Looks like a call in text that is not valid JSON: a name key and an arguments key, or a known tool named. */
const nameKeyPattern = /"(?:name|tool|tool_name|function)"\s*:\s*"([^"\\]*)"/;
const argumentKeyPattern = /"(?:arguments|args|parameters|input|params)"\s*:/;

/**
 * The calls in a JSON text found at `source`, or undefined when it is not meant as a call (a code example, a
 * package.json): a fenced or bare object is a call only with a name key and either an arguments key or a known
 * tool's name; an inline one only when it is valid JSON calling an offered tool with an arguments object, so a
 * sentence quoting JSON never gets a correction. Inside tags anything unusable is a broken call.
 */
export function classifyJson(
  body: string,
  source: CallSource,
  tools: ReadonlySet<string>,
  raw: string,
): TextCall[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.trim());
  } catch (error) {
    if (source === 'inline') return undefined;
    const named = nameKeyPattern.exec(body)?.[1];
    const meant =
      source === 'tag' || (named !== undefined && (tools.has(named) || argumentKeyPattern.test(body)));
    if (!meant) return undefined;
    const why = error instanceof Error ? error.message : String(error);
    return [broken(named, body.trim(), `the call is not valid JSON (${why})`, raw)];
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  const shapes = items.map(callShape);
  const isCall = (s: CallShape | undefined) => s !== undefined && (s.hasArguments || tools.has(s.name));
  if (source !== 'tag' && (items.length === 0 || !shapes.every(isCall))) return undefined;
  if (items.length === 0) return [broken(undefined, body.trim(), 'the block holds no call', raw)];
  // Several calls in one block share its raw text; only the first carries it back to the model.
  const calls = shapes.map((shape, i) => toCall(shape, tools, i === 0 ? raw : ''));
  if (source === 'inline' && !calls.every((call, i) => call.kind === 'call' && shapes[i]!.hasArguments)) {
    return undefined;
  }
  return calls;
}

interface CallShape {
  name: string;
  arguments: unknown;
  hasArguments: boolean;
}

/** Name and arguments under any of the common keys, OpenAI's `{function: {name, arguments}}` included. */
function callShape(value: unknown): CallShape | undefined {
  if (!isObject(value)) return undefined;
  const inner = isObject(value.function) ? value.function : value;
  const name = nameKeys.map((key) => inner[key]).find((v) => typeof v === 'string');
  if (typeof name !== 'string') return undefined;
  const key = argumentKeys.find((k) => k in inner);
  return { name, arguments: key ? inner[key] : undefined, hasArguments: key !== undefined };
}

function toCall(shape: CallShape | undefined, tools: ReadonlySet<string>, raw: string): TextCall {
  if (!shape) {
    return broken(undefined, '{}', 'a call needs a "name" and an "arguments" object', raw);
  }
  let args: unknown = shape.arguments ?? {};
  // Some models send the arguments as a JSON string, as the OpenAI wire format does.
  if (typeof args === 'string') {
    const text = args;
    try {
      args = JSON.parse(text);
    } catch {
      return broken(shape.name, text, '"arguments" must be a JSON object', raw);
    }
  }
  if (!isObject(args)) {
    return broken(shape.name, JSON.stringify(args), '"arguments" must be a JSON object', raw);
  }
  const input = JSON.stringify(args);
  if (!tools.has(shape.name)) {
    return broken(shape.name, input, `there is no tool named "${shape.name}"`, raw);
  }
  return { kind: 'call', name: shape.name, input };
}

function broken(name: string | undefined, input: string, problem: string, raw: string): TextCall {
  return { kind: 'broken', name: name || unnamedCall, input, problem, raw };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
