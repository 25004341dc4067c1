// Keel's commands and options, for commander: each subcommand's module loads only when it runs. The commands around
// the agent's work (config, auth, sessions, mcp, …) are declared in manage-commands.ts.
import { Command, Option } from 'commander';
import { lazyAction, positiveInt } from './command-actions.js';
import type { GlobalOptions } from './global-options.js';
import { addManageCommands } from './manage-commands.js';
import { allowOption, type ModeFlags, modeOption, probeEarly } from './mode-options.js';
import { quoteHint } from './quote-hint.js';

declare const KEEL_VERSION: string;
const version = typeof KEEL_VERSION === 'string' ? KEEL_VERSION : '0.0.0-dev';

/** The options `run` and `chat` share: the mode and rules, dry run, sandbox, and which session to save or take up. */
function agentOptions(command: Command, verb: 'continue' | 'resume'): Command {
  return (
    command
      .addOption(modeOption())
      .addOption(allowOption())
      .option('--allow-dangerous', 'the same as --mode full')
      .option('--dry-run', 'report what each change would do (diffs, commands) without changing anything')
      .option(
        '--sandbox',
        'run shell commands in the bubblewrap sandbox (default in auto and full mode where it works)',
      )
      .option('--no-sandbox', 'run shell commands without the sandbox')
      .addOption(new Option('--continue', `${verb} this workspace's latest session`).conflicts('resume'))
      .option('--resume <id>', `${verb} the session with this id (or a prefix of it)`)
      // Resuming a session while saving none is two wishes at once: which one was meant is a guess.
      .addOption(new Option('--no-session', 'do not save the session').conflicts(['continue', 'resume']))
  );
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

  quoteHint(program.command('ask'), 'keel ask "what does ls -la show?"')
    .description('answer one question on stdout; piped input is attached: git diff | keel ask "review this"')
    .argument('[question...]', 'the question (quoting it is optional)')
    .option('--tools', 'let the model read the workspace with the read-only tools')
    .option('--continue', 'continue the last exchanges asked from this directory')
    .option('--clear', "forget this directory's ask history (alone, or before a new question)")
    .option('--no-reasoning', "hide the model's reasoning")
    .action(lazyAction(async () => (await import('./ask-command.js')).askCommand));

  quoteHint(agentOptions(program.command('chat'), 'resume'), 'keel chat "why does make -j4 fail?"')
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

  addManageCommands(program);
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
