// The commands around the agent's work, for commander: configuration, models, credentials, the policy, the audit log,
// sessions, evals, MCP servers, agents, the editor protocol, doctor and trust; each module loads only when it runs.
import { type Command, Option } from 'commander';
import { collect, lazyAction, positiveInt } from './command-actions.js';
import { allowOption, modeOption } from './mode-options.js';
import type { PolicyCheckOptions } from './policy-command.js';
import { quoteHint } from './quote-hint.js';

/** Adds them to `program`, after the agent's own commands (the help lists them in this order). */
export function addManageCommands(program: Command): void {
  const config = program.command('config').description('show or create configuration');
  config
    .command('show')
    .description('print the merged configuration and where each value came from')
    .action(lazyAction(async () => (await import('./config-command.js')).configShowCommand));
  config
    .command('get')
    .description(
      "print one key's value (a group: its keys, with where each came from): keel config get provider.type",
    )
    .argument('<key>', 'a dotted key or group, as keel config show lists them')
    .action(lazyAction(async () => (await import('./config-command.js')).configGetCommand));
  config
    .command('init')
    .description('write a commented starter config file')
    .option('--project', 'write .keel.yaml in the workspace instead of the user config')
    .option('--force', 'overwrite an existing file')
    .action(lazyAction(async () => (await import('./config-command.js')).configInitCommand));
  config
    .command('set')
    .description('set one key in the user config, its comments kept: keel config set provider.type openai')
    .argument('<key>', 'a dotted key, as keel config show lists them')
    .argument('<value>', 'the value (YAML: 3 is a number, true a boolean)')
    .option('--project', 'write .keel.yaml in the workspace instead of the user config')
    .action(lazyAction(async () => (await import('./config-command.js')).configSetCommand));

  program
    .command('models')
    .description("list a provider's models: context window, max output, tools, streaming, price")
    .argument('[provider]', 'the provider to ask (default: the configured one)')
    .action(lazyAction(async () => (await import('./models-command.js')).modelsCommand));

  const auth = program.command('auth').description('log in to providers and manage stored credentials');
  auth
    .command('login')
    .description('log in: GitHub device flow for copilot, an API key on stdin for the others')
    .argument('[provider]', 'copilot, gemini, openrouter, anthropic or openai (default: the configured one)')
    .option('--no-store', 'keep the credential in memory for this session only')
    .action(lazyAction(async () => (await import('./auth-command.js')).authLoginCommand));
  auth
    .command('logout')
    .description('remove the stored credential of a provider')
    .argument('[provider]', 'copilot, gemini, openrouter, anthropic or openai (default: the configured one)')
    .action(lazyAction(async () => (await import('./auth-command.js')).authLogoutCommand));
  auth
    .command('status')
    .description('list providers and where their credential comes from (never the value)')
    .argument('[provider]', 'only this provider')
    .action(lazyAction(async () => (await import('./auth-command.js')).authStatusCommand));

  const policy = program
    .command('policy')
    .description(
      'show what each execution mode allows, or check what the policy decides for a command or path',
    );
  policy
    .command('show')
    .description('print the modes table: each kind of action and what each mode does with it')
    .option('--json', 'print JSON')
    .action(lazyAction(async () => (await import('./policy-command.js')).policyShowCommand));
  quoteHint(policy.command('check'), 'keel policy check "rm -rf build"')
    .description('decide a command or a file tool call as the agent would: exit 0 allow, 1 ask, 2 deny')
    .argument('[command...]', 'the shell command to check, quoted: keel policy check "npm test"')
    .option('--command <cmd>', 'the shell command to check')
    .option('--path <path>', 'the path a file tool would touch (with --tool)')
    .option('--tool <name>', 'the tool for --path: write_file, create_directory, delete_path, read_file, ...')
    .addOption(modeOption())
    .addOption(allowOption())
    .option('--sandbox', 'judge as a run with --sandbox would: commands in the bubblewrap sandbox')
    .option('--no-sandbox', 'judge as a run with --no-sandbox would: commands without the sandbox')
    .option('--json', 'print {"decision": ..., "reasons": [...]}')
    .action(
      lazyAction(async () => {
        const { policyCheckCommand } = await import('./policy-command.js');
        return (words: string[], options: PolicyCheckOptions) => policyCheckCommand({ ...options, words });
      }),
    );

  program
    .command('audit')
    .description('show the audit log: every command and file change, run or refused (secrets redacted)')
    .option('--tail <n>', 'how many of the last lines to show (default 20)', positiveInt)
    .option('--json', 'print the lines as a JSON array of objects')
    .action(lazyAction(async () => (await import('./audit-command.js')).auditCommand));

  const sessions = program.command('sessions').description('list, show, export or remove saved sessions');
  sessions
    .command('list')
    .description("this workspace's sessions, newest first: id, time, turns, tokens, cost, title")
    .action(lazyAction(async () => (await import('./sessions-command.js')).sessionsListCommand));
  sessions
    .command('show')
    .description("print a session's conversation")
    .argument('<id>', 'a session id, or a prefix of one')
    .action(lazyAction(async () => (await import('./sessions-command.js')).sessionsShowCommand));
  sessions
    .command('export')
    .description('write a session as Markdown, HTML or JSON to stdout (or --out)')
    .argument('<id>', 'a session id, or a prefix of one')
    .addOption(
      new Option('--format <format>', "md, html or json (default: --out's extension, else md)").choices([
        'md',
        'html',
        'json',
      ]),
    )
    .option('--out <file>', 'write to this file instead of stdout')
    .action(lazyAction(async () => (await import('./sessions-command.js')).sessionsExportCommand));
  sessions
    .command('fork')
    .description('start a new session from a saved one, up to one of your messages; prints the new id')
    .argument('<id>', 'a session id, or a prefix of one')
    .option('--at <n>', 'keep up to your n-th message and its replies (default: all)', positiveInt)
    .action(lazyAction(async () => (await import('./fork-command.js')).sessionsForkCommand));
  sessions
    .command('rm')
    .description('delete a session')
    .argument('<id>', 'a session id, or a prefix of one')
    .action(lazyAction(async () => (await import('./sessions-command.js')).sessionsRmCommand));

  const evals = program
    .command('eval')
    .description('measure Keel: the tool evals, or how well a model drives it');
  evals
    .command('tools')
    .description('run the tool evals (evals/tools/*.json) through the executor; exit 1 on any failure')
    .option('--filter <text>', 'only the cases whose tool or name contains this')
    .option('--dir <dir>', "the evals directory (default: the workspace's evals/, else Keel's own)")
    .action(lazyAction(async () => (await import('./eval-command.js')).evalToolsCommand));

  evals
    .command('llm')
    .description("score a model's first tool call on each LLM eval (evals/llm/*.json), at temperature 0")
    .option('--repeat <n>', 'run each case n times (default 1)', positiveInt)
    .option('--filter <text>', 'only the cases whose id, intent or expected tool contains this')
    .option('--report <file>', 'write the JSON report (every run, the summary) to this file')
    .option('--dir <dir>', "the evals directory (default: the workspace's evals/, else Keel's own)")
    .action(lazyAction(async () => (await import('./eval-command.js')).evalLlmCommand));

  const mcp = program
    .command('mcp')
    .description("MCP servers: list, add or remove them, or serve Keel's tools");
  mcp
    .command('list')
    .description('the configured servers: status, tools, resources and prompts (--output json)')
    .action(lazyAction(async () => (await import('./mcp-command.js')).mcpListCommand));
  mcp
    .command('add')
    .description('add a server to the config: --url for streamable HTTP, or a stdio command after --')
    .argument('<name>', 'its tools are offered as <name>__<tool>')
    .argument('[command...]', 'after --: the program and its arguments')
    .option('--url <url>', 'streamable HTTP endpoint')
    .option(
      '--env <KEY=VALUE>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
      'environment of a stdio server (repeatable); a quoted ${VAR} is read from yours at start',
      collect,
      [],
    )
    .option(
      '--header <KEY=VALUE>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
      'HTTP header (repeatable); a quoted ${VAR} is read from your environment at start',
      collect,
      [],
    )
    .option('--project', 'write to the workspace .keel.yaml (used in a trusted folder only)')
    .option('--user', 'write to the user config (the default)')
    .action(lazyAction(async () => (await import('./mcp-command.js')).mcpAddCommand));
  mcp
    .command('remove')
    .description('remove a server from the config (the project file, else the user file)')
    .argument('<name>', 'the server')
    .option('--project', 'only from the workspace .keel.yaml')
    .option('--user', 'only from the user config')
    .action(lazyAction(async () => (await import('./mcp-command.js')).mcpRemoveCommand));
  mcp
    .command('serve')
    .description("serve Keel's tools over stdio to an MCP client, under Keel's policy (default: restricted)")
    .addOption(modeOption())
    .addOption(allowOption())
    .option(
      '--sandbox',
      'run shell commands in the bubblewrap sandbox (default in auto and full mode where it works)',
    )
    .option('--no-sandbox', 'run shell commands without the sandbox')
    .action(lazyAction(async () => (await import('./mcp-serve.js')).mcpServeCommand));

  program
    .command('agents')
    .description('the agents the task tool and @name run: built-in, user and project (.keel/agents/)')
    .command('list')
    .description('list the agents: name, where it is defined, tools, model, mode and description')
    .action(lazyAction(async () => (await import('./agents-command.js')).agentsListCommand));

  program
    .command('acp')
    .description('serve Keel to an editor over the Agent Client Protocol on stdio (Zed, JetBrains, Neovim)')
    .addOption(modeOption())
    .addOption(allowOption())
    .option(
      '--sandbox',
      'run shell commands in the bubblewrap sandbox (default in auto and full mode where it works)',
    )
    .option('--no-sandbox', 'run shell commands without the sandbox')
    .action(lazyAction(async () => (await import('./acp-command.js')).acpCommand));

  program
    .command('doctor')
    .description('check what a run needs: Node, sandbox, git, ripgrep, provider, MCP servers, directories')
    .action(lazyAction(async () => (await import('./doctor-command.js')).doctorCommand));

  program
    .command('trust')
    .description(
      'trust the workspace folder: let its .keel.yaml set base URLs, the execution mode and other guarded keys',
    )
    .option('--revoke', 'stop trusting the folder')
    .option('--list', 'list the trusted folders')
    .action(lazyAction(async () => (await import('./trust-command.js')).trustCommand));
}
