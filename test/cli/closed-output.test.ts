// The output's reader gone: a pipe closed (EPIPE) or the terminal closed (EIO) stops Keel quietly; other stream errors
// still fail loudly. (test/e2e/closed-output.test.ts covers the pipe end to end.)
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { closedOutputWatch } from '../../src/cli/closed-output.js';

const fail = (code: string) => Object.assign(new Error(`write ${code}`), { code });

// A watch of its own: the process's (outputClosed) is shared by every test file this worker runs, and once aborted it
// would end their in-process runs as interrupted.
describe('closedOutputWatch', () => {
  it('takes EIO from a closed terminal as the output closing: the work stops and nothing more is written', () => {
    const written: string[] = [];
    const stream = () =>
      Object.assign(new EventEmitter(), {
        write: (text: string) => {
          written.push(text);
          return true;
        },
      }) as unknown as NodeJS.WriteStream;
    const [stdout, stderr] = [stream(), stream()];
    const watch = closedOutputWatch();
    watch.watch([stdout, stderr]);
    // Another error is not a closed reader: it still fails, and nothing stops.
    expect(() => stderr.emit('error', fail('ENOSPC'))).toThrow('ENOSPC');
    expect(watch.signal.aborted).toBe(false);
    stderr.emit('error', fail('EIO'));
    expect(watch.signal.aborted).toBe(true);
    stdout.write('interrupted\n');
    expect(written).toEqual([]);
  });
});
