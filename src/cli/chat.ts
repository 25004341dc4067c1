// `keel chat`: the interactive session. Each message is a turn of one conversation; lines starting with `/` are
// the chat's commands (chat-commands.ts), `@path` attaches a file. On a terminal: Markdown answers, a spinner,
// compact tool lines, a status line after each turn, Tab completion and a history kept across chats.
import { realpath, stat } from 'node:fs/promises';
import { dataDir, stateDir } from '../config/paths.js';
import { formatCost } from '../core/cost.js';
import { ExitCode } from '../core/errors.js';
import type { AgentEvent } from '../core/events.js';
import { loadPromptCommands } from '../extend/prompt-commands.js';
import { promptBudget } from '../providers/capabilities.js';
import { createReadJail } from '../safety/read-jail.js';
import { crashedSessions, dismissCrashed } from '../session/marker.js';
import { sessionDir } from '../session/session-file.js';
import { createApprovalPrompt } from '../ui/approval-prompt.js';
import { createChatView } from '../ui/chat-view.js';
import { editText } from '../ui/editor.js';
import { LineReader } from '../ui/line-reader.js';
import { renderHistory } from '../ui/session-history.js';
import { createSpinner, noSpinner } from '../ui/spinner.js';
import { colorEnabled, createStyle, richTerminal } from '../ui/style.js';
import { attachFiles } from './chat-attach.js';
import { CHAT_COMMANDS, type ChatContext, helpText, parseCommand, suggestCommand } from './chat-commands.js';
import { chatCompleter } from './chat-complete.js';
import { historyPath, loadHistory, saveHistory } from './chat-history.js';
import { ChatUsage, formatTokens } from './chat-usage.js';
import { onOutputClosed } from './closed-output.js';
import type { GlobalOptions } from './global-options.js';
import { chooseMode, type ModeFlags } from './mode-options.js';
import { reportFailure } from './report.js';
import { type Agent, resolveWorkspaceDir, setupAgent } from './setup.js';
import { exitOnTermination } from './signals.js';

export interface ChatOptions extends GlobalOptions, ModeFlags {
  dryRun?: boolean;
  /** --sandbox / --no-sandbox. */
  sandbox?: boolean;
  /** False under --no-session. */
  session?: boolean;
  continue?: boolean;
  resume?: string;
}

const PROMPT = '› ';

/**
 * A session whose process died (its active marker left behind) is reported once; on a terminal the user may
 * resume it at once. Returns the id to resume, if they said yes.
 */
async function offerCrashed(options: ChatOptions, reader: LineReader, interactive: boolean) {
  if (options.continue || options.resume !== undefined) return undefined;
  const dir = sessionDir(dataDir(process.env), await realpath(await resolveWorkspaceDir(options.cwd)));
  const crashed = await crashedSessions(dir);
  if (crashed.length === 0) return undefined;
  for (const id of crashed) await dismissCrashed(dir, id);
  process.stderr.write(
    `the last session ended unexpectedly; resume it with keel chat --continue (session ${crashed[0]})\n`,
  );
  if (!interactive) return undefined;
  const answer = await reader.read('resume it now? [y/N] ');
  return answer !== null && /^y(es)?$/i.test(answer.trim()) ? crashed[0] : undefined;
}

/** `ollama/qwen3 · context 12% of 32k · 1.2k in / 300 out · $0.0012`: after each turn, on stderr. */
function statusLine(agent: Agent, usage: ChatUsage): string {
  const budget = Math.min(
    agent.loaded.config.agent.conversation.max_tokens,
    promptBudget(agent.model.capabilities) ?? Number.POSITIVE_INFINITY,
  );
  const used = Math.round((100 * agent.conversation.tokenCount) / budget);
  const total = usage.total;
  const parts = [
    `${agent.model.provider}/${agent.model.modelId}`,
    `context ${used}% of ${formatTokens(budget)}`,
    `${formatTokens(total.input)} in / ${formatTokens(total.output)} out`,
    ...(total.cost === undefined ? [] : [formatCost(total.cost)]),
  ];
  return parts.join(' · ');
}

