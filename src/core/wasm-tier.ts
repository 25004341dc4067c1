// WebAssembly (the bash grammar, fetch's HTTP parser) runs on V8's baseline compiler only: the optimising tier
// would compile in the background after first use, about 17 MB of peak memory for parsers that only ever see a few
// kilobytes at a time. Set before the first module compiles rather than at launch, where loading node:v8 cost ~4 ms
// before the first model request.
import { createRequire } from 'node:module';

let set = false;

/** Keeps WebAssembly on V8's baseline compiler from now on; idempotent. */
export function baselineWasmOnly(): void {
  // The build's warm-up writes the code cache at exit, and V8 accepts a cache only under the flags it was made
  // with: the flags as they are at launch.
  if (set || process.env.KEEL_BUILD_CODE_CACHE) return;
  set = true;
  (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString(
    '--liftoff-only',
  );
}
