// Record and replay: a recorded run replays identically, offline; divergence, exhaustion and bad files are clear errors.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configSchema, type KeelConfig } from '../../src/config/schema.js';
import { CassetteError, isAbortError } from '../../src/core/errors.js';
import type { Message } from '../../src/core/messages.js';
import type { Model, ModelEvent } from '../../src/core/model.js';
import { writeCassette } from '../../src/providers/cassette.js';
import { createModel } from '../../src/providers/index.js';
import { recordingModel } from '../../src/providers/record.js';
import { replayModel } from '../../src/providers/replay.js';
import { type ModelServer, startModelServer } from '../support/model-server.js';
import { ask, collect, failure, readFileTool, request, writeFileTool } from './helpers.js';

let dir: string;
let server: ModelServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keel-cassette-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

const tools = [readFileTool, writeFileTool];

/** Provider settings as the config loader would produce them (defaults filled in). */
const providerConfig = (provider: Record<string, unknown>): KeelConfig['provider'] =>
  configSchema.parse({ provider }).provider;

/** A two-response run: the model reads a file, then answers. `ok` decides whether the read succeeded. */
async function run(model: Model, ok = true, toolName = 'read_file'): Promise<ModelEvent[][]> {
  const messages: Message[] = ask('what is in a.txt?');
  const first = await collect(model.stream(request(messages, tools)));
  const call = first.find((event) => event.type === 'tool-call');
  if (call?.type !== 'tool-call') throw new Error('expected a tool call');
  messages.push({ role: 'assistant', content: '', toolCalls: [call.call] });
  messages.push({ role: 'tool', toolCallId: call.call.id, toolName, content: 'hello', isError: !ok });
  const second = await collect(model.stream(request(messages, tools)));
  return [first, second];
}

async function record(file: string): Promise<ModelEvent[][]> {
  server = await startModelServer({
    script: [
      { reasoning: 'look first', toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'It says hello.', usage: { input: 30, output: 4 } },
    ],
  });
  const model = await createModel(
    providerConfig({ type: 'ollama', ollama: { base_url: server.ollamaUrl } }),
    { record: file },
  );
  return run(model);
}

