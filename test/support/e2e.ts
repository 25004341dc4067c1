// End-to-end test scaffolding: tracked model servers and temp workspaces, common keel runs, tool results of a request.
import { rm } from 'node:fs/promises';
import { trackedModelServer, useCleanup } from './cleanup.js';
import { type KeelRunOptions, makeWorkspace, runKeel } from './cli.js';
import type { ModelServer, ModelServerOptions, ScriptStep } from './model-server.js';

/** A provider as the CLI selects it, with the scripted server URL it talks to and the variable its key comes from. */
export interface WireProvider {
  provider: 'ollama' | 'openai-compatible' | 'openrouter' | 'openai' | 'anthropic' | 'gemini';
  url: 'ollamaUrl' | 'openaiUrl' | 'anthropicUrl' | 'geminiUrl';
  envVar?: string;
}

/** One provider per wire format the scripted server speaks (OpenRouter's dialect and OpenAI's share the chat route). */
export const wireProviders: WireProvider[] = [
  { provider: 'ollama', url: 'ollamaUrl' },
  { provider: 'openai-compatible', url: 'openaiUrl' },
  { provider: 'openrouter', url: 'openaiUrl', envVar: 'OPENROUTER_API_KEY' },
  { provider: 'openai', url: 'openaiUrl', envVar: 'OPENAI_API_KEY' },
  { provider: 'anthropic', url: 'anthropicUrl', envVar: 'ANTHROPIC_API_KEY' },
  { provider: 'gemini', url: 'geminiUrl', envVar: 'GEMINI_API_KEY' },
];

/** `keel run --provider p --base-url <its URL on s> --model test-model --cwd ws …args`, with a key when it needs one. */
export function runProvider(
  p: WireProvider,
  s: ModelServer,
  ws: string,
  args: string[],
  options: KeelRunOptions = {},
) {
  const env = { ...(p.envVar ? { [p.envVar]: 'sk-scripted-test' } : {}), ...options.env };
  return runKeel(
    ['run', '--provider', p.provider, '--base-url', s[p.url], '--model', 'test-model', '--cwd', ws, ...args],
    { ...options, env },
  );
}

/** Call at file level: servers, workspaces and paths from the returned helpers are cleaned up after each test. */
export function useE2E() {
  const track = useCleanup();
  // Retried: a checkpoint a closed run started in the background may still be writing its last files.
  const removeLater = (path: string) =>
    track(() => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));
  return {
    track,
    removeLater,
    server: (options: ScriptStep[] | ModelServerOptions) => trackedModelServer(track, options),
    /** A temp directory holding files, removed after the test. */
    async workspace(files: Record<string, string> = {}): Promise<string> {
      const dir = await makeWorkspace(files);
      removeLater(dir);
      return dir;
    },
  };
}

/** The tool-result contents of an Ollama or OpenAI chat request body, in order. */
export function toolMessages(body: unknown): string[] {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  return messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

/** `keel run --base-url <s's Ollama URL> --cwd ws …args`: the default provider against a scripted server. */
export function runOllama(s: ModelServer, ws: string, args: string[], options?: KeelRunOptions) {
  return runKeel(['run', '--base-url', s.ollamaUrl, '--cwd', ws, ...args], options);
}

/** `keel run --provider replay --cassette cassette --cwd ws …args`: offline, from a recording. */
export function runReplay(cassette: string, ws: string, args: string[]) {
  return runKeel(['run', '--provider', 'replay', '--cassette', cassette, '--cwd', ws, ...args]);
}

/** Keel's directories under a temp home, and no OS keyring: a run in process touches nothing of the user's. */
export function homeEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: `${home}/config`,
    XDG_DATA_HOME: `${home}/data`,
    XDG_STATE_HOME: `${home}/state`,
    XDG_CACHE_HOME: `${home}/cache`,
    KEEL_KEYRING: 'off',
  };
}
