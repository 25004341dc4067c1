// Keel's commands and options, for commander: each subcommand's module loads only when it runs.
import { Command, InvalidArgumentError, Option } from 'commander';
import type { GlobalOptions } from './global-options.js';
import { allowOption, type ModeFlags, modeOption, probeEarly } from './mode-options.js';
import type { PolicyCheckOptions } from './policy-command.js';

declare const KEEL_VERSION: string;
const version = typeof KEEL_VERSION === 'string' ? KEEL_VERSION : '0.0.0-dev';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive integer.');
  return n;
}

/**
 * A subcommand's action: its module loads only when it runs. The handler gets the positional arguments, then the
 * command's options over the global ones; what it returns is the exit code.
 */
function lazyAction(load: () => Promise<(...args: never[]) => Promise<number>>) {
  return async (...args: unknown[]): Promise<void> => {
    const command = args.at(-1) as Command;
    const options = args.at(-2) as Record<string, unknown>;
    const handler = (await load()) as (...args: unknown[]) => Promise<number>;
    process.exitCode = await handler(...args.slice(0, -2), {
      ...command.optsWithGlobals<GlobalOptions>(),
      ...options,
    });
  };
}

/** The options `run` and `chat` share: the mode and rules, dry run, sandbox, and which session to save or take up. */
function agentOptions(command: Command, verb: 'continue' | 'resume'): Command {
  return command
    .addOption(modeOption())
    .addOption(allowOption())
    .option('--allow-dangerous', 'the same as --mode full')
    .option('--dry-run', 'report what each change would do (diffs, commands) without changing anything')
    .option('--sandbox', 'run shell commands in the bubblewrap sandbox (default in full mode where it works)')
    .option('--no-sandbox', 'run shell commands without the sandbox')
    .addOption(new Option('--continue', `${verb} this workspace's latest session`).conflicts('resume'))
    .option('--resume <id>', `${verb} the session with this id (or a prefix of it)`)
    .option('--no-session', 'do not save the session');
}

