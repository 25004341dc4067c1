// Keel's entry point: parses arguments with commander and hands each subcommand to a lazily loaded module,
// so `keel --version` and `--help` load almost nothing.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { outputClosed, watchClosedOutput } from './closed-output.js';
import { allowOption, modeOption } from './mode-options.js';
import { reportFailure } from './report.js';

declare const KEEL_VERSION: string;
const version = typeof KEEL_VERSION === 'string' ? KEEL_VERSION : '0.0.0-dev';

export interface GlobalOptions {
  provider?: string;
  model?: string;
  baseUrl?: string;
  cwd?: string;
  maxTurns?: number;
  output: 'text' | 'json' | 'stream-json';
  config?: string;
  debug?: boolean;
  record?: string;
  cassette?: string;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive integer.');
  return n;
}

function buildProgram(): Command {
  const program = new Command('keel')
    .description('Keel: an autonomous AI coding agent for the terminal.')
    .version(version, '-V, --version', 'print the version')
    .exitOverride()
    .showSuggestionAfterError()
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
    .option('--cassette <file>', 'cassette to replay with --provider replay')
    .option('--debug', 'show stack traces and internal details');

  program
    .command('run')
    .description('work autonomously toward a goal, then print the final answer')
    .option('-p, --prompt <text>', 'the goal, as text (or pipe it on stdin)')
    .option('--plan <file>', 'a plan file: JSON, YAML or Markdown')
    .option('--command <name>', 'a custom command (.keel/commands/<name>.md); the arguments follow')
    .argument('[args...]', 'arguments of --command')
    .addOption(modeOption())
    .addOption(allowOption())
    .option('--allow-dangerous', 'the same as --mode full')
    .option('--dry-run', 'report what each change would do (diffs, commands) without changing anything')
    .option('--sandbox', 'run shell commands in the bubblewrap sandbox (default in full mode where it works)')
    .option('--no-sandbox', 'run shell commands without the sandbox')
    .option('--continue', "continue this workspace's latest session")
    .option('--resume <id>', 'continue the session with this id (or a prefix of it)')
    .option('--no-session', 'do not save the session')
    .action(async (args: string[], options, command: Command) => {
      const { runCommand } = await import('./run.js');
      process.exitCode = await runCommand({ ...command.optsWithGlobals<GlobalOptions>(), ...options, args });
    });

  program
    .command('chat')
    .description('talk with the agent, one line per turn (exit or Ctrl-D quits)')
    .addOption(modeOption())
    .addOption(allowOption())
    .option('--allow-dangerous', 'the same as --mode full')
    .option('--dry-run', 'report what each change would do (diffs, commands) without changing anything')
    .option('--sandbox', 'run shell commands in the bubblewrap sandbox (default in full mode where it works)')
    .option('--no-sandbox', 'run shell commands without the sandbox')
    .option('--continue', "resume this workspace's latest session")
    .option('--resume <id>', 'resume the session with this id (or a prefix of it)')
    .option('--no-session', 'do not save the session')
    .action(async (options, command: Command) => {
      const { chatCommand } = await import('./chat.js');
      process.exitCode = await chatCommand({ ...command.optsWithGlobals<GlobalOptions>(), ...options });
    });

  program
    .command('init')
    .description(
      'analyse the workspace and write (or update) AGENTS.md, the guidance file coding agents read',
    )
    .option('--dry-run', 'print the new file, or the diff of an existing one, without writing it')
    .action(async (options, command: Command) => {
      const { initCommand } = await import('./init-command.js');
      process.exitCode = await initCommand({ ...command.optsWithGlobals<GlobalOptions>(), ...options });
    });

  program
    .command('undo')
    .description('restore the workspace to before the last run or chat turn, or to a checkpoint')
    .argument('[id]', 'a checkpoint id from keel undo --list: go back to before that call')
    .option('--list', 'list the checkpoints: time, run, tool and files changed, newest first')
    .action(async (id: string | undefined, options, command: Command) => {
      const { undoCommand } = await import('./undo-command.js');
      process.exitCode = await undoCommand(id, { ...command.optsWithGlobals<GlobalOptions>(), ...options });
    });

  const config = program.command('config').description('show or create configuration');
  config
    .command('show')
    .description('print the merged configuration and where each value came from')
    .action(async (_options, command: Command) => {
      const { configShowCommand } = await import('./config-command.js');
      process.exitCode = await configShowCommand(command.optsWithGlobals<GlobalOptions>());
    });
  config
    .command('init')
    .description('write a commented starter config file')
    .option('--project', 'write .keel.yaml in the workspace instead of the user config')
    .option('--force', 'overwrite an existing file')
    .action(async (options, command: Command) => {
      const { configInitCommand } = await import('./config-command.js');
      process.exitCode = await configInitCommand({ ...command.optsWithGlobals<GlobalOptions>(), ...options });
    });

  program
    .command('models')
    .description("list a provider's models: context window, max output, tools, streaming, price")
    .argument('[provider]', 'the provider to ask (default: the configured one)')
    .action(async (provider: string | undefined, _options, command: Command) => {
      const { modelsCommand } = await import('./models-command.js');
      process.exitCode = await modelsCommand(provider, command.optsWithGlobals<GlobalOptions>());
    });

  const auth = program.command('auth').description('log in to providers and manage stored credentials');
  auth
    .command('login')
    .description('log in: GitHub device flow for copilot, an API key on stdin for the others')
    .argument('[provider]', 'copilot, gemini, openrouter, anthropic or openai (default: the configured one)')
    .option('--no-store', 'keep the credential in memory for this session only')
    .action(async (provider: string | undefined, options, command: Command) => {
      const { authLoginCommand } = await import('./auth-command.js');
      process.exitCode = await authLoginCommand(provider, {
        ...command.optsWithGlobals<GlobalOptions>(),
        ...options,
      });
    });
  auth
    .command('logout')
    .description('remove the stored credential of a provider')
    .argument('[provider]', 'copilot, gemini, openrouter, anthropic or openai (default: the configured one)')
    .action(async (provider: string | undefined, _options, command: Command) => {
      const { authLogoutCommand } = await import('./auth-command.js');
      process.exitCode = await authLogoutCommand(provider, command.optsWithGlobals<GlobalOptions>());
    });
  auth
    .command('status')
    .description('list providers and where their credential comes from (never the value)')
    .argument('[provider]', 'only this provider')
    .action(async (provider: string | undefined, _options, command: Command) => {
      const { authStatusCommand } = await import('./auth-command.js');
      process.exitCode = await authStatusCommand(provider, command.optsWithGlobals<GlobalOptions>());
    });

  const policy = program
    .command('policy')
    .description(
      'show what each execution mode allows, or check what the policy decides for a command or path',
    );
  policy
    .command('show')
    .description('print the modes table: each kind of action and what each mode does with it')
    .option('--json', 'print JSON')
    .action(async (options, command: Command) => {
      const { policyShowCommand } = await import('./policy-command.js');
      process.exitCode = await policyShowCommand({ ...command.optsWithGlobals<GlobalOptions>(), ...options });
    });
  policy
    .command('check')
    .description('decide a command or a file tool call as the agent would: exit 0 allow, 1 ask, 2 deny')
    .option('--command <cmd>', 'the shell command to check')
    .option('--path <path>', 'the path a file tool would touch (with --tool)')
    .option('--tool <name>', 'the tool for --path: write_file, create_directory, delete_path, read_file, ...')
    .addOption(modeOption())
    .addOption(allowOption())
    .option('--json', 'print {"decision": ..., "reasons": [...]}')
    .action(async (options, command: Command) => {
      const { policyCheckCommand } = await import('./policy-command.js');
      process.exitCode = await policyCheckCommand({
        ...command.optsWithGlobals<GlobalOptions>(),
        ...options,
      });
    });

  program
    .command('audit')
    .description('show the audit log: every command and file change, run or refused (secrets redacted)')
    .option('--tail <n>', 'how many of the last lines to show (default 20)', positiveInt)
    .option('--json', 'print the lines as a JSON array of objects')
    .action(async (options, command: Command) => {
      const { auditCommand } = await import('./audit-command.js');
      process.exitCode = await auditCommand({ ...command.optsWithGlobals<GlobalOptions>(), ...options });
    });

  const sessions = program.command('sessions').description('list, show, export or remove saved sessions');
  sessions
    .command('list')
    .description("this workspace's sessions, newest first: id, time, turns, tokens, cost, title")
    .action(async (_options, command: Command) => {
      const { sessionsListCommand } = await import('./sessions-command.js');
      process.exitCode = await sessionsListCommand(command.optsWithGlobals<GlobalOptions>());
    });
  sessions
    .command('show')
    .description("print a session's conversation")
    .argument('<id>', 'a session id, or a prefix of one')
    .action(async (id: string, _options, command: Command) => {
      const { sessionsShowCommand } = await import('./sessions-command.js');
      process.exitCode = await sessionsShowCommand(id, command.optsWithGlobals<GlobalOptions>());
    });
  sessions
    .command('export')
    .description('write a session as Markdown, HTML or JSON to stdout (or --out)')
    .argument('<id>', 'a session id, or a prefix of one')
    .addOption(
      new Option('--format <format>', 'md, html or json').choices(['md', 'html', 'json']).default('md'),
    )
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (id: string, options, command: Command) => {
      const { sessionsExportCommand } = await import('./sessions-command.js');
      process.exitCode = await sessionsExportCommand(id, {
        ...command.optsWithGlobals<GlobalOptions>(),
        ...options,
      });
    });
  sessions
    .command('rm')
    .description('delete a session')
    .argument('<id>', 'a session id, or a prefix of one')
    .action(async (id: string, _options, command: Command) => {
      const { sessionsRmCommand } = await import('./sessions-command.js');
      process.exitCode = await sessionsRmCommand(id, command.optsWithGlobals<GlobalOptions>());
    });

  program
    .command('trust')
    .description(
      'trust the workspace folder: let its .keel.yaml set base URLs, the execution mode and other guarded keys',
    )
    .option('--revoke', 'stop trusting the folder')
    .option('--list', 'list the trusted folders')
    .action(async (options, command: Command) => {
      const { trustCommand } = await import('./trust-command.js');
      process.exitCode = await trustCommand({ ...command.optsWithGlobals<GlobalOptions>(), ...options });
    });
  return program;
}

async function main(argv: string[]): Promise<void> {
  watchClosedOutput();
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    // `keel … | head -1`: the reader had what it wanted, so the pipeline succeeded (0, like other tools).
    if (outputClosed.aborted) process.exitCode = 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; every other parse problem is a usage error (exit 2).
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    process.exitCode = reportFailure(error, { debug: argv.includes('--debug') });
  }
}

void main(process.argv);
