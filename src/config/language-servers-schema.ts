// `code.language_servers`: language servers Keel talks LSP to, by name. A name of a built-in server (pyright,
// gopls, rust-analyzer, clangd, jdtls, dart) set to false turns it off; an entry replaces or adds a server.
import * as z from 'zod';

export const languageServerSchema = z
  .object({
    command: z
      .array(z.string().min(1))
      .min(1, 'give the program and its arguments, e.g. [gopls] or [dart, language-server]')
      .describe('program and arguments; it speaks LSP on stdin/stdout'),
    extensions: z
      .array(z.string().regex(/^\.[A-Za-z0-9_.+-]+$/, 'extensions start with a dot, e.g. ".go"'))
      .min(1, 'give the file extensions it handles, e.g. [.go]')
      .describe('file extensions it handles, e.g. [.go]'),
    env: z.record(z.string(), z.string()).default({}).describe('extra environment'),
  })
  .strict();

export type LanguageServerConfig = z.infer<typeof languageServerSchema>;

export const languageServersSchema = z
  .record(
    z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'server names use letters, digits, ".", "_" and "-"'),
    z.union([z.literal(false), languageServerSchema], {
      error: 'a language server is false (off) or {command: [...], extensions: [...]}',
    }),
  )
  .default({});

export type LanguageServersConfig = z.infer<typeof languageServersSchema>;
