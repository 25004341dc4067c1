// The LSP client and service against a tiny fake server (fake-lsp-server.mjs): what a crash, a silent server, an
// edit outside the workspace or a lingering process does to the service, and how overlays come and go.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LspError, type LspServerSpec } from '../../../src/code/language/lsp-client.js';
import { type LspLanguageService, startLspService } from '../../../src/code/language/lsp-service.js';
import { LanguageServices } from '../../../src/code/language/service.js';

const script = fileURLToPath(new URL('./fake-lsp-server.mjs', import.meta.url));
const spec = (mode: string): LspServerSpec => ({
  id: 'fake',
  command: process.execPath,
  args: [script, mode],
  env: process.env,
});
const options = { languageId: () => 'plaintext', handles: () => true, requestTimeoutMs: 5_000 };
const signal = new AbortController().signal;

let root: string;
let service: LspLanguageService;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-lsp-')));
  await fs.writeFile(path.join(root, 'a.txt'), 'let foo = 1;\n😀 foo\nok\n');
  await fs.writeFile(path.join(root, 'b.txt'), 'x\ny\nz\nfoo\n');
  service = (await startLspService(spec('normal'), root, options)) as LspLanguageService;
});

afterAll(async () => {
  await service?.close();
  await fs.rm(root, { recursive: true, force: true });
});

describe('references', () => {
  test('are 1-based, deduplicated, limited to the workspace, with the declaration marked', async () => {
    const found = await service.references({ path: 'a.txt', line: 1, column: 5 }, signal);
    expect(found).toEqual([
      { path: 'a.txt', line: 1, column: 5, endLine: 1, endColumn: 8, definition: true },
      { path: 'b.txt', line: 4, column: 1, endLine: 4, endColumn: 4 },
    ]);
  });

  test('a path leading outside the workspace is refused before the server is asked', async () => {
    await expect(service.references({ path: '../x.txt', line: 1, column: 1 }, signal)).rejects.toThrow(
      /outside the workspace/,
    );
  });

  test('an aborted request rejects with the abort reason', async () => {
    const controller = new AbortController();
    const pending = service.references({ path: 'a.txt', line: 3, column: 1 }, controller.signal);
    controller.abort(new Error('stopped by the user'));
    await expect(pending).rejects.toThrow('stopped by the user');
  });
});

describe('rename', () => {
  test('applies the edits in UTF-16 columns, adds references in files the edit left out, returns whole texts', async () => {
    const changes = await service.rename({ path: 'a.txt', line: 1, column: 5 }, 'bar', {}, signal);
    expect(changes).toEqual([
      { path: 'a.txt', before: 'let foo = 1;\n😀 foo\nok\n', after: 'let bar = 1;\n😀 bar\nok\n', count: 2 },
      { path: 'b.txt', before: 'x\ny\nz\nfoo\n', after: 'x\ny\nz\nbar\n', count: 1 },
    ]);
  });

  test('an edit of a file outside the workspace refuses the whole rename', async () => {
    const refused = await service.rename({ path: 'a.txt', line: 1, column: 5 }, 'outside', {}, signal);
    expect(refused).toMatch(/\/etc\/hosts, outside the workspace/);
  });

  test('an edit that creates files is refused', async () => {
    expect(await service.rename({ path: 'a.txt', line: 1, column: 5 }, 'create', {}, signal)).toMatch(
      /would create files/,
    );
  });

  test('a position prepareRename rejects is refused with its place', async () => {
    expect(await service.rename({ path: 'a.txt', line: 6, column: 1 }, 'x', {}, signal)).toBe(
      'fake cannot rename the symbol at a.txt:6:1',
    );
  });
});

