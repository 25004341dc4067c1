// lineStream: a response body re-framed line by line, whatever the chunks' edges: lines split across chunks, several
// in one chunk, a character split between chunks, the last line without its break, and one line of megabytes
// arriving in thousands of chunks (a tool call's arguments), found without searching the earlier chunks again.
import { describe, expect, it } from 'vitest';
import { lineStream } from '../../src/providers/line-stream.js';

async function linesOf(chunks: Uint8Array[]): Promise<string[]> {
  const lines: string[] = [];
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  }).pipeThrough(lineStream((line) => lines.push(line)));
  const reader = stream.getReader();
  while (!(await reader.read()).done) {}
  return lines;
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('lineStream', () => {
  it.each<[string, string[], string[]]>([
    ['one line per chunk', ['a\n', 'b\n'], ['a', 'b']],
    ['several lines in one chunk', ['a\nb\nc\n'], ['a', 'b', 'c']],
    ['a line split across chunks', ['{"x":', '1}', '\n{"y":2}\n'], ['{"x":1}', '{"y":2}']],
    ['the last line without its break', ['a\nb'], ['a', 'b']],
    ['empty lines kept', ['a\n\nb\n'], ['a', '', 'b']],
    ['nothing', [], []],
  ])('%s', async (_name, chunks, expected) => {
    expect(await linesOf(chunks.map(bytes))).toEqual(expected);
  });

  it('decodes a character whose bytes two chunks share', async () => {
    const all = bytes('é€\n');
    expect(await linesOf([all.slice(0, 1), all.slice(1, 3), all.slice(3)])).toEqual(['é€']);
  });

  it('passes on a line of megabytes sent in thousands of small chunks whole', async () => {
    const line = `{"arguments":"${'y'.repeat(8_000_000)}"}`;
    const all = bytes(`${line}\nnext\n`);
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < all.length; at += 4096) chunks.push(all.slice(at, at + 4096));
    const lines = await linesOf(chunks);
    expect(lines).toHaveLength(2);
    expect(lines[0]?.length).toBe(line.length);
    expect(lines[1]).toBe('next');
  });
});
