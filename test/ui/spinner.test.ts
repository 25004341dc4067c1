// The spinner's line: label, elapsed time and a note (the chat: what was typed meanwhile), never wider than the terminal.
import { PassThrough } from 'node:stream';
import { afterEach, expect, test, vi } from 'vitest';
import { createSpinner } from '../../src/ui/spinner.js';

afterEach(() => {
  vi.useRealTimers();
});

test('adds its note after the elapsed time and cuts the line to the terminal width', () => {
  vi.useFakeTimers();
  const stream = Object.assign(new PassThrough({ encoding: 'utf8' }), { columns: 40 });
  let written = '';
  stream.on('data', (chunk: string) => (written += chunk));
  let note = ' · typed: hi';
  const spinner = createSpinner(
    stream,
    (text) => text,
    () => note,
  );
  spinner.start('thinking', Date.now());
  vi.advanceTimersByTime(100);
  expect(written.split('\r\x1b[2K').at(-1)).toBe('⠋ thinking 0.1s · typed: hi');
  note = ` · typed: ${'x'.repeat(80)}`;
  vi.advanceTimersByTime(100);
  const line = written.split('\r\x1b[2K').at(-1) ?? '';
  expect(line.startsWith('⠙ thinking 0.2s · typed: x')).toBe(true);
  expect(line.endsWith('…')).toBe(true);
  expect([...line].length).toBeLessThanOrEqual(39);
  spinner.stop();
});

test('started again with the same label and start time, turns on without a gap or a reset', () => {
  vi.useFakeTimers();
  const stream = Object.assign(new PassThrough({ encoding: 'utf8' }), { columns: 40 });
  let written = '';
  stream.on('data', (chunk: string) => (written += chunk));
  const spinner = createSpinner(stream, (text) => text);
  const since = Date.now();
  spinner.start('thinking', since);
  vi.advanceTimersByTime(100);
  spinner.start('thinking', since);
  vi.advanceTimersByTime(100);
  expect(written.split('\r\x1b[2K').filter(Boolean)).toEqual(['⠋ thinking 0.1s', '⠙ thinking 0.2s']);
  spinner.start('running read_file');
  vi.advanceTimersByTime(100);
  expect(written.split('\r\x1b[2K').at(-1)).toBe('⠋ running read_file 0.1s');
  spinner.stop();
});