export function buildProgram(): Command {
  const program = new Command('keel')
    .description('Keel: an autonomous AI coding agent for the terminal.')
    .usage('[options] [command] | "<message>" | -p "<message>"')
    .addHelpText(
      'after',
      `
Start it as you start other agents:
  keel "<message>"             the chat, with this first message
  keel -p "<message>"          headless, as keel run -p (also --print; piped input is context)
  echo "<message>" | keel      headless, the goal from stdin
  keel --continue              the chat, resuming this workspace's latest session (--resume <id>: that one)`,
    )
    .version(version, '-V, --version', 'print the version')
    .exitOverride()
    .showSuggestionAfterError()
    // `keel help [command]`: commander adds it by itself only to a program without an action (bare keel's chat).
    .helpCommand(true)
    // Subcommands inherit this: `keel run --help` also lists --provider, --model, --cwd and the rest.
    .configureHelp({ showGlobalOptions: true })
    .option(
      '--provider <name>',
      'provider: ollama, openai-compatible, copilot, gemini, openrouter, anthropic, openai, replay',
    )
    .option('--model <name>', 'model of the chosen provider')
    .option('--base-url <url>', "override the chosen provider's endpoint")
    .option('--cwd <dir>', 'workspace directory (default: the current directory)')
    .option('--max-turns <n>', 'stop after this many model turns (default 100)', positiveInt)
    .addOption(
      new Option('--output <format>', 'output format')
        .choices(['text', 'json', 'stream-json'])
        .default('text'),
    )
    .option('--config <file>', 'config file to use instead of the user config')
    .option('--record <file>', 'save every model response of the run to a cassette')
    .option('--cassette <file>', 'cassette to replay (implies --provider replay)')
    .option('--debug', 'show stack traces and internal details');

  agentOptions(program.command('run'), 'continue')
    .description('work autonomously toward a goal, then print the final answer')
    .option(
      '-p, --prompt <text>',
      'the goal, as text (or pipe it on stdin; with -p, piped input is its context)',
    )
    .option('--plan <file>', 'a plan file: JSON, YAML or Markdown')
    .option(
      '--plan-file <file>',
      'execute a plan: the JSON of `keel run --mode plan --output json`, or a plan file',
    )
    .option('--command <name>', 'a custom command (.keel/commands/<name>.md); the arguments follow')
    .option('--no-ask-user', 'do not offer ask_user (headless, it says no user is available)')
    .option('--agent <name>', 'run as this agent (keel agents list): its tools, model, mode and prompt')
    .addOption(
      new Option(
        '--input-format <format>',
        'stdin: text, or stream-json (JSON lines of user messages, approval answers, cancels; with --output stream-json)',
      )
        .choices(['text', 'stream-json'])
        .default('text'),
    )
    .argument('[args...]', 'arguments of --command')
    .action(async (args: string[], options, command: Command) => {
      probeEarly(options);
      const { runCommand } = await import('./run.js');
      const { planFile, ...rest } = options as { planFile?: string; plan?: string };
      if (planFile !== undefined && rest.plan !== undefined) {
        const { UsageError } = await import('../core/errors.js');
        const { reportFailure } = await import('./report.js');
        process.exitCode = reportFailure(new UsageError('give either --plan or --plan-file, not both'), {});
        return;
      }
      process.exitCode = await runCommand({
        ...command.optsWithGlobals<GlobalOptions>(),
        ...rest,
        ...(planFile !== undefined ? { plan: planFile } : {}),
        args,
      });
    });

  program
    .command('ask')
    .description('answer one question on stdout; piped input is attached: git diff | keel ask "review this"')
    .argument('[question...]', 'the question (quoting it is optional)')
    .option('--tools', 'let the model read the workspace with the read-only tools')
    .option('--continue', 'continue the last exchanges asked from this directory')
    .option('--clear', "forget this directory's ask history (alone, or before a new question)")
    .option('--no-reasoning', "hide the model's reasoning")
    .action(lazyAction(async () => (await import('./ask-command.js')).askCommand));

  agentOptions(program.command('chat'), 'resume')
    .description(
      'the interactive chat (bare `keel` at a terminal too): /help lists its commands, Ctrl-D quits',
    )
    .argument('[message...]', 'a first message to send (quoting it is optional)')
    .action(async (message: string[], options, command: Command) => {
      probeEarly(options);
      const { chatCommand } = await import('./chat.js');
      process.exitCode = await chatCommand({
        ...command.optsWithGlobals<GlobalOptions>(),
        ...options,
        message,
      });
    });

  program
    .command('init')
    .description(
      'analyse the workspace and write (or update) AGENTS.md, the guidance file coding agents read',
    )
    .option('--dry-run', 'print the new file, or the diff of an existing one, without writing it')
    .action(lazyAction(async () => (await import('./init-command.js')).initCommand));

  program
    .command('undo')
    .description('restore the workspace to before the last run or chat turn, or to a checkpoint')
    .argument('[id]', 'a checkpoint id from keel undo --list: go back to before that call')
    .option('--list', 'list the checkpoints: time, run, tool and files changed, newest first')
    .action(lazyAction(async () => (await import('./undo-command.js')).undoCommand));

  program
    .command('commit')
    .description(
      'commit the staged changes, else the files Keel changed, with a message the model drafts; asks first',
    )
    .argument('[paths...]', 'commit these paths instead of the files Keel changed')
    .option('--yes', 'commit with the drafted message without asking')
    .option('--all', 'commit every change in the workspace, not only the files Keel changed')
    .action(lazyAction(async () => (await import('./commit-command.js')).commitCommand));

  program
    .command('review')
    .description(
      'review the uncommitted diff (or the branch since --base) with the read-only tools: path:line severity message',
    )
    .argument('[paths...]', 'review only these paths')
    .option('--base <ref>', 'review everything since the branch left this ref (its merge base)')
    .option(
      '--fail-on <severity>',
      'exit 1 if a finding is at or above this: info, low, medium, high, critical',
    )
    .action(lazyAction(async () => (await import('./review-command.js')).reviewCommand));

  const config = program.command('config').description('show or create configuration');
  config
    .command('show')
    .description('print the merged configuration and where each value came from')
    .action(lazyAction(async () => (await import('./config-command.js')).configShowCommand));
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
  policy
    .command('check')
    .description('decide a command or a file tool call as the agent would: exit 0 allow, 1 ask, 2 deny')
    .argument('[command...]', 'the shell command to check, quoted: keel policy check "npm test"')
    .option('--command <cmd>', 'the shell command to check')
    .option('--path <path>', 'the path a file tool would touch (with --tool)')
    .option('--tool <name>', 'the tool for --path: write_file, create_directory, delete_path, read_file, ...')
    .addOption(modeOption())
    .addOption(allowOption())
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
      new Option('--format <format>', 'md, html or json').choices(['md', 'html', 'json']).default('md'),
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
    .option('--dir <dir>', 'the evals directory (default: evals in the workspace)')
    .action(lazyAction(async () => (await import('./eval-command.js')).evalToolsCommand));

  evals
    .command('llm')
    .description("score a model's first tool call on each LLM eval (evals/llm/*.json), at temperature 0")
    .option('--repeat <n>', 'run each case n times (default 1)', positiveInt)
    .option('--filter <text>', 'only the cases whose id, intent or expected tool contains this')
    .option('--report <file>', 'write the JSON report (every run, the summary) to this file')
    .option('--dir <dir>', 'the evals directory (default: evals in the workspace)')
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
    .option('--sandbox', 'run shell commands in the bubblewrap sandbox (default in full mode where it works)')
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
    .option('--sandbox', 'run shell commands in the bubblewrap sandbox (default in full mode where it works)')
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
  // Bare `keel` at a terminal is the chat, as with every peer; piped or redirected it prints the help as before.
  program.allowExcessArguments().action(async (_options, command: Command) => {
    // An argument that is no subcommand: commander's own "unknown command" error, with its suggestion.
    if (command.args.length > 0) (command as unknown as { unknownCommand(): never }).unknownCommand();
    if (!process.stdin.isTTY || !process.stdout.isTTY) command.help({ error: true });
    probeEarly(command.optsWithGlobals<ModeFlags>());
    const { chatCommand } = await import('./chat.js');
    process.exitCode = await chatCommand(command.optsWithGlobals<GlobalOptions>());
  });
  return program;
}
