// Recording: wraps any model, passes its events through as they stream and saves each complete response to a cassette.
import { CassetteError } from '../core/errors.js';
import type { Model, ModelEvent, ModelRequest, ResponseEvent } from '../core/model.js';
import { outputPathProblem } from '../core/output-path.js';
import { type Redactor, redactDeep, redactJsonText } from '../safety/redact.js';
import { type Cassette, fingerprint, goalPrint, writeCassette } from './cassette.js';

/** The event as the cassette keeps it: secrets the model echoed (a key it read, a token in a command) removed. */
function redacted(event: ResponseEvent, redact: Redactor): ResponseEvent {
  if (event.type !== 'tool-call') return redactDeep(event, redact);
  // The arguments stay a JSON text that parses, so replay runs the same call with the secret left out.
  return { ...event, call: { ...event.call, input: redactJsonText(event.call.input, redact) } };
}

/** Checked before the run's first request, so a bad --record path costs no model call. */
export async function checkRecordPath(file: string): Promise<void> {
  const found = await outputPathProblem(file);
  if (found)
    throw new CassetteError('cassette_invalid', `cannot record to ${file}: ${found.problem}`, {
      hint: found.hint,
    });
}

/** `redact`: the run's redactor (sessions and the audit log use the same); every recorded event passes it. */
export function recordingModel(inner: Model, file: string, redact: Redactor = (text) => text): Model {
  const cassette: Cassette = {
    version: 1,
    provider: inner.provider,
    model: inner.modelId,
    ...(inner.capabilities?.images ? { images: true } : {}),
    interactions: [],
  };
  // Responses are sequential in a run, but chaining the writes keeps the file in order even if they are not.
  let saved: Promise<void> = Promise.resolve();

  async function save(snapshot: Cassette): Promise<void> {
    try {
      await writeCassette(file, snapshot);
    } catch (error) {
      throw new CassetteError(
        'cassette_invalid',
        `cannot write cassette ${file}: ${(error as Error).message}`,
        {
          hint: 'pass --record a path in a writable directory',
          cause: error,
        },
      );
    }
  }

  async function* stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
    const requestPrint = fingerprint(request.messages);
    cassette.goal ??= goalPrint(request.messages);
    const events: ResponseEvent[] = [];
    for await (const event of inner.stream(request)) {
      // Retries sit outside the recorder, so none reach it; a cassette holds responses only (no warnings).
      if (event.type !== 'retry' && event.type !== 'warning') events.push(redacted(event, redact));
      yield event;
    }
    // Only complete responses are kept: a failed or abandoned one would not replay as the same run.
    cassette.interactions.push({ request: requestPrint, events });
    const snapshot = structuredClone(cassette);
    saved = saved.catch(() => {}).then(() => save(snapshot));
    await saved;
  }

  return {
    provider: inner.provider,
    modelId: inner.modelId,
    ...(inner.capabilities ? { capabilities: inner.capabilities } : {}),
    ...(inner.webSearch ? { webSearch: inner.webSearch } : {}),
    stream,
  };
}
