// The language servers Keel knows (as data): pyright from its npm package, run in this Node; gopls, rust-analyzer,
// clangd, jdtls and the Dart server when their program is on PATH; plus those configured under
// `code.language_servers`, which add servers, replace built-in ones or turn them off (false).
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { LanguageServersConfig } from '../../config/language-servers-schema.js';
import { commandEnv } from '../../exec/command-env.js';
import type { LanguageService, LanguageServiceFactory } from './service.js';

export interface ServerDefinition {
  id: string;
  /** Program and arguments; the program is looked up on PATH unless it is a path. */
  command: readonly string[];
  extensions: readonly string[];
  env?: Readonly<Record<string, string>>;
}

/** Built-in servers found on PATH; pyright is added separately (it ships with Keel). */
export const pathServers: readonly ServerDefinition[] = [
  { id: 'gopls', command: ['gopls'], extensions: ['.go'] },
  { id: 'rust-analyzer', command: ['rust-analyzer'], extensions: ['.rs'] },
  {
    id: 'clangd',
    command: ['clangd'],
    extensions: ['.c', '.h', '.cc', '.cpp', '.cxx', '.hh', '.hpp', '.hxx'],
  },
  { id: 'jdtls', command: ['jdtls'], extensions: ['.java'] },
  { id: 'dart', command: ['dart', 'language-server'], extensions: ['.dart'] },
];

export const pyrightExtensions: readonly string[] = ['.py', '.pyi'];

/** LSP language identifiers by extension; any other file is named by its extension. */
const languageIds: Record<string, string> = {
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hh': 'cpp',
  '.hpp': 'cpp',
  '.hxx': 'cpp',
  '.java': 'java',
  '.dart': 'dart',
};

export function languageId(file: string): string {
  const extension = path.extname(file).toLowerCase();
  return languageIds[extension] ?? extension.slice(1);
}

/**
 * The server definitions of a run: configured entries first (so they win for their extensions), then the
 * built-in ones not replaced or turned off. Pyright is the entry named 'pyright' with an empty command.
 */
export function serverDefinitions(config: LanguageServersConfig = {}): ServerDefinition[] {
  const configured: ServerDefinition[] = [];
  for (const [id, entry] of Object.entries(config)) {
    if (entry !== false)
      configured.push({ id, command: entry.command, extensions: entry.extensions, env: entry.env });
  }
  const builtIn = [{ id: 'pyright', command: [], extensions: pyrightExtensions }, ...pathServers];
  return [...configured, ...builtIn.filter((server) => !(server.id in config))];
}

/**
 * The absolute path of `program`: itself when it is a path, else the first executable of that name in PATH's
 * absolute directories (a relative entry such as `.` would run a program the workspace provides).
 */
export async function findProgram(
  program: string,
  pathVariable: string | undefined,
): Promise<string | undefined> {
  const executable = (file: string) =>
    fs.stat(file).then(
      async (s) =>
        s.isFile() &&
        (await fs.access(file, fs.constants.X_OK).then(
          () => true,
          () => false,
        )),
      () => false,
    );
  if (program.includes('/'))
    return path.isAbsolute(program) && (await executable(program)) ? program : undefined;
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const file = path.join(dir, program);
    if (await executable(file)) return file;
  }
  return undefined;
}

/** Pyright's language server script from the installed npm package (never downloaded), or undefined. */
export function pyrightServerScript(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('pyright/langserver.index.js');
  } catch {
    return undefined;
  }
}

/** Pyright logs "Found 12 source files" once it has listed the workspace's files. */
function pyrightReady(method: string, params: unknown): boolean {
  const message = (params as { message?: unknown } | undefined)?.message;
  return (
    method === 'window/logMessage' &&
    typeof message === 'string' &&
    /^(Found \d+ source files?|No source files found)/.test(message)
  );
}

function handles(extensions: readonly string[]): (file: string) => boolean {
  const wanted = new Set(extensions.map((e) => e.toLowerCase()));
  return (file) => wanted.has(path.extname(file).toLowerCase());
}

/** A factory per definition; each starts its server on the first file it handles, undefined when it cannot run. */
export function lspFactories(
  definitions: readonly ServerDefinition[],
  env: NodeJS.ProcessEnv = process.env,
): LanguageServiceFactory[] {
  return definitions.map((definition) => {
    const handlesFile = handles(definition.extensions);
    return {
      id: definition.id,
      handles: handlesFile,
      start: async (root: string): Promise<LanguageService | undefined> => {
        // Servers get the environment commands get (no API keys), plus what their config adds.
        const serverEnv = { ...commandEnv(env), ...definition.env };
        let command: string | undefined;
        let args: string[];
        if (definition.command.length === 0) {
          const script = pyrightServerScript();
          command = script ? process.execPath : undefined;
          args = script ? [script, '--stdio'] : [];
        } else {
          command = await findProgram(definition.command[0] as string, serverEnv.PATH);
          args = definition.command.slice(1);
        }
        if (!command) return undefined;
        // The LSP client and vscode-jsonrpc load only when a server starts.
        const { startLspService } = await import('./lsp-service.js');
        const readyWhen = definition.command.length === 0 ? pyrightReady : undefined;
        return startLspService({ id: definition.id, command, args, env: serverEnv, readyWhen }, root, {
          languageId,
          handles: handlesFile,
        });
      },
    };
  });
}
