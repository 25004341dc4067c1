// End to end: `keel run --input-format stream-json --output stream-json` holds one conversation in one process —
// a turn whose change waits for an approval line, a turn cancelled mid-request, and a turn after it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKeel } from '../support/cli.js';
import { toolMessages, useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();

const user = (content: string) => `${JSON.stringify({ type: 'user', message: { role: 'user', content } })}\n`;

describe('keel run --input-format stream-json', () => {
  it('runs each user line as a turn, waits for the approval line, and cancels a turn on a cancel line', async () => {
    const ws = await workspace({ 'a.txt': 'old\n' });
    let stdin: NodeJS.WritableStream | undefined;
    const s = await server([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'new\n' } }] },
      { text: 'changed it' },
      () => {
        // The second turn's request is in flight: cancel it.
        stdin?.write('{"type":"cancel"}\n');
        return { hang: true };
      },
      { text: 'third answer' },
    ]);
    const r = await runKeel(
      ['run', '--input-format', 'stream-json', '--output', 'stream-json', '--mode', 'interactive'],
      {
        cwd: ws,
        env: { OLLAMA_HOST: s.ollamaUrl },
        openStdin: true,
        onSpawn: (child) => {
          stdin = child.stdin!;
          let buffered = '';
          let ends = 0;
          child.stdout!.on('data', (chunk) => {
            buffered += String(chunk);
            const lines = buffered.split('\n');
            buffered = lines.pop()!;
            for (const line of lines) {
              const event = JSON.parse(line);
              if (event.type === 'approval_requested')
                child.stdin!.write(
                  `${JSON.stringify({ type: 'approval', id: event.id, decision: 'once' })}\n`,
                );
              if (event.type !== 'run_end') continue;
              ends += 1;
              if (ends === 1) child.stdin!.write(user('now wait'));
              if (ends === 2) child.stdin!.write(user('and now?'));
              if (ends === 3) child.stdin!.end();
            }
          });
          child.stdin!.write(user('change a.txt'));
        },
      },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.filter((e) => e.type === 'run_end').map((e) => e.reason)).toEqual([
      'done',
      'interrupted',
      'done',
    ]);
    expect(events.filter((e) => e.type === 'approval_answered')).toMatchObject([{ decision: 'once' }]);
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('new\n');
    expect(toolMessages(s.requests[1]!.body).at(-1)).not.toMatch(/^Error/);
    // One conversation: the third request carries the first turn's exchange.
    expect(JSON.stringify(s.requests[3]!.body.messages)).toContain('changed it');
  });
});