describe('record and replay', () => {
  it('replays exactly the events that were recorded, without the server', async () => {
    const file = join(dir, 'run.cassette.json');
    const recorded = await record(file);
    await server?.close();
    server = undefined;
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved).toMatchObject({ version: 1, provider: 'ollama', model: 'qwen3' });
    expect(saved.interactions).toHaveLength(2);
    expect(saved.interactions[1].request).toEqual({
      messages: 4,
      toolResults: [{ name: 'read_file', ok: true }],
    });

    const replay = await createModel(providerConfig({ type: 'replay', replay: { cassette: file } }), {});
    expect(replay.provider).toBe('replay');
    expect(replay.modelId).toBe('qwen3');
    expect(await run(replay)).toEqual(recorded);
  });

  it('warns, and plays back all the same, when the run starts from another goal than the recorded one', async () => {
    const file = join(dir, 'run.json');
    await record(file);
    const warnings = async (question: string) =>
      (await collect((await replayModel(file)).stream(request(ask(question), tools)))).filter(
        (event) => event.type === 'warning',
      );
    expect(await warnings('what is in a.txt?')).toEqual([]);
    expect(await warnings('delete everything')).toEqual([
      {
        type: 'warning',
        message: `cassette ${file} was recorded for another goal than this run's: its responses play back as recorded`,
      },
    ]);
  });

  it('saves each response as soon as it is complete', async () => {
    const file = join(dir, 'partial.json');
    server = await startModelServer({ script: [{ text: 'one' }, { hang: true }] });
    const ollama = await createModel(
      providerConfig({ type: 'ollama', ollama: { base_url: server.ollamaUrl } }),
      {},
    );
    const model = recordingModel(ollama, file);
    await collect(model.stream(request(ask('hi'))));
    expect(JSON.parse(await readFile(file, 'utf8')).interactions).toHaveLength(1);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const error = await failure(model, request(ask('again'), [readFileTool], controller.signal));
    expect(isAbortError(error)).toBe(true);
    expect(JSON.parse(await readFile(file, 'utf8')).interactions).toHaveLength(1);
  });

  it('fails with cassette_invalid when the cassette cannot be written', async () => {
    server = await startModelServer({ script: [{ text: 'one' }] });
    const blocker = join(dir, 'not-a-dir');
    await writeFile(blocker, 'x');
    const ollama = await createModel(
      providerConfig({ type: 'ollama', ollama: { base_url: server.ollamaUrl } }),
      {},
    );
    const error = await failure(recordingModel(ollama, join(blocker, 'c.json')), request(ask('hi')));
    expect(error).toBeInstanceOf(CassetteError);
    expect(error.code).toBe('cassette_invalid');
    expect(error.message).toContain(`cannot write cassette ${join(blocker, 'c.json')}`);
  });

  it.each([
    ['a directory', (d: string) => d, 'it is a directory', 'name a file in it, such as DIR/run.json'],
    [
      'in a directory that does not exist',
      (d: string) => join(d, 'missing', 'c.json'),
      'DIR/missing does not exist',
      'create it first: mkdir -p DIR/missing',
    ],
  ])('refuses a --record path that is %s before any request (exit 2)', async (_, path, problem, hint) => {
    server = await startModelServer({ script: [{ text: 'one' }] });
    const file = path(dir);
    const config = providerConfig({ type: 'ollama', ollama: { base_url: server.ollamaUrl } });
    const error = await createModel(config, { record: file }).then(
      () => undefined,
      (e: unknown) => e as CassetteError,
    );
    expect(error).toBeInstanceOf(CassetteError);
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toBe(`cannot record to ${file}: ${problem.replace('DIR', dir)}`);
    expect(error?.hint).toBe(hint.replace('DIR', dir));
    expect(server.requests).toHaveLength(0);
  });

  it('leaves no temp file behind when the cassette cannot be written', async () => {
    const cassette = { version: 1 as const, provider: 'p', model: 'm', interactions: [] };
    // The rename fails: a directory stands where the cassette goes.
    await mkdir(join(dir, 'taken'));
    await expect(writeCassette(join(dir, 'taken'), cassette)).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
  });

  it('stops a replay with an AbortError when the signal has fired', async () => {
    const file = join(dir, 'run.json');
    await record(file);
    const controller = new AbortController();
    controller.abort();
    const error = await failure(await replayModel(file), request(ask('hi'), tools, controller.signal));
    expect(isAbortError(error)).toBe(true);
  });

  it('refuses to go on when a tool result differs from the recording', async () => {
    const file = join(dir, 'run.json');
    await record(file);
    const replay = await replayModel(file);
    const caught = await run(replay, false, 'write_file').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(caught).toBeInstanceOf(CassetteError);
    expect((caught as CassetteError).code).toBe('cassette_mismatch');
    expect((caught as CassetteError).message).toBe(
      `cassette ${file} no longer matches this run at response 2: it was recorded after read_file (ok), this run sent write_file (failed)`,
    );
    expect((caught as CassetteError).hint).toBe('re-record it with --record');
  });

  it('refuses a recorded tool call to a tool this run does not offer', async () => {
    const file = join(dir, 'run.json');
    await record(file);
    const error = await failure(await replayModel(file), request(ask('what is in a.txt?'), [writeFileTool]));
    expect(error).toBeInstanceOf(CassetteError);
    expect(error.message).toContain(
      'at response 1: it calls tool "read_file", which this run does not offer',
    );
  });

  it('says so when the run asks for more responses than were recorded', async () => {
    const file = join(dir, 'run.json');
    await record(file);
    const replay = await replayModel(file);
    await run(replay);
    const error = await failure(replay, request(ask('more'), tools));
    expect(error).toBeInstanceOf(CassetteError);
    expect(error.code).toBe('cassette_mismatch');
    expect(error.message).toContain('the run asked for response 3 but the cassette has only 2');
  });

  it.each([
    ['a missing file', undefined, 'no such file'],
    ['invalid JSON', '{"version": 1, ', 'is not valid JSON'],
    [
      'a wrong shape',
      JSON.stringify({ version: 1, provider: 'p', model: 'm', interactions: [{ events: [] }] }),
      'malformed at interactions.0.request',
    ],
    [
      'an unknown version',
      JSON.stringify({ version: 2, provider: 'p', model: 'm', interactions: [] }),
      'malformed at version',
    ],
  ])('rejects %s as cassette_invalid naming the file', async (_, content, problem) => {
    const file = join(dir, 'bad.json');
    if (content !== undefined) await writeFile(file, content);
    const caught = await replayModel(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(caught).toBeInstanceOf(CassetteError);
    expect((caught as CassetteError).code).toBe('cassette_invalid');
    expect((caught as CassetteError).message).toContain(file);
    expect((caught as CassetteError).message).toContain(problem);
  });

  it('asks for a cassette when provider replay has none', async () => {
    const caught = await createModel(providerConfig({ type: 'replay' }), {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(caught).toBeInstanceOf(CassetteError);
    expect((caught as CassetteError).message).toBe(
      'provider replay needs a cassette: pass --cassette <file>',
    );
  });
});
