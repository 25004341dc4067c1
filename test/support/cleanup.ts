// Per-test cleanup: servers and temp paths a test starts are closed or removed after it, pass or fail.
import { afterEach } from 'vitest';
import {
  type ModelServer,
  type ModelServerOptions,
  type ScriptStep,
  startModelServer,
} from './model-server.js';

/** Registers something to undo after the current test. */
export type Track = (cleanup: () => Promise<unknown>) => void;

/** Call at file or describe level: returns track, whose cleanups all run after each test. */
export function useCleanup(): Track {
  const pending: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    await Promise.all(pending.splice(0).map((cleanup) => cleanup()));
  });
  return (cleanup) => {
    pending.push(cleanup);
  };
}

/** A scripted model server closed by track; a bare script is short for `{ script }`. */
export async function trackedModelServer(
  track: Track,
  options: ScriptStep[] | ModelServerOptions,
): Promise<ModelServer> {
  const server = await startModelServer(Array.isArray(options) ? { script: options } : options);
  track(server.close);
  return server;
}

/** Call at file level: returns a start function whose model servers are closed after each test. */
export function useModelServers(): (options: ScriptStep[] | ModelServerOptions) => Promise<ModelServer> {
  const track = useCleanup();
  return (options) => trackedModelServer(track, options);
}
