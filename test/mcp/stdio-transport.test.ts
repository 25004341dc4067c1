// A stdio server's output as JSON-RPC messages: lines joined across chunks once, and a message too large to read
// stopping the server with that reason instead of throwing out of Keel's event loop.
import { describe, expect, it } from 'vitest';
import { ServerProcess } from '../../src/mcp/server-process.js';
import { GroupStdioTransport, LineBuffer } from '../../src/mcp/stdio-transport.js';

describe('LineBuffer', () => {
  const cases: { name: string; chunks: string[]; lines: string[] }[] = [
    { name: 'one line in one chunk', chunks: ['{"a":1}\n'], lines: ['{"a":1}'] },
    { name: 'a line across chunks', chunks: ['{"a"', ':1', '}\n'], lines: ['{"a":1}'] },
    { name: 'two lines in one chunk, a third begun', chunks: ['a\nb\nc', 'd\n'], lines: ['a', 'b', 'cd'] },
    { name: 'CRLF endings', chunks: ['a\r\nb\r', '\n'], lines: ['a', 'b'] },
    { name: 'an unfinished line kept', chunks: ['abc'], lines: [] },
    { name: 'a character split between chunks', chunks: ['\xC3', '\xA9\n'], lines: ['é'] },
  ];
  it.each(cases)('$name', ({ chunks, lines }) => {
    const buffer = new LineBuffer(100);
    const out = chunks.flatMap((chunk) => buffer.push(Buffer.from(chunk, 'latin1')));
    expect(out).toEqual(lines);
  });

  it('throws once an unfinished line passes the limit, and starts afresh after it', () => {
    const buffer = new LineBuffer(10);
    expect(buffer.push(Buffer.from('12345'))).toEqual([]);
    expect(() => buffer.push(Buffer.from('678901'))).toThrow(/over 10 bytes/);
    expect(buffer.push(Buffer.from('ok\n'))).toEqual(['ok']);
  });
});

describe('GroupStdioTransport', () => {
  it('stops a server whose message is too large, saying why, and throws nothing', async () => {
    // 2 KB of a line not yet ended, then the server waits: a limit of 1 KB stops it.
    const script = "process.stdout.write('x'.repeat(2048)); setInterval(() => {}, 1000);";
    const server = new ServerProcess({
      command: process.execPath,
      args: ['-e', script],
      env: {},
      cwd: process.cwd(),
    });
    const transport = new GroupStdioTransport(() => server, 1024);
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    await transport.start();
    await closed;
    expect(transport.stopReason).toBe('sent a message over 1024 bytes, more than Keel reads');
    expect(errors.map((error) => error.message)).toEqual(['a message over 1024 bytes']);
    await server.gone;
  });
});
