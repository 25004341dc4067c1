// MCP prompts as slash commands: `/<server>__<prompt> args` asks the server for the prompt and sends its text as
// the user's message. Arguments are `key=value` pairs, or words given to the prompt's arguments in order.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ExitCode, KeelError, UsageError } from '../core/errors.js';
import type { PromptCommand } from '../core/prompt-command.js';
import type { PromptInfo } from './connection.js';
import { contentText } from './tool-adapter.js';

/** `city=Paris state=TX` → named values; otherwise words in argument order, the last argument taking the rest. */
export function promptArguments(text: string, prompt: PromptInfo): Record<string, string> {
  const names = (prompt.arguments ?? []).map((argument) => argument.name);
  const trimmed = text.trim();
  if (trimmed === '' || names.length === 0) return {};
  const pairs = [...trimmed.matchAll(/(\w[\w-]*)=("([^"]*)"|\S+)/g)];
  if (pairs.length > 0 && pairs.every(([, key]) => names.includes(key!))) {
    return Object.fromEntries(pairs.map(([, key, raw, quoted]) => [key!, quoted ?? raw!]));
  }
  const words = trimmed.split(/\s+/);
  const values: Record<string, string> = {};
  names.forEach((name, index) => {
    const last = index === names.length - 1;
    const value = last ? words.slice(index).join(' ') : words[index];
    if (value) values[name] = value;
  });
  return values;
}

/** `<city> [state]`: the prompt's arguments, required ones in angle brackets (as /help and `keel mcp list` show). */
export const argumentHint = (prompt: PromptInfo): string =>
  (prompt.arguments ?? []).map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`)).join(' ');

export function promptCommands(server: string, client: Client, prompts: PromptInfo[]): PromptCommand[] {
  return prompts.map((prompt) => {
    const name = `${server}__${prompt.name}`;
    const hint = argumentHint(prompt);
    return {
      name,
      description: prompt.description ?? `prompt ${prompt.name} of MCP server ${server}`,
      source: `mcp:${server}`,
      ...(hint ? { argumentHint: hint } : {}),
      expand: (args: string, signal?: AbortSignal) => expandPrompt(client, server, prompt, args, signal),
    };
  });
}

async function expandPrompt(
  client: Client,
  server: string,
  prompt: PromptInfo,
  args: string,
  signal?: AbortSignal,
): Promise<string> {
  const name = `${server}__${prompt.name}`;
  const values = promptArguments(args, prompt);
  const missing = (prompt.arguments ?? []).filter((arg) => arg.required && !values[arg.name]);
  if (missing.length > 0) {
    throw new UsageError(`/${name} needs ${missing.map((arg) => `<${arg.name}>`).join(' ')}`, {
      hint: `/${name} ${argumentHint(prompt)}: words in order, or name=value pairs`,
    });
  }
  let result: Awaited<ReturnType<Client['getPrompt']>>;
  try {
    result = await client.getPrompt(
      { name: prompt.name, arguments: values },
      signal ? { signal } : undefined,
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    // The server's refusal or failure, not Keel's: said as one, with what the prompt takes.
    const message = error instanceof Error ? error.message : String(error);
    throw new KeelError(
      'mcp_prompt',
      ExitCode.failed,
      `MCP server ${server} could not give /${name}: ${message}`,
      {
        hint: `/${name} ${argumentHint(prompt)}`.trimEnd(),
      },
    );
  }
  return result.messages
    .map((message) => contentText([message.content as { type: string }]))
    .filter((text) => text !== '')
    .join('\n\n');
}
