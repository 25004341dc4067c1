// A response body re-framed line by line: each complete line goes to `onLine` as soon as it has arrived (streaming
// is kept), the last one, without its line break, at the end. Used to mend or check a provider's lines before its
// parser sees them (ollama-fetch.ts, compatible-fetch.ts).

export type LineSink = (line: string, controller: TransformStreamDefaultController<Uint8Array>) => void;

export function lineStream(onLine: LineSink): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  // The unfinished line's pieces: only each new chunk is searched for a line break, so a line of many megabytes
  // (a tool call's arguments) arriving in thousands of chunks costs its length once, not once per chunk.
  let pieces: string[] = [];
  return new TransformStream({
    transform(chunk, controller) {
      const text = decoder.decode(chunk, { stream: true });
      let start = 0;
      for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', start)) {
        pieces.push(text.slice(start, at));
        const line = pieces.join('');
        pieces = [];
        start = at + 1;
        onLine(line, controller);
      }
      if (start < text.length) pieces.push(text.slice(start));
    },
    flush(controller) {
      const rest = pieces.join('') + decoder.decode();
      if (rest !== '') onLine(rest, controller);
    },
  });
}
