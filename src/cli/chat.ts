// `keel chat`: the interactive session. Each message is a turn of one conversation; lines starting with `/` are
// the chat's commands (chat-commands.ts), `@path` attaches a file. This file only wires: input → user turns and
// commands, the agent's events → the chat's screen (ui/chat-screen.ts), which writes everything the chat shows.

import { realpath } from 'node:fs/promises';
import { stateDir } from '../config/paths.js';
import { ExitCode } from '../core/errors.js';
import type { AgentEvent } from '../core/events.js';
import type { PromptCommand } from '../core/prompt-command.js';
import { loadPromptCommands } from '../extend/prompt-commands.js';
import type { Run } from '../runtime/assemble.js';
import { nextMode } from '../safety/modes.js';
import { createReadJail } from '../safety/read-jail.js';
import { clearMarkerSync } from '../session/marker.js';
import { createChatScreen } from '../ui/chat-screen.js';
import { terminalColumns } from '../ui/wrap.js';
import { chatMessage, expandCommand, imagingOf } from './chat-attach.js';
import { commandNames, findCommand, helpText } from './chat-command-names.js';
import { type ChatContext, parseCommand } from './chat-commands.js';
import { chatCompleter } from './chat-complete.js';
import { historyPath, loadHistory, saveHistory } from './chat-history.js';
import { afterPlan } from './chat-plan.js';
import { type RewindChat, rewind, runRewindParts, undoTurn } from './chat-rewind.js';
import { UserShell } from './chat-shell.js';
import {
  type ChatOptions,
  type ChatRunStart,
  earlyHeadline,
  offerCrashed,
  startChatRun,
  switchRun,
} from './chat-start.js';
import { ChatUsage, contextUse, modelName, statusLine } from './chat-usage.js';
import { onOutputClosed } from './closed-output.js';
import { restrictTools } from './custom-command.js';
import { providerSetUp } from './first-run.js';
import { resolveMode } from './mode-options.js';
import { reportFailure, runExitCode, runFailureJson } from './report.js';
import { checkResumeFlags, loadConfigFor } from './run-options.js';
import { exitOnTermination } from './signals.js';

const PROMPT = '› ';