describe('diagnostics', () => {
  test('the overlay is checked, then the server gets the disk text back', async () => {
    const found = await service.diagnostics(['a.txt'], signal, new Map([['a.txt', 'ok\nbad\n']]));
    expect(found).toEqual([
      { path: 'a.txt', line: 2, column: 1, severity: 'error', code: 'E1', message: 'bad on line 2' },
    ]);
    const uri = pathToFileURL(path.join(root, 'a.txt')).href;
    expect(await service.client.request('keel/text', { uri })).toBe('let foo = 1;\n😀 foo\nok\n');
    expect(await service.diagnostics(['a.txt'], signal)).toEqual([]);
  });

  test("a cold server's first diagnostics are had by prepare, so a check's budget times only the check", async () => {
    const cold = (await startLspService(spec('slow-first'), root, options)) as LspLanguageService;
    try {
      await cold.prepare(['b.txt'], signal);
      const found = await cold.diagnostics(
        ['b.txt'],
        AbortSignal.timeout(300),
        new Map([['b.txt', 'bad\n']]),
      );
      expect(found.map((d) => d.message)).toEqual(['bad on line 1']);
    } finally {
      await cold.close();
    }
  });

  test("a first wait cut short (a cold server on a loaded host) is waited for again by the next prepare, not left to the check's budget", async () => {
    const cold = (await startLspService(spec('slow-first'), root, options)) as LspLanguageService;
    try {
      await cold.prepare(['b.txt'], AbortSignal.timeout(50));
      await cold.prepare(['b.txt'], signal);
      const found = await cold.diagnostics(
        ['b.txt'],
        AbortSignal.timeout(300),
        new Map([['b.txt', 'bad\n']]),
      );
      expect(found.map((d) => d.message)).toEqual(['bad on line 1']);
    } finally {
      await cold.close();
    }
  });

  test('a check cut short makes the next prepare wait for the server again', async () => {
    const cold = (await startLspService(spec('slow-first'), root, options)) as LspLanguageService;
    try {
      await cold.prepare(['b.txt'], signal);
      // The server turns slow again (a loaded host): the check gives up, and the next check waits as for a first.
      await cold.client.request('keel/slow', { ms: 400 });
      await expect(cold.diagnostics(['b.txt'], AbortSignal.timeout(50))).rejects.toThrow();
      await cold.prepare(['b.txt'], signal);
      expect(
        await cold.diagnostics(['b.txt'], AbortSignal.timeout(300), new Map([['b.txt', 'bad\n']])),
      ).toEqual([expect.objectContaining({ message: 'bad on line 1' })]);
    } finally {
      await cold.close();
    }
  });

  test('an overlay file not on disk (one a change removed) is checked from its overlay text, then closed', async () => {
    const found = await service.diagnostics(['gone.txt'], signal, new Map([['gone.txt', 'bad\n']]));
    expect(found.map((d) => `${d.path}:${d.line} ${d.message}`)).toEqual(['gone.txt:1 bad on line 1']);
    const uri = pathToFileURL(path.join(root, 'gone.txt')).href;
    expect(await service.client.request('keel/text', { uri })).toBeNull();
  });

  test('a file changed on disk is sent again', async () => {
    await fs.writeFile(path.join(root, 'b.txt'), 'bad\n');
    service.changed(['b.txt']);
    expect(await service.diagnostics(['b.txt'], signal)).toEqual([
      expect.objectContaining({ path: 'b.txt', line: 1, message: 'bad on line 1' }),
    ]);
  });
});

describe('a server that fails', () => {
  test('one that exits during initialize does not start: the registry has no service for its files', async () => {
    await expect(startLspService(spec('crash-at-start'), root, options)).rejects.toThrow(
      new LspError('fake exited (code 3)'),
    );
    const services = new LanguageServices(root, [
      { id: 'fake', handles: () => true, start: (r) => startLspService(spec('crash-at-start'), r, options) },
    ]);
    expect(await services.forFile('a.txt')).toBeUndefined();
  });

  test('one that exits before reading a byte is named with its last words, not the broken pipe', async () => {
    await expect(startLspService(spec('dead-on-arrival'), root, options)).rejects.toThrow(
      new LspError('fake exited (code 1): error: Unknown binary in official toolchain stable'),
    );
    const services = new LanguageServices(root, [
      { id: 'fake', handles: () => true, start: (r) => startLspService(spec('dead-on-arrival'), r, options) },
    ]);
    expect(await services.forFile('a.txt')).toBeUndefined();
    expect(await services.failure('a.txt')).toBe(
      'fake did not start: fake exited (code 1): error: Unknown binary in official toolchain stable',
    );
  });

  test('one that crashes on a request fails that request and is started again for the next', async () => {
    const crashing = await startLspService(spec('normal'), root, options);
    try {
      await expect(crashing.references({ path: 'a.txt', line: 2, column: 1 }, signal)).rejects.toThrow(
        'fake exited (code 5)',
      );
      expect(await crashing.references({ path: 'a.txt', line: 1, column: 5 }, signal)).toHaveLength(2);
    } finally {
      await crashing.close();
    }
  });

  test('one that never answers is given up on after the request timeout', async () => {
    const silent = await startLspService(spec('normal'), root, { ...options, requestTimeoutMs: 300 });
    try {
      await expect(silent.references({ path: 'a.txt', line: 3, column: 1 }, signal)).rejects.toThrow(
        'fake did not answer textDocument/references within 300 ms',
      );
    } finally {
      await silent.close();
    }
  });

  test('one that ignores exit is killed on close', async () => {
    const lingering = (await startLspService(spec('linger'), root, options)) as LspLanguageService;
    const pid = lingering.client.child.pid as number;
    await lingering.client.close(200);
    expect(lingering.client.exited).toBe('fake was closed');
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
