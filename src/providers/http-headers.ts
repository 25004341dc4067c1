// A small WHATWG-style Headers for the providers' HTTP client: the global Headers is undici's, and touching it loads
// all of undici (tens of milliseconds before the first model request). The build also gives this class to the AI SDK's
// provider-utils and the OpenRouter provider under the name `Headers` (scripts/build.mjs, lightHeaders).

/** What `new Headers(init)` accepts: a record, pairs, or any Headers (this one or undici's), which iterate as pairs. */
export type HeadersInput =
  | Record<string, string | readonly string[] | undefined>
  | Iterable<readonly [string, string]>
  | Iterable<readonly string[]>;

// RFC 9110 token characters; a value may hold neither NUL, CR nor LF (fetch's Headers refuses them the same way).
const validName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const invalidValue = /[\0\r\n]/;
// Leading and trailing HTTP whitespace is stripped from a value, as the Fetch standard normalises it.
const edgeWhitespace = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/** Case-insensitive header names, values of one name joined by ", " (set-cookie kept apart), iterated sorted by name. */
export class LightHeaders implements Iterable<[string, string]> {
  readonly #values = new Map<string, string[]>();

  constructor(init?: HeadersInput | null) {
    if (init === undefined || init === null) return;
    if (typeof init !== 'object') throw new TypeError('Headers: the init is neither a record nor pairs');
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<readonly string[]>) {
        if (pair.length !== 2) throw new TypeError('Headers: a header pair must have a name and a value');
        this.append(pair[0]!, pair[1]!);
      }
      return;
    }
    for (const [name, value] of Object.entries(init)) {
      // As in fetch, an undefined value is the string "undefined" (the AI SDK drops them before it builds Headers).
      if (Array.isArray(value)) for (const each of value) this.append(name, each);
      else this.append(name, value as string);
    }
  }

  append(name: string, value: string): void {
    const [key, normalized] = checked(name, value);
    const values = this.#values.get(key);
    if (values) values.push(normalized);
    else this.#values.set(key, [normalized]);
  }

  set(name: string, value: string): void {
    const [key, normalized] = checked(name, value);
    this.#values.set(key, [normalized]);
  }

  get(name: string): string | null {
    return this.#values.get(lower(name))?.join(', ') ?? null;
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])];
  }

  has(name: string): boolean {
    return this.#values.has(lower(name));
  }

  delete(name: string): void {
    this.#values.delete(lower(name));
  }

  forEach(callback: (value: string, name: string, headers: LightHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    const names = [...this.#values.keys()].sort();
    for (const name of names) {
      const values = this.#values.get(name);
      if (!values) continue;
      if (name === 'set-cookie') for (const value of values) yield [name, value];
      else yield [name, values.join(', ')];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}

function lower(name: string): string {
  return String(name).toLowerCase();
}

function checked(name: string, value: string): [string, string] {
  const key = lower(name);
  const normalized = String(value).replace(edgeWhitespace, '');
  if (!validName.test(key)) throw new TypeError(`Headers: "${name}" is an invalid header name`);
  if (invalidValue.test(normalized)) throw new TypeError(`Headers: the value of "${name}" is invalid`);
  return [key, normalized];
}
