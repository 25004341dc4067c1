// `keel ask "<question>"`: one fast answer on stdout, with piped stdin as context; no tools unless --tools (then
// only the read-only ones); --continue carries the last few exchanges asked from this directory, --clear forgets them.
import { askSystemPrompt } from '../agent/ask-prompt.js';
import { dataDir } from '../config/paths.js';
import { UsageError } from '../core/errors.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { createReadJail } from '../safety/read-jail.js';
import { runRedactor } from '../safety/redact.js';
import {
  type AskExchange,
  askHistoryPath,
  clearAskHistory,
  historyMessages,
  loadAskHistory,
  saveAskHistory,
} from '../session/ask-history.js';
import { readOnlyTools } from '../tools/registry.js';
import { writeUnstartedRunEnd } from '../ui/json-output.js';
import { attachImages, imagingOf } from './chat-attach.js';
import type { GlobalOptions } from './global-options.js';
import { capPiped, pipedBudget, readStdinIfPiped, withPipedInput } from './piped-input.js';
import { reportFailure, runExitCode, runFailureJson } from './report.js';
import { startRun } from './run-options.js';
import { interruptSignal } from './signals.js';

export interface AskOptions extends GlobalOptions {
  /** --tools: offer the read-only tools. */
  tools?: boolean;
  continue?: boolean;
  clear?: boolean;
  /** False under --no-reasoning. */
  reasoning?: boolean;
}

export async function askCommand(words: string[], options: AskOptions): Promise<number> {
  const json = runFailureJson(options.output);
  try {
    const question = words.join(' ').trim();
    const directory = await resolveWorkspaceDir(options.cwd);
    const historyFile = askHistoryPath(dataDir(process.env), directory);
    if (options.clear) {
      await clearAskHistory(historyFile);
      if (!question) {
        process.stderr.write('ask history of this directory cleared\n');
        return 0;
      }
    }
    const piped = await readStdinIfPiped();
    if (piped?.note) process.stderr.write(`warning: ${piped.note}\n`);
    if (!question && piped === undefined) {
      throw new UsageError('no question given', {
        hint: 'use keel ask "<question>", and pipe a command\'s output to ask about it: git diff | keel ask "review this"',
      });
    }
    const tools = options.tools === true;
    const agent = await startRun(options, {
      // Only read-only tools are ever offered, so restricted mode (reads allowed) decides them.
      mode: () => 'restricted',
      streamText: Boolean(process.stdout.isTTY) && options.output === 'text',
      reasoning: options.reasoning !== false,
      tools: tools ? readOnlyTools() : [],
      systemPrompt: askSystemPrompt({ directory, tools, shell: process.env.SHELL }),
      session: { save: false },
      // A short question alone needs nothing Ollama's /api/show tells (tool support, the exact context length), so
      // it is not asked first; tools, piped input, an earlier exchange or an @file (an image?) still ask.
      probeModel: tools || piped !== undefined || options.continue === true || question.includes('@'),
    });
    try {
      const previous: AskExchange[] = options.continue ? await loadAskHistory(historyFile) : [];
      for (const message of historyMessages(previous)) agent.conversation.push(message);
      let message = question || 'Explain this input.';
      const capped = piped && capPiped(piped, pipedBudget(agent.model.capabilities), imagingOf(agent.model));
      if (capped?.note) agent.emit({ type: 'warning', message: capped.note });
      if (capped) message = withPipedInput(message, capped);
      const images = await attachImages(
        message,
        agent.workspace,
        createReadJail(process.env),
        imagingOf(agent.model),
      );
      if (capped?.image) images.push(capped.image);
      agent.conversation.push({ role: 'user', content: message, ...(images.length > 0 ? { images } : {}) });
      const interrupt = interruptSignal(agent.runner);
      const result = await agent.run(interrupt.signal).finally(() => interrupt.dispose());
      if (result.reason === 'done') {
        await saveAskHistory(
          historyFile,
          directory,
          previous,
          { question: message, answer: result.answer },
          runRedactor(process.env, agent.loaded),
        ).catch((error: unknown) =>
          agent.emit({
            type: 'warning',
            message: `ask history not saved: ${error instanceof Error ? error.message : String(error)}`,
          }),
        );
      }
      return runExitCode(result, options.debug);
    } finally {
      // The audit log's last lines written, language servers ended: the CLI exits right after (cli/main.ts).
      await agent.close().catch(() => {});
    }
  } catch (error) {
    const code = reportFailure(error, { debug: options.debug, json });
    // The loop never throws (it ends every run it starts with run_end), nor does anything after it here: this
    // failure came before the run started, and stream-json ends it with run_end too.
    if (options.output === 'stream-json') writeUnstartedRunEnd(process.stdout);
    return code;
  }
}
