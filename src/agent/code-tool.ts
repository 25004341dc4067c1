// The code-intelligence tools offered to the model as one `code` tool with an `action` (the tool's name), which
// costs a third of their ten specs in every request; a call of it runs as the tool its action names. The tools
// keep their names everywhere else: the model may call them directly, and events, approvals, the policy, hooks and
// the audit see the tool that runs.

import type { ToolCall } from '../core/messages.js';
import type { ToolSpec } from '../core/model.js';
import { CODE_TOOLS } from './tool-offer.js';

export const CODE_TOOL = 'code';

const DESCRIPTION =
  "Code intelligence; action picks the tool. get_codebase_map: the core files' signatures; search_code: " +
  'definitions by name; rename_symbol: everywhere, refused if it adds type errors. A symbol: name (or ' +
  'Class.member) at path + line/column, or occurrence (nth in path).';

const isCodeTool = (name: string): boolean => (CODE_TOOLS as readonly string[]).includes(name);

/** The specs with the code tools among them (two or more) folded into one `code` spec, where the first of them was. */
export function foldCodeTools(specs: readonly ToolSpec[]): ToolSpec[] {
  const code = specs.filter((spec) => isCodeTool(spec.name));
  if (code.length < 2) return [...specs];
  const properties: Record<string, unknown> = {};
  for (const spec of code) {
    const own = (spec.inputSchema.properties ?? {}) as Record<string, unknown>;
    for (const [key, schema] of Object.entries(own)) properties[key] ??= schema;
  }
  const folded: ToolSpec = {
    name: CODE_TOOL,
    description: DESCRIPTION,
    inputSchema: {
      type: 'object',
      properties: { action: { type: 'string', enum: code.map((spec) => spec.name) }, ...properties },
      required: ['action'],
    },
  };
  const first = specs.indexOf(code[0]!);
  return [...specs.slice(0, first), folded, ...specs.slice(first).filter((spec) => !isCodeTool(spec.name))];
}

/** A call of `code` as the call of the tool its action names (the other arguments as they were); others as they are. */
export function unfoldCodeCall(call: ToolCall): ToolCall {
  if (call.name !== CODE_TOOL || call.refused !== undefined) return call;
  let args: unknown;
  try {
    args = JSON.parse(call.input);
  } catch {
    args = undefined;
  }
  const action = (args as { action?: unknown } | undefined)?.action;
  if (typeof action !== 'string' || !isCodeTool(action)) {
    const given = typeof action === 'string' ? `"${action}" is not one of its actions` : 'it needs an action';
    return { ...call, refused: `code: ${given}; action is one of ${CODE_TOOLS.join(', ')}` };
  }
  const { action: _action, ...rest } = args as Record<string, unknown>;
  return { ...call, name: action, input: JSON.stringify(rest) };
}
