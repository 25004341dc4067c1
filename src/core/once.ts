// A value made on first use and kept: zod schemas a module declares, so importing the module does not build them
// (each zod schema defines its methods on the instance; a dozen at start-up cost milliseconds before the first request).
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
