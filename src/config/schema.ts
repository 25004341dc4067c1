// The one config schema (zod): keys, types, defaults and one-line descriptions. Unknown keys are errors.
import * as z from 'zod';
import { customToolsSchema, hooksSchema } from './extend-schema.js';
import { languageServersSchema } from './language-servers-schema.js';
import { mcpServersSchema } from './mcp-schema.js';
import { httpUrl, positiveInt, providerSchema } from './provider-schema.js';

export { type ProviderName, providerNames } from './provider-schema.js';

const stringList = z.array(z.string().min(1)).default([]);

// Descriptions double as the comments of the starter config file (`keel config init`).
export const configSchema = z
  .object({
    provider: providerSchema(),
    agent: z
      .object({
        max_turns: positiveInt.default(100).describe('stop after this many model turns'),
        max_parallel_tasks: positiveInt
          .default(4)
          .describe('sub-agents (the task tool) one turn runs at once'),
        timeout_seconds: positiveInt.default(600).describe('stop a run after this many seconds'),
        max_tool_argument_kb: positiveInt
          .default(1024)
          .describe(
            'refuse a tool call whose arguments are larger (KB); the model is told to write in parts',
          ),
        conversation: z
          .object({
            max_tokens: positiveInt.default(100_000).describe('token budget for the conversation'),
            min_retain_turns: positiveInt.default(5).describe('recent turns never pruned'),
            prune_threshold: z
              .number()
              .gt(0)
              .lte(1)
              .default(0.8)
              .describe('prune when this share of max_tokens is used'),
            auto_compact: z
              .boolean()
              .default(true)
              .describe('summarise the conversation near the limit (false: only prune)'),
            compact_at: z
              .number()
              .gt(0)
              .lte(1)
              .default(0.85)
              .describe('compact when this share of max_tokens is used'),
          })
          .strict()
          .prefault({})
          .describe('conversation history and pruning'),
        tools: z
          .object({
            max_output_size: positiveInt.default(1_048_576).describe('bytes of tool output the model reads'),
            max_file_read_size: positiveInt
              .default(10_485_760)
              .describe('largest file read_file opens, in bytes'),
          })
          .strict()
          .prefault({})
          .describe('limits on tool results'),
        terminal: z
          .object({
            default_mode: z
              .enum(['interactive', 'restricted', 'auto', 'full'])
              .optional()
              .describe(
                'execution mode of run and chat (default: auto where the sandbox works, else restricted for run, interactive for chat)',
              ),
            timeout_seconds: positiveInt.default(30).describe('kill a shell command after this many seconds'),
            max_stdout_bytes: positiveInt
              .default(10_485_760)
              .describe('stdout kept per command, in bytes: its first and last halves when it prints more'),
            max_stderr_bytes: positiveInt.default(1_048_576).describe('stderr kept per command, in bytes'),
          })
          .strict()
          .prefault({})
          .describe('shell command execution'),
      })
      .strict()
      .prefault({})
      .describe('the agent loop'),
    safety: z
      .object({
        commands: z
          .object({
            allow: stringList.describe('commands that run without asking, e.g. "npm test", "git diff *"'),
            ask: stringList.describe('commands that always ask first'),
            deny: stringList.describe('commands that never run, e.g. "git push *"'),
          })
          .strict()
          .prefault({})
          .describe('rules matched on each parsed command (a trailing * matches further arguments)'),
        allow_command_execution: z
          .boolean()
          .default(true)
          .describe('false removes the shell tool altogether'),
        protected_paths: stringList.describe('paths (globs) never written without an explicit approval'),
        allowed_paths: stringList.describe(
          'paths outside the workspace that commands may name, e.g. "/tmp/**"',
        ),
        sandbox: z
          .boolean()
          .optional()
          .describe('run shell commands under bubblewrap (default: in full mode where it works)'),
        sandbox_network: z.boolean().default(false).describe('let sandboxed commands use the network'),
        env_passthrough: stringList.describe('environment variables passed to commands beyond the safe set'),
        web: z
          .object({
            allow_domains: stringList.describe(
              'domains web tools reach without asking, and the only ones in restricted mode (subdomains included)',
            ),
            allow_private: z
              .boolean()
              .default(false)
              .describe('let web tools reach loopback, link-local and private addresses'),
          })
          .strict()
          .prefault({})
          .describe('web_fetch and web_search'),
      })
      .strict()
      .prefault({})
      .describe('what the agent may do: command rules, protected paths, sandbox'),
    checkpoints: z
      .object({
        max_ignored_file_kb: positiveInt
          .default(1024)
          .describe(
            'largest git-ignored file (.env, *.log) a checkpoint keeps, in KB; generated trees never',
          ),
        max_file_mb: positiveInt
          .default(50)
          .describe('larger files are recorded by size and hash, never copied; keel undo names them'),
      })
      .strict()
      .prefault({})
      .describe('the snapshots keel undo restores'),
    git: z
      .object({
        auto_commit: z
          .boolean()
          .default(false)
          .describe("commit each run's or chat turn's changes on the current branch, with a written message"),
        attribution: z
          .boolean()
          .default(true)
          .describe("end Keel's commit messages with an Assisted-by: Keel (provider/model) trailer"),
      })
      .strict()
      .prefault({})
      .describe('commits Keel writes: keel commit, /commit and auto_commit'),
    code: z
      .object({
        diagnostics: z
          .boolean()
          .default(true)
          .describe('file tools report the errors a change introduced (TS/JS and language servers)'),
        diagnostics_timeout_seconds: z
          .number()
          .positive()
          .default(2)
          .describe(
            "how long the check after a change waits for a language service's errors; one still loading gets 5 times as long",
          ),
        language_servers: languageServersSchema.describe(
          'LSP servers by name: {command: [...], extensions: [...]} adds or replaces one; false turns a built-in off',
        ),
      })
      .strict()
      .prefault({})
      .describe('code intelligence: language services'),
    mcp: z
      .object({
        servers: mcpServersSchema.describe(
          'MCP servers by name: {command, args, env, cwd} or {url, headers}; see `keel mcp add`',
        ),
        startup_timeout_seconds: z
          .number()
          .min(0)
          .default(10)
          .describe('how long the first request waits for servers still starting'),
      })
      .strict()
      .prefault({})
      .describe('Model Context Protocol servers whose tools the agent may use'),
    web: z
      .object({
        search: z
          .object({
            provider: z.enum(['brave', 'tavily', 'searxng']).describe('the search API'),
            url: httpUrl
              .optional()
              .describe("the endpoint (searxng: its address; default: the provider's public API)"),
            api_key: z
              .string()
              .optional()
              .describe('API key; prefer BRAVE_API_KEY / TAVILY_API_KEY or keel auth login brave|tavily'),
          })
          .strict()
          .refine((search) => search.provider !== 'searxng' || search.url !== undefined, {
            message: 'searxng needs web.search.url (its address)',
          })
          .optional()
          .describe('where web_search searches; absent: no web_search tool'),
      })
      .strict()
      .prefault({})
      .describe('web access'),
    tools: customToolsSchema,
    hooks: hooksSchema,
  })
  .strict();

export type KeelConfig = z.infer<typeof configSchema>;
