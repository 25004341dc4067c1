// Which language services a run may start, in order of preference: the TypeScript compiler API for TS/JS, pyright
// for Python, then the language servers configured under `code.language_servers` or found on PATH.
import type { LanguageServersConfig } from '../../config/language-servers-schema.js';
import { lspFactories, serverDefinitions } from './lsp-servers.js';
import type { LanguageServiceFactory } from './service.js';
import { typeScriptFactory } from './typescript.js';

/** The part of the config the factories read (a KeelConfig fits). */
export interface LanguageServicesConfig {
  code?: { language_servers?: LanguageServersConfig };
}

/** The factories for a run; each starts its service lazily, on the first file it handles. */
export function languageServiceFactories(config?: LanguageServicesConfig): LanguageServiceFactory[] {
  return [typeScriptFactory, ...lspFactories(serverDefinitions(config?.code?.language_servers))];
}