export async function chatCommand(options: ChatOptions): Promise<number> {
  const env = process.env;
  const readJail = createReadJail(env);
  const interactive = Boolean(process.stdin.isTTY);
  // A mistyped --resume id (or --continue with nothing saved) is a usage error, before a provider is needed.
  const unresumable = await checkResumeFlags(options).then(
    () => undefined,
    (error: unknown) => reportFailure(error, { debug: options.debug, json: runFailureJson(options.output) }),
  );
  if (unresumable !== undefined) return unresumable;
  // No provider chosen yet: set one up before the chat's screen takes the terminal (headless: say how, and stop).
  const setup = await providerSetUp(options, interactive && Boolean(process.stdout.isTTY));
  if (setup.stop !== undefined) return setup.stop;
  const historyFile = historyPath(stateDir(env));
  let agent: Run | undefined;
  let current: ChatOptions = options;
  const prompts = () => agent?.promptCommands?.() ?? [];
  const names = () => commandNames(prompts());
  const screen = createChatScreen({
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env,
    interactive,
    output: options.output,
    completer: chatCompleter(names, () => agent?.workspace),
    ...(interactive ? { history: await loadHistory(historyFile) } : {}),
  });
  const { reader } = screen;
  const usage = new ChatUsage();
  const follow = (event: AgentEvent) => {
    if (event.type === 'usage') usage.add(event);
    return screen.sink(event);
  };
  let running: AbortController | undefined;
  let exiting = false;
  /** A piped chat's last failed turn's exit code. */
  let failedWith: number | undefined;
  const interrupt = () => {
    if (running?.signal.aborted) {
      // A second Ctrl-C while the turn is still stopping: kill what runs and leave, the shell's prompt on a line of its own.
      agent?.runner.killAll();
      if (agent?.session) clearMarkerSync(agent.session.file);
      screen.endLine();
      process.exit(130);
    }
    if (running) running.abort();
    else if (!reader.clearLine()) reader.close();
  };
  reader.onInterrupt(interrupt);
  // Esc Esc at an empty prompt: Claude Code's way back to an earlier message.
  reader.bindDoubleEscape('/rewind');
  // Esc while a turn runs stops it, as the first Ctrl-C does (never the second's quit), as in Claude Code and Codex;
  // at an approval or a command's question it answers no, or cancels, as Ctrl-C does there.
  reader.onEscapeWhileBusy(() => {
    if (running && !running.signal.aborted) running.abort();
  });
  process.on('SIGINT', interrupt);
  let offTermination = () => {};
  // Nobody reads the answers any more: end the turn and the chat.
  const stopWatching = onOutputClosed(() => {
    running?.abort();
    reader.close();
  });

  // Ctrl-C while a question waits aborts `running`: the question answers no and the turn ends interrupted.
  const io = { approve: screen.approve, askUser: screen.askUser, follow };
  const start: ChatRunStart = (opts, session, approvals, known) =>
    startChatRun(opts, io, session, approvals, known);
  /** Takes `next` in place of the current agent: the old one's commands end and its session closes cleanly. */
  const adopt = async (next: Run) => {
    const previous = agent;
    // Custom command files join the servers' prompts as slash commands; a malformed file is one warning.
    const custom = await loadPromptCommands({ workspace: next.workspace, env });
    for (const message of custom.warnings) next.emit({ type: 'warning', message });
    const fromServers = next.promptCommands;
    next.promptCommands = () => [...custom.commands, ...(fromServers?.() ?? [])];
    agent = next;
    offTermination();
    // The terminal closed (or SIGTERM) while the chat waited at its prompt: nothing was cut short, so the next chat
    // does not offer the session as one that ended unexpectedly. Mid-turn, the marker stays and it does.
    offTermination = exitOnTermination(next.runner, () => {
      if (!running && agent?.session) clearMarkerSync(agent.session.file);
    });
    await previous?.close().catch(() => {});
  };
  const showResumed = (a: Run) => {
    if (!a.resumed || options.output !== 'text') return;
    screen.resumed(a.resumed.meta.id, a.conversation.messages, a.resumed.events);
  };
  /** Runs `work` as what Ctrl-C stops (`running`). */
  const stoppable = async <T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    running = new AbortController();
    try {
      return await work(running.signal);
    } finally {
      running = undefined;
    }
  };
  const busy = <T>(label: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    screen.wait(label);
    return stoppable(work).finally(() => screen.idle());
  };
  /** A slash command's question at the terminal: Ctrl-C cancels it (null), as it answers an approval no. */
  const question = (prompt: string): Promise<string | null> =>
    stoppable(async (signal) => {
      const answer = await reader.ask(prompt, signal);
      // No line ended the question: end it, so the note that follows starts on its own line.
      if (answer === null) screen.notice('\n');
      return answer;
    });
  const userShell = new UserShell(options.output === 'text' ? screen.print : undefined);
  const shell = async (command: string) => {
    const at = (await settled()) ? agent : undefined;
    if (at) await stoppable((signal) => userShell.run(at, command, signal));
  };
  /** A user turn; `command`: the prompt command `typed` is the expansion of, its allowed-tools for this turn. */
  const send = async (typed: string, command?: PromptCommand) => {
    if (!(await settled()) || !agent) return;
    const text = userShell.withOutputs(typed);
    // A command file's expansion holds its @files already (extend/file-includes.ts): only images are attached here.
    const { message, attached, skipped, images } = await chatMessage(text, agent, readJail, {
      ...imagingOf(agent.model),
      ...(command?.includesFiles ? { only: true } : {}),
    });
    screen.attachments(attached, skipped);
    usage.begin(text, agent.model.modelId);
    agent.conversation.push({ role: 'user', content: message, ...(images.length > 0 ? { images } : {}) });
    running = new AbortController();
    const lift = command?.allowedTools && restrictTools(agent.registry, command.allowedTools, agent.emit);
    try {
      const result = await agent.run(running.signal);
      // Piped, nobody sees the errors: the chat ends with the last one's exit code (and at once, unreachable).
      if (!interactive && result.reason === 'failed') failedWith = runExitCode(result, options.debug);
    } finally {
      running = undefined;
      lift?.();
    }
    if (interactive) showStatus();
    // Lines typed during the plan turn were meant as the next messages: they wait until the question is answered.
    if (interactive && agent.mode === 'plan' && agent.todos().length > 0)
      await afterPlan({
        ask: (q) => screen.reader.question(q),
        note: screen.notice,
        restart: chat.restart,
        send,
      });
  };
  const showStatus = () => {
    if (agent)
      screen.status(`${agent.mode} mode · ${statusLine(modelName(agent), contextUse(agent), usage.total)}`);
  };
  /** The first run assembled while the prompt is up, or a mode switch: inputs wait for it (settled). */
  let switching: Promise<void> | undefined;
  /** The first run's assembly when the prompt did not wait for it, and why it failed, if it did (the chat ends). */
  let firstRun: Promise<void> | undefined;
  let failed: { error: unknown } | undefined;
  /** Waits for `switching` (no input runs on an agent not there yet or being replaced); Ctrl-C drops the input. */
  const settled = async () =>
    !switching ||
    busy(
      'starting',
      (signal) =>
        new Promise<boolean>((resolve) => {
          signal.addEventListener('abort', () => resolve(false), { once: true });
          void switching?.then(() => resolve(true));
        }),
    );

  const chat: ChatContext = {
    note: screen.notice,
    print: screen.print,
    busy,
    send,
    restart: async (change) => {
      if (!agent) return;
      const { next, options: opts, same } = await switchRun(agent, current, change, start);
      current = opts;
      await adopt(next);
      // Another session (/clear, /resume): /cost and the status line count its turns only.
      if (!same) usage.clear();
      if (change.resume !== undefined) showResumed(next);
    },
    exit: () => {
      exiting = true;
    },
    help: () => helpText(prompts(), terminalColumns(process.stdout)),
    cost: () => usage.report(),
    lastOutput: screen.lastOutput,
    get compact() {
      return agent?.compact;
    },
    modelName: () => (agent ? modelName(agent) : ''),
    checkModel: async (arg) =>
      agent &&
      (await import('./chat-model.js')).checkModelSwitch(arg, current, agent, { screen, interactive, busy }),
    mode: () => agent?.mode ?? 'interactive',
    sandboxed: () => agent?.sandboxed === true,
    status: showStatus,
    kept: () => agent?.approvals?.kept,
    sessionFile: () => agent?.session?.file,
    undo: async () => {
      if (agent) await undoTurn(rewindChat(agent));
    },
    rewind: async (args) => {
      if (agent) await rewind(rewindChat(agent), args);
    },
    wroteForUser: async (file) => {
      if (!agent) return;
      // Loaded here: the checkpoint store's modules are not needed before the chat's first prompt.
      const { keepUserFile } = await import('../checkpoint/user-files.js');
      await keepUserFile(stateDir(env), agent.workspace.root, await realpath(file));
    },
    gitContext: () => agent && { agent, options: current, screen, busy, interactive },
    subcommand: {
      undo: async () => (await import('./undo-command.js')).undoCommand(undefined, current, screen),
      init: async () => (await import('./init-command.js')).initCommand(current, screen),
      sessions: async () => (await import('./sessions-command.js')).sessionsListCommand(current, screen),
      models: async () => (await import('./models-command.js')).modelsCommand(undefined, current, screen),
    },
  };

  /** What /undo and /rewind need of the current agent and the screen. */
  const rewindChat = (a: Run): RewindChat => ({
    ...runRewindParts(a, screen),
    ...(interactive ? { ask: question } : {}),
    restoreFilesAt: async (time) => (await import('./undo-command.js')).restoreFilesAt(time, current, screen),
    undoLastRun: async () => void (await chat.subcommand.undo()),
    putBack: (text) =>
      interactive && !text.includes('\n')
        ? reader.prefill(text)
        : screen.notice(`your message was:\n${text}\n`),
  });

  // Shift+Tab at the prompt: the next mode of the cycle, the conversation kept. While a turn runs (the run cannot
  // change its mode mid-turn) each press moves the mode the chat switches to once the turn is over.
  let modeAfterTurn: ReturnType<typeof nextMode> | undefined;
  const switchAfterTurn = async () => {
    const mode = modeAfterTurn;
    modeAfterTurn = undefined;
    if (mode === undefined || mode === agent?.mode) return;
    await chat.restart({ mode }).then(showStatus, (error: unknown) => {
      reportFailure(error, { debug: options.debug, out: screen });
    });
  };
  reader.onShiftTab(() => {
    if (!agent || switching) return;
    if (running) {
      modeAfterTurn = nextMode(modeAfterTurn ?? agent.mode);
      return;
    }
    const mode = nextMode(agent.mode);
    switching = chat
      .restart({ mode })
      .then(() => reader.interject(showStatus))
      .catch(
        (error: unknown) =>
          void reader.interject(() => reportFailure(error, { debug: options.debug, out: screen })),
      )
      .finally(() => {
        switching = undefined;
      });
  });

  /** A `/name args` line: a built-in command, a prompt command, or a suggestion; never sent to the model. */
  const runCommand = async (name: string, args: string) => {
    if ((!findCommand(name, []).builtin?.anytime && !(await settled())) || failed) return;
    const { builtin, prompt, guess } = findCommand(name, prompts());
    try {
      if (builtin) await builtin.run(args, chat);
      else if (prompt) await send(await expandCommand(prompt, { name, args }, { busy, screen }), prompt);
      else
        screen.notice(
          `unknown command /${name}${guess ? `; did you mean /${guess}?` : ''} (/help lists them; start with // to send a message beginning with /)\n`,
        );
    } catch (error) {
      reportFailure(error, { debug: options.debug, out: screen });
    }
  };

  try {
    const resume = (await offerCrashed(options, screen, interactive)) ?? options.resume;
    // The config (a broken one fails here, before the prompt) and the mode: the banner's and the run's.
    const loaded = setup.loaded ?? (await loadConfigFor(options));
    const known = { loaded, mode: await resolveMode(options, loaded.config, 'interactive') };
    const headline = await earlyHeadline({ ...options, interactive }, resume, loaded, known.mode);
    const assembled = start(options, { continue: options.continue, resume }, undefined, known).then(adopt);
    if (headline) {
      // The prompt now, the run assembled as the user types; failing, it ends the chat with its error, the prompt wiped.
      firstRun = assembled;
      screen.banner(headline.model, headline.workspace);
      switching = assembled
        .catch((error: unknown) => {
          failed = { error };
          screen.dropPrompt();
        })
        .finally(() => {
          switching = undefined;
        });
    } else {
      await assembled;
      if (!agent) return ExitCode.failed;
      const first: Run = agent;
      if (interactive) screen.banner(`${modelName(first)} · ${first.mode} mode`, first.workspace.root);
      showResumed(first);
    }
    let firstMessage = options.message?.join(' ').trim() || undefined;
    if (firstMessage && interactive) screen.print(`${PROMPT}${firstMessage}\n`);
    // No later line can reach a provider that is down or refuses the credentials.
    while (failedWith !== ExitCode.provider) {
      if (modeAfterTurn !== undefined) await switchAfterTurn();
      const line = firstMessage ?? (await reader.readMessage(PROMPT));
      firstMessage = undefined;
      if (failed) throw failed.error;
      if (line === null) {
        // Ctrl-D: the shell's prompt goes on a line of its own.
        if (interactive) screen.endLine();
        break;
      }
      const text = line.trim();
      if (!text) continue;
      if (text === 'exit' || text === 'quit') break;
      if (interactive) void saveHistory(historyFile, text);
      // `!` alone (or `! `) is no command: the line goes to the model as typed.
      const userCommand = text.startsWith('!') ? text.slice(1).trim() : '';
      if (userCommand) {
        await shell(userCommand);
        continue;
      }
      const command = text.startsWith('//') ? undefined : parseCommand(text);
      if (command) {
        await runCommand(command.name, command.args);
        if (exiting) break;
        continue;
      }
      await send(text.startsWith('//') ? text.slice(1) : text);
    }
    return failedWith ?? ExitCode.ok;
  } catch (error) {
    return reportFailure(error, {
      debug: options.debug,
      json: runFailureJson(options.output),
      out: screen,
    });
  } finally {
    // A chat left while its run was still being assembled closes that run too once it is there.
    await firstRun?.catch(() => {});
    // Background commands end with the chat; a clean exit: the session's active marker goes.
    await agent?.close().catch(() => {});
    process.off('SIGINT', interrupt);
    offTermination();
    stopWatching();
    screen.close();
  }
}
