// What the chat's line reader hands readline: the terminal, written to only while a prompt is up, and a completer
// that applies Tabs typed together one after another.

/** Tab completion: the candidates for the line so far, and the part of the line they replace. */
export type Completer = (line: string) => Promise<[string[], string]>;

/**
 * Readline's completer over `completer`: none when `skip()` says so. Tabs typed together (Tab Tab, read at once) would
 * each complete the same line: the second would insert the common prefix again. Each waits for the one before to be
 * applied (readline applies it in the microtasks after `done`), then completes the line as it stands, `current()`.
 */
export function queuedCompleter(
  completer: Completer,
  current: () => string,
  skip: () => boolean,
): (line: string, done: (error: Error | null, result: [string[], string]) => void) => void {
  let completing: Promise<unknown> = Promise.resolve();
  return (line, done) => {
    if (skip()) return done(null, [[], line]);
    const result = completing
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .then(() => completer(current()));
    completing = result.catch(() => {});
    result.then(
      (found) => done(null, found),
      () => done(null, [[], current()]),
    );
  };
}

/**
 * The terminal as readline sees it: its size and events are the terminal's, its writes (the echo of keys, the
 * line redrawn) go through only while `open()` holds.
 */
export function gated(output: NodeJS.WritableStream, open: () => boolean): NodeJS.WritableStream {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    if (open()) return (output.write as (...args: unknown[]) => boolean)(chunk, ...rest);
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    if (done) process.nextTick(done);
    return true;
  };
  return new Proxy(output, {
    get(target, key) {
      if (key === 'write') return write;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
