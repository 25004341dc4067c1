// `keel chat`: a line-based REPL; every line is a user turn of one conversation. `exit` or Ctrl-D quits.
import { realpath } from 'node:fs/promises';
import { dataDir } from '../config/paths.js';
import { ExitCode } from '../core/errors.js';
import { crashedSessions, dismissCrashed } from '../session/marker.js';
import { sessionDir } from '../session/session-file.js';
import { createApprovalPrompt } from '../ui/approval-prompt.js';
import { editText } from '../ui/editor.js';
import { LineReader } from '../ui/line-reader.js';
import { renderHistory } from '../ui/session-history.js';
import { colorEnabled, createStyle } from '../ui/style.js';
import { onOutputClosed } from './closed-output.js';
import type { GlobalOptions } from './main.js';
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

export async function chatCommand(options: ChatOptions): Promise<number> {
  const interactive = Boolean(process.stdin.isTTY);
  const reader = new LineReader(process.stdin, process.stderr, interactive);
  let running: AbortController | undefined;
  let killAll = () => {};
  const interrupt = () => {
    if (running?.signal.aborted) {
      // A second Ctrl-C while the turn is still stopping: kill what runs and leave.
      killAll();
      process.exit(130);
    }
    if (running) running.abort();
    else reader.close();
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
    style: createStyle(colorEnabled(process.stderr, process.env)),
    // `e`: the terminal goes to $EDITOR until it exits; the chat's input is paused meanwhile.
    edit: (text, file) => reader.handOver(() => editText(text, { file, env: process.env })),
  });
  let agent: Agent | undefined;
  try {
    const resume = (await offerCrashed(options, reader, interactive)) ?? options.resume;
    agent = await setupAgent(options, {
      mode: (loaded) => chooseMode(options, loaded.config.agent.terminal.default_mode, 'interactive'),
      allow: options.allow,
      streamText: options.output === 'text',
      approve,
      dryRun: options.dryRun,
      sandbox: options.sandbox,
      session: { save: options.session !== false, continue: options.continue, resume },
    });
    const runner = agent.runner;
    killAll = () => runner.killAll();
    offTermination = exitOnTermination(runner);
    if (interactive) {
      process.stderr.write(
        `keel chat · ${agent.model.provider}/${agent.model.modelId} · ${agent.workspace.root}\n`,
      );
      process.stderr.write('type exit or press Ctrl-D to quit\n');
    }
    if (agent.resumed && options.output === 'text') {
      const style = createStyle(colorEnabled(process.stderr, process.env));
      process.stderr.write(`resuming session ${agent.resumed.meta.id}\n`);
      process.stderr.write(renderHistory(agent.conversation.messages, style));
    }
    for (;;) {
      const line = await reader.read('› ');
      if (line === null) break;
      const text = line.trim();
      if (!text) continue;
      if (text === 'exit' || text === 'quit') break;
      agent.conversation.push({ role: 'user', content: text });
      running = new AbortController();
      await agent.run(running.signal);
      running = undefined;
    }
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json: options.output !== 'text' });
  } finally {
    // Background commands end with the chat.
    killAll();
    // A clean exit: the session's active marker goes.
    await agent?.session?.close().catch(() => {});
    process.off('SIGINT', interrupt);
    offTermination();
    stopWatching();
    reader.close();
  }
}