export async function chatCommand(options: ChatOptions): Promise<number> {
  const env = process.env;
  const readJail = createReadJail(env);
  const interactive = Boolean(process.stdin.isTTY);
  // The chat's own look (spinner, compact tool lines, status line) needs a person at a capable terminal.
  const rich = interactive && richTerminal(process.stderr, env);
  const style = createStyle(colorEnabled(process.stderr, env));
  const historyFile = historyPath(stateDir(env));
  let agent: Agent | undefined;
  let current: ChatOptions = options;
  const commandNames = () => [
    ...CHAT_COMMANDS.map((c) => c.name),
    ...(agent?.promptCommands?.() ?? []).map((p) => p.name),
  ];
  const reader = new LineReader(process.stdin, process.stderr, interactive, {
    completer: chatCompleter(commandNames, () => agent?.workspace),
    ...(interactive ? { history: await loadHistory(historyFile) } : {}),
  });
  const spinner = rich ? createSpinner(process.stderr, style.dim) : noSpinner;
  const view = createChatView({ stderr: process.stderr, style, spinner, outputTails: rich });
  const usage = new ChatUsage();
  const observe = (event: AgentEvent) => {
    view.sink(event);
    if (event.type === 'usage')
      usage.add(event.input_tokens, event.output_tokens, agent?.model.capabilities?.price);
  };
  let running: AbortController | undefined;
  let exiting = false;
  const interrupt = () => {
    if (running?.signal.aborted) {
      // A second Ctrl-C while the turn is still stopping: kill what runs and leave, the shell's prompt on a line of its own.
      spinner.stop();
      agent?.runner.killAll();
      process.stderr.write('\n');
      process.exit(130);
    }
    if (running) running.abort();
    else if (!reader.clearLine()) reader.close();
  };
  reader.onInterrupt(interrupt);
  process.on('SIGINT', interrupt);
  let offTermination = () => {};
  // Nobody reads the answers any more: end the turn and the chat.
  const stopWatching = onOutputClosed(() => {
    running?.abort();
    reader.close();
  });
  // Ctrl-C while a question waits aborts `running`: the question answers no and the turn ends interrupted.
  const approve = createApprovalPrompt({
    reader,
    stderr: process.stderr,
    style,
    // `e`: the terminal goes to $EDITOR until it exits; the chat's input is paused meanwhile.
    edit: (text, file) => reader.handOver(() => editText(text, { file, env })),
  });

  const start = (opts: ChatOptions, session: { continue?: boolean; resume?: string }) =>
    setupAgent(opts, {
      mode: (loaded) => chooseMode(opts, loaded.config.agent.terminal.default_mode, 'interactive'),
      allow: opts.allow,
      streamText: opts.output === 'text',
      approve,
      dryRun: opts.dryRun,
      sandbox: opts.sandbox,
      session: { save: opts.session !== false, ...session },
      compactTools: rich,
      observe,
    });
  /** Takes `next` in place of the current agent: the old one's commands end and its session closes cleanly. */
  const adopt = async (next: Agent) => {
    const previous = agent;
    // Custom command files join the servers' prompts as slash commands; a malformed file is one warning.
    const custom = await loadPromptCommands({ workspace: next.workspace, env });
    for (const message of custom.warnings) next.emit({ type: 'warning', message });
    const fromServers = next.promptCommands;
    next.promptCommands = () => [...custom.commands, ...(fromServers?.() ?? [])];
    agent = next;
    offTermination();
    offTermination = exitOnTermination(next.runner);
    if (previous) {
      previous.runner.killAll();
      await previous.session?.close().catch(() => {});
    }
  };
  const showResumed = (a: Agent) => {
    if (!a.resumed || options.output !== 'text') return;
    process.stderr.write(`resuming session ${a.resumed.meta.id}\n`);
    process.stderr.write(renderHistory(a.conversation.messages, style));
  };
  const busy = async <T>(label: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    running = new AbortController();
    spinner.start(label);
    try {
      return await work(running.signal);
    } finally {
      spinner.stop();
      running = undefined;
    }
  };
  const send = async (text: string) => {
    if (!agent) return;
    const { message, attached, skipped } = await attachFiles(text, agent.workspace, undefined, readJail);
    for (const a of attached)
      process.stderr.write(style.dim(`attached ${a.path} (${a.bytes} bytes${a.cut ? ', cut' : ''})\n`));
    for (const s of skipped) process.stderr.write(style.dim(`@${s.path}: ${s.reason}; sent as text\n`));
    usage.begin(text, agent.model.modelId);
    agent.conversation.push({ role: 'user', content: message });
    running = new AbortController();
    try {
      await agent.run(running.signal);
    } finally {
      running = undefined;
    }
    if (interactive) process.stderr.write(`${style.dim(statusLine(agent, usage))}\n`);
  };

  const chat: ChatContext = {
    note: (text) => process.stderr.write(text),
    print: (text) => process.stdout.write(text),
    busy,
    send,
    restart: async (change) => {
      if (!agent) return;
      const old = agent;
      const opts = change.model === undefined ? current : { ...current, model: change.model };
      // Another model continues the same conversation: the saved session (once it has a first line), or the
      // messages in memory.
      const saved =
        old.session && (await stat(old.session.file).catch(() => undefined)) ? old.session : undefined;
      const resume = change.resume ?? (change.model !== undefined ? saved?.id : undefined);
      const next = await start(opts, resume === undefined ? {} : { resume });
      if (change.model !== undefined && !saved) next.conversation.restore(old.conversation.messages);
      current = opts;
      await adopt(next);
      if (change.resume !== undefined) showResumed(next);
    },
    exit: () => {
      exiting = true;
    },
    help: () => helpText(agent?.promptCommands?.() ?? []),
    cost: () => usage.report(),
    lastOutput: view.lastOutput,
    get compact() {
      return agent?.compact;
    },
    modelName: () => (agent ? `${agent.model.provider}/${agent.model.modelId}` : ''),
    sessionFile: () => agent?.session?.file,
    subcommand: {
      undo: async () => (await import('./undo-command.js')).undoCommand(undefined, current),
      init: async () => (await import('./init-command.js')).initCommand(current),
      sessions: async () => (await import('./sessions-command.js')).sessionsListCommand(current),
      models: async () => (await import('./models-command.js')).modelsCommand(undefined, current),
    },
  };

  /** A `/name args` line: a built-in command, a prompt command, or a suggestion; never sent to the model. */
  const runCommand = async (name: string, args: string) => {
    const builtin = CHAT_COMMANDS.find((c) => c.name === name);
    const prompt = builtin ? undefined : agent?.promptCommands?.().find((p) => p.name === name);
    try {
      if (builtin) await builtin.run(args, chat);
      else if (prompt) await send(await busy(`expanding /${name}`, (signal) => prompt.expand(args, signal)));
      else {
        const guess = suggestCommand(name, commandNames());
        process.stderr.write(
          `unknown command /${name}${guess ? `; did you mean /${guess}?` : ''} (/help lists them; start with // to send a message beginning with /)\n`,
        );
      }
    } catch (error) {
      reportFailure(error, { debug: options.debug });
    }
  };

  try {
    const resume = (await offerCrashed(options, reader, interactive)) ?? options.resume;
    await adopt(await start(options, { continue: options.continue, resume }));
    if (!agent) return ExitCode.failed;
    const first: Agent = agent;
    if (interactive) {
      process.stderr.write(
        `keel chat · ${first.model.provider}/${first.model.modelId} · ${first.workspace.root}\n`,
      );
      process.stderr.write(style.dim('/help for commands · @path attaches a file · Ctrl-D quits\n'));
    }
    showResumed(first);
    for (;;) {
      const line = await reader.readMessage(PROMPT);
      if (line === null) {
        // Ctrl-D: the shell's prompt goes on a line of its own.
        if (interactive) process.stderr.write('\n');
        break;
      }
      const text = line.trim();
      if (!text) continue;
      if (text === 'exit' || text === 'quit') break;
      if (interactive) void saveHistory(historyFile, text);
      const command = text.startsWith('//') ? undefined : parseCommand(text);
      if (command) {
        await runCommand(command.name, command.args);
        if (exiting) break;
        continue;
      }
      await send(text.startsWith('//') ? text.slice(1) : text);
    }
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json: options.output !== 'text' });
  } finally {
    spinner.stop();
    // Background commands end with the chat.
    agent?.runner.killAll();
    // A clean exit: the session's active marker goes.
    await agent?.session?.close().catch(() => {});
    process.off('SIGINT', interrupt);
    offTermination();
    stopWatching();
    reader.close();
  }
}
