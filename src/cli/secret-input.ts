// Reads a secret from stdin: a prompt without echo on a terminal, the whole input when piped. At a terminal, what
// was typed before the prompt showed (type-ahead, waiting in the terminal's buffer) is dropped, not taken as the
// answer.

/** stdin as reading a secret uses it: a terminal (isTTY, raw mode) or piped text. */
export type SecretInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(raw: boolean): unknown };

export interface SecretIo {
  input: SecretInput;
  /** Where the prompt goes. */
  output: NodeJS.WritableStream;
}

const processIo = (): SecretIo => ({ input: process.stdin, output: process.stderr });

/**
 * How long input already waiting is read and dropped before a question shows. What the terminal holds arrives at
 * the first read, in one chunk; nobody answers a question within this time of its showing.
 */
const TYPE_AHEAD_MS = 50;

/**
 * Drops what was typed at a terminal before a question shows: a line typed while Keel started is not the answer to
 * a question it never saw. In raw mode, so a line not yet ended goes too. stdin is left paused, in cooked mode.
 */
export async function discardTypeAhead(input: SecretInput = process.stdin): Promise<void> {
  if (!input.isTTY) return;
  const drop = () => {};
  input.setRawMode?.(true);
  input.on('data', drop);
  input.resume();
  await new Promise((resolve) => setTimeout(resolve, TYPE_AHEAD_MS));
  input.off('data', drop);
  input.pause();
  input.setRawMode?.(false);
}

export async function readSecret(prompt: string, io: SecretIo = processIo()): Promise<string> {
  const { input: stdin, output } = io;
  if (!stdin.isTTY) {
    let text = '';
    stdin.setEncoding('utf8');
    for await (const chunk of stdin) text += chunk;
    return text.trim();
  }
  stdin.setEncoding('utf8');
  await discardTypeAhead(stdin);
  output.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      stdin.setRawMode?.(false);
      stdin.pause();
      stdin.off('data', onData);
      output.write('\n');
      if (error) reject(error);
      else resolve(value.trim());
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(Object.assign(new Error('interrupted'), { name: 'AbortError' }));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.setRawMode?.(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}
