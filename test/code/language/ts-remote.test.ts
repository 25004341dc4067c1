// The TypeScript service in its worker thread (dist/ts-worker.cjs, as the built CLI and library run it): calls
// answered across the thread, an aborted call answered at once, a worker that dies failing what waits on it.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { LanguageService } from '../../../src/code/language/service.js';
import { startRemoteTypeScript } from '../../../src/code/language/ts-remote.js';
import { tsProject } from './ts-fixture.js';

const workerFile = path.resolve('dist/ts-worker.cjs');
const signal = new AbortController().signal;
let root: string;
let service: LanguageService;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-ts-remote-')));
  for (const [file, content] of Object.entries(tsProject)) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.writeFile(path.join(root, file), content);
  }
  service = startRemoteTypeScript(workerFile, root);
});
afterAll(async () => {
  await service.close();
  await fs.rm(root, { recursive: true, force: true });
});

describe('the TypeScript service in a worker', () => {
  test('finds references, checks an overlay and renames, as the service in this thread does', async () => {
    await service.prepare?.(['src/app.ts'], signal);
    const refs = await service.references({ path: 'src/greet.ts', line: 1, column: 17 }, signal);
    expect(refs.map((r) => `${r.path}:${r.line}`)).toContain('src/app.ts:1');
    const broken = new Map([['src/scale.ts', 'export function scale(): number {\n  return "x";\n}\n']]);
    const found = await service.diagnostics(['src/scale.ts'], signal, broken);
    expect(found.map((d) => `${d.path}:${d.line} ${d.code}`)).toEqual(['src/scale.ts:2 TS2322']);
    expect(await service.diagnostics(['src/scale.ts'], signal)).toEqual([]);
    const renamed = await service.rename({ path: 'src/greet.ts', line: 1, column: 17 }, 'hello', {}, signal);
    expect(Array.isArray(renamed) && renamed.map((c) => c.path)).toContain('src/app.ts');
  });

  test('a file changed on disk is read again once the worker hears of it', async () => {
    await fs.writeFile(path.join(root, 'src/scale.ts'), 'export const s: number = "x";\n');
    service.changed(['src/scale.ts']);
    const found = await service.diagnostics(['src/scale.ts'], signal);
    expect(found.map((d) => d.code)).toEqual(['TS2322']);
  });

  test('an aborted call is answered at once with the abort, and the worker goes on serving', async () => {
    const controller = new AbortController();
    const call = service.diagnostics(['src/app.ts'], controller.signal);
    controller.abort(new Error('stopped by the user'));
    await expect(call).rejects.toThrow('stopped by the user');
    expect(await service.diagnostics(['src/app.ts'], signal)).toEqual([]);
  });

  test('closed while busy, the worker is ended at once; the call waiting on it fails', async () => {
    const busy = startRemoteTypeScript(workerFile, root);
    const waiting = busy.prepare?.(['src/app.ts'], signal);
    await busy.close();
    await expect(waiting).rejects.toThrow("the TypeScript service's worker exited");
  });

  test('closed while still busy with a call given up on, the worker is ended at once, not waited for', async () => {
    const busy = startRemoteTypeScript(workerFile, root) as LanguageService & {
      worker: { on(event: 'exit' | 'message', listener: () => void): void };
    };
    const controller = new AbortController();
    const given = busy.prepare?.(['src/app.ts'], controller.signal);
    controller.abort(new Error('Ctrl-C'));
    await expect(given).rejects.toThrow('Ctrl-C');
    // Had close asked the busy worker to save its cache first, it would have waited for the program build's
    // answer, then its own; ended at once, the worker answers nothing more.
    const heard: string[] = [];
    busy.worker.on('message', () => heard.push('answer'));
    busy.worker.on('exit', () => heard.push('exit'));
    await busy.close();
    expect(heard).toEqual(['exit']);
  });

  test('a worker that dies fails the calls waiting on it; the next call starts another, twice at most', async () => {
    const doomed = startRemoteTypeScript(workerFile, root) as LanguageService & {
      worker: { terminate(): Promise<number> };
    };
    const waiting = doomed.diagnostics(['src/app.ts'], signal);
    await doomed.worker.terminate();
    await expect(waiting).rejects.toThrow("the TypeScript service's worker exited");
    // Started again: it answers as the first did.
    expect(await doomed.diagnostics(['src/app.ts'], signal)).toEqual([]);
    await doomed.worker.terminate();
    expect(await doomed.diagnostics(['src/app.ts'], signal)).toEqual([]);
    // A third death is the last: it keeps dying, so it is given up on.
    await doomed.worker.terminate();
    await expect(doomed.references({ path: 'src/app.ts', line: 1, column: 1 }, signal)).rejects.toThrow(
      "the TypeScript service's worker exited",
    );
    await doomed.close();
  });
});
