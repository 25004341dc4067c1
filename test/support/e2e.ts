// End-to-end test scaffolding: tracked model servers and temp workspaces, common keel runs, tool results of a request.
import { rm } from 'node:fs/promises';
import { trackedModelServer, useCleanup } from './cleanup.js';
import { type KeelRunOptions, makeWorkspace, runKeel } from './cli.js';
import type { ModelServer, ModelServerOptions, ScriptStep } from './model-server.js';

/** Call at file level: servers, workspaces and paths from the returned helpers are cleaned up after each test. */
export function useE2E() {
  const track = useCleanup();
  const removeLater = (path: string) => track(() => rm(path, { recursive: true, force: true }));
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
