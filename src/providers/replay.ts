// Replay: serves a recorded cassette as a model, response by response, refusing to continue once the run diverges.
import { readFile } from 'node:fs/promises';
import { CassetteError } from '../core/errors.js';
import type { Model, ModelEvent, ModelRequest } from '../core/model.js';
import {
  type Cassette,
  cassetteSchema,
  describeToolResults,
  fingerprint,
  goalPrint,
  type RequestFingerprint,
} from './cassette.js';
import { abortError } from './errors.js';

const reRecord = { hint: 're-record it with --record' };

export async function replayModel(file: string): Promise<Model> {
  const cassette = await loadCassette(file);
  let next = 0;

  async function* stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
    if (request.signal.aborted) throw abortError(request.signal);
    const number = ++next;
    const interaction = cassette.interactions[number - 1];
    if (!interaction) {
      throw new CassetteError(
        'cassette_mismatch',
        `cassette ${file} no longer matches this run: the run asked for response ${number} but the cassette has only ${cassette.interactions.length}`,
        reRecord,
      );
    }
    const divergence = compare(interaction.request, fingerprint(request.messages));
    const offered = new Set(request.tools.map((tool) => tool.name));
    const unknownCall = interaction.events.find(
      (event) => event.type === 'tool-call' && !offered.has(event.call.name),
    );
    const problem =
      divergence ??
      (unknownCall?.type === 'tool-call'
        ? `it calls tool "${unknownCall.call.name}", which this run does not offer`
        : undefined);
    if (problem) {
      throw new CassetteError(
        'cassette_mismatch',
        `cassette ${file} no longer matches this run at response ${number}: ${problem}`,
        reRecord,
      );
    }
    if (number === 1 && cassette.goal !== undefined && goalPrint(request.messages) !== cassette.goal) {
      yield {
        type: 'warning',
        message: `cassette ${file} was recorded for another goal than this run's: its responses play back as recorded`,
      };
    }
    for (const event of interaction.events) {
      if (request.signal.aborted) throw abortError(request.signal);
      yield structuredClone(event);
    }
  }

  return {
    provider: 'replay',
    modelId: cassette.model,
    ...(cassette.images
      ? { capabilities: { id: cassette.model, images: true, source: 'table' as const } }
      : {}),
    stream,
  };
}

/** How a run's request differs from the recorded one, or undefined when it matches. */
export function compare(recorded: RequestFingerprint, actual: RequestFingerprint): string | undefined {
  const was = describeToolResults(recorded.toolResults);
  const now = describeToolResults(actual.toolResults);
  if (was !== now) return `it was recorded after ${was}, this run sent ${now}`;
  const images = (print: RequestFingerprint) => (print.images ?? []).join(',');
  if (images(recorded) !== images(actual)) {
    const was = recorded.images?.length ?? 0;
    const now = actual.images?.length ?? 0;
    return was === now
      ? `it was recorded with other image${was === 1 ? '' : 's'} than this run sent`
      : `it was recorded with ${was} image(s), this run sent ${now}`;
  }
  if (recorded.messages !== actual.messages) {
    return `it was recorded after ${recorded.messages} messages, this run sent ${actual.messages}`;
  }
  return undefined;
}

async function loadCassette(file: string): Promise<Cassette> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String(error);
    throw new CassetteError('cassette_invalid', `cannot read cassette ${file}: ${reason}`, {
      hint: 'record one with --record <file>, or check the path given to --cassette',
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CassetteError(
      'cassette_invalid',
      // Node's JSON.parse message quotes the file's text; say where instead of echoing what is there.
      `cassette ${file} is not valid JSON${jsonErrorPosition(text, error)}`,
      {
        ...reRecord,
        cause: error,
      },
    );
  }
  const parsed = cassetteSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new CassetteError(
      'cassette_invalid',
      `cassette ${file} is malformed${where}: ${issue?.message ?? 'invalid'}`,
      reRecord,
    );
  }
  return parsed.data;
}

/** " (line 3, column 7)" from a JSON.parse error that names a position, else "". */
function jsonErrorPosition(text: string, error: unknown): string {
  const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  if (position === undefined) return '';
  const before = text.slice(0, Number(position)).split('\n');
  return ` (line ${before.length}, column ${before.at(-1)!.length + 1})`;
}
