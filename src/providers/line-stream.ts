// A response body re-framed line by line: each complete line goes to `onLine` as soon as it has arrived (streaming
// is kept), the last one, without its line break, at the end. Used to mend or check a provider's lines before its
// parser sees them (ollama-fetch.ts, compatible-fetch.ts).

export type LineSink = (line: string, controller: TransformStreamDefaultController<Uint8Array>) => void;

export function lineStream(onLine: LineSink): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = '';
  return new TransformStream({
    transform(chunk, controller) {
      buffer += decoder.decode(chunk, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) onLine(line, controller);
    },
    flush(controller) {
      const rest = buffer + decoder.decode();
      if (rest !== '') onLine(rest, controller);
    },
  });
}
