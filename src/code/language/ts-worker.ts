// The worker thread of the TypeScript service (ts-remote.ts has the other side): one service for the workspace
// root it is started with, answering each request in the order sent. Built as dist/ts-worker.cjs.
import { parentPort, workerData } from 'node:worker_threads';
import type { TsAnswer, TsMessage, TsRequest } from './ts-remote.js';
import { localTypeScriptService } from './typescript.js';

const port = parentPort!;
const service = localTypeScriptService((workerData as { root: string }).root);
/** The requests begun or waiting, by id: a cancel aborts the work not yet begun (compiler work itself is synchronous). */
const controllers = new Map<number, AbortController>();

function answer(request: TsRequest, signal: AbortSignal): Promise<unknown> {
  switch (request.method) {
    case 'references':
      return service.references(request.at, signal);
    case 'rename':
      return service.rename(request.at, request.newName, request.options, signal);
    case 'diagnostics':
      return service.diagnostics(request.paths, signal, request.overlay, request.deadline);
    case 'prepare':
      return service.prepare(request.paths, signal);
    case 'close':
      return service.close();
  }
}

port.on('message', async (message: TsMessage) => {
  if (message.method === 'changed') {
    service.changed(message.paths);
    return;
  }
  if (message.method === 'cancel') {
    controllers.get(message.id)?.abort();
    return;
  }
  const controller = new AbortController();
  controllers.set(message.id, controller);
  let reply: TsAnswer;
  try {
    reply = { id: message.id, result: await answer(message, controller.signal) };
  } catch (error) {
    const { name, message: text } = error instanceof Error ? error : new Error(String(error));
    reply = { id: message.id, error: { name, message: text } };
  } finally {
    controllers.delete(message.id);
  }
  port.postMessage(reply);
});
