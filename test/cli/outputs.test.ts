// What a text-mode `keel run` prints on a terminal's stderr besides the tool lines: the plan report and the summary
// line wrap at word boundaries to the terminal's width, and a pipe gets them whole.
import { describe, expect, it } from 'vitest';
import type { GlobalOptions } from '../../src/cli/global-options.js';
import { outputSink } from '../../src/cli/outputs.js';
import type { AgentEvent } from '../../src/core/events.js';
import type { Model } from '../../src/core/model.js';

function stream(tty: boolean, columns: number) {
  let text = '';
  const write = (chunk: string) => {
    text += chunk;
    return true;
  };
  const s = { isTTY: tty, columns, write };
  return { s: s as unknown as NodeJS.WriteStream, text: () => text };
}

const model = { provider: 'ollama', modelId: 'qwen3' } as unknown as Model;
const options = { output: 'text' } as GlobalOptions;
const end: AgentEvent = {
  type: 'run_end',
  reason: 'done',
  answer: 'ok',
  turns: 12,
  tool_calls: 34,
  usage: { input_tokens: 1_234_567, output_tokens: 45_678, cache_read_tokens: 1_000_000 },
};

function printed(tty: boolean, columns: number): string {
  const stdout = stream(false, columns);
  const stderr = stream(tty, columns);
  const sink = outputSink(
    options,
    model,
    { streamText: false, summary: true, plan: ['Read it', 'Add a title'] },
    undefined,
    {
      stdout: stdout.s,
      stderr: stderr.s,
    },
  );
  sink(end);
  // The spinner's frames (a terminal) are redrawn in place: only whole lines count.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the spinner's cursor escapes are dropped.
  const escapes = /\x1b\[[0-9;?]*[A-Za-z]/g;
  return stderr.text().replace(escapes, '').replace(/^.*\r/gm, '');
}

describe('a text run on a terminal', () => {
  it('wraps the summary line and the plan report at word boundaries to the width', () => {
    const text = printed(true, 60);
    const lines = text.split('\n').filter((line) => line !== '');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(text.replace(/\n/g, ' ')).toContain(
      '12 turns · 34 tool calls · 1,234,567 tokens in (1,000,000 cached)',
    );
    expect(text).toMatch(/ 0 files changed by file\s+tools\n/);
    expect(text).toContain('plan not finished: 0 of 2 instructions done');
  });

  it('leaves them whole in a pipe', () => {
    const text = printed(false, 60);
    expect(text).toMatch(/12 turns · 34 tool calls .* 0 files changed by file tools\n/);
  });
});
