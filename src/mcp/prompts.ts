// MCP prompts as slash commands: `/<server>__<prompt> args` asks the server for the prompt and sends its text as
// the user's message. Arguments are `key=value` pairs, or words given to the prompt's arguments in order.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
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

export function promptCommands(server: string, client: Client, prompts: PromptInfo[]): PromptCommand[] {
  return prompts.map((prompt) => ({
    name: `${server}__${prompt.name}`,
    description: prompt.description ?? `prompt ${prompt.name} of MCP server ${server}`,
    source: `mcp:${server}`,
    async expand(args: string, signal?: AbortSignal): Promise<string> {
      const result = await client.getPrompt(
        { name: prompt.name, arguments: promptArguments(args, prompt) },
        signal ? { signal } : undefined,
      );
      return result.messages
        .map((message) => contentText([message.content as { type: string }]))
        .filter((text) => text !== '')
        .join('\n\n');
    },
  }));
}
