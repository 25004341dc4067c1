// `keel run`: one autonomous run toward a goal given as --prompt, --plan or on stdin.
import { lstat, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ExitCode, UsageError } from '../core/errors.js';
import { planUnfinished } from '../plan/progress.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { createReadJail } from '../safety/read-jail.js';
import { isInside } from '../safety/workspace.js';
import { subagentRuns } from '../session/subagent-runs.js';
import { writeUnstartedRunEnd } from '../ui/json-output.js';
import { renderHistory } from '../ui/session-history.js';
import { streamStyle } from '../ui/style.js';
import { attachImages, imagingOf } from './chat-attach.js';
import { type CommandGoal, commandGoal, restrictTools } from './custom-command.js';
import { providerSetUp } from './first-run.js';
import type { GlobalOptions } from './global-options.js';
import { type ModeFlags, resolveMode } from './mode-options.js';
import type { RunStreams } from './outputs.js';
import {
  capPiped,
  type PipedInput,
  pipedBlank,
  pipedBudget,
  pipedGoal,
  readPiped,
  readStdinIfPiped,
  utf8Piped,
  withPipedInput,
} from './piped-input.js';
import { reportFailure, runExitCode, runFailureJson } from './report.js';
import { checkResumeFlags, startRun } from './run-options.js';
import { interruptSignal } from './signals.js';

export interface RunOptions extends GlobalOptions, ModeFlags {
  prompt?: string;
  plan?: string;
  /** false: --no-ask-user. */
  askUser?: boolean;
  dryRun?: boolean;
  /** --sandbox / --no-sandbox. */
  sandbox?: boolean;
  /** False under --no-session. */
  session?: boolean;
  continue?: boolean;
  resume?: string;
  /** --command: a custom command, with its arguments. */
  command?: string;
  /** --agent: run as this agent. */
  agent?: string;
  args?: string[];
  /** stream-json: user messages, approval answers and cancels as JSON lines on stdin (stream-session.ts). */
  inputFormat?: 'text' | 'stream-json';
}

/**
 * A run in this process (the tests of `keel run`): its streams, the text piped on its stdin (undefined: nothing
 * piped, as at a terminal), and the signal that interrupts it in place of Ctrl-C.
 */
export interface RunIo extends RunStreams {
  stdin?: string;
  signal: AbortSignal;
}

async function* textStream(text: string) {
  yield Buffer.from(text);
}

/** What was piped: the process's stdin, or an in-process run's text. */
async function piped(io: RunIo | undefined): Promise<PipedInput | undefined> {
  const input = !io
    ? await readStdinIfPiped()
    : io.stdin === undefined
      ? undefined
      : utf8Piped(await readPiped(textStream(io.stdin)));
  if (input?.note) (io?.stderr ?? process.stderr).write(`warning: ${input.note}\n`);
  return input;
}

/**
 * The plan file to read. One named outside the workspace is the user's own choice and read as given; one inside
 * it goes through the read jail, so a repository's `plan.md -> ~/.ssh/id_rsa` is refused, not sent.
 */
export async function planPath(options: Pick<RunOptions, 'plan' | 'cwd'>): Promise<string> {
  const file = resolve(options.plan!);
  const workspace = await resolveWorkspaceDir(options.cwd);
  const root = await realpath(workspace).catch(() => workspace);
  const inside = [workspace, root].some((dir) => isInside(dir, file));
  // Not there at all: loadPlan says so in its own words.
  if (!inside || !(await lstat(file).catch(() => undefined))) return file;
  const checked = await createReadJail(process.env).check(file, isInside(workspace, file) ? workspace : root);
  if ('refused' in checked) {
    throw new UsageError(`plan file ${options.plan} is refused: ${checked.refused}`, {
      hint: 'give a plan file inside the workspace that is not a link out of it, or name the real file',
    });
  }
  return file;
}

/**
 * The first prompt (a plan file's instructions tracked as todos), and input piped on stdin as its context; without
 * a prompt, the piped input is the goal (`fromStdin`), cut to what the model takes as piped context is.
 */
async function goalText(
  options: RunOptions,
  io: RunIo | undefined,
): Promise<{ text: string; plan?: string[]; piped?: PipedInput; fromStdin?: boolean }> {
  if (options.prompt !== undefined && options.plan !== undefined) {
    throw new UsageError('give either --prompt or --plan, not both');
  }
  if (options.plan !== undefined) {
    // Plan parsing (YAML, Markdown) loads only for plan runs.
    const [{ loadPlan }, { planToPrompt }] = await Promise.all([
      import('../plan/parse.js'),
      import('../plan/prompt.js'),
    ]);
    const plan = await loadPlan(await planPath(options));
    return {
      text: planToPrompt(plan, { tracked: true }),
      plan: plan.instructions,
      piped: await piped(io),
    };
  }
  // `git diff | keel run -p "review this"`: the piped text is context for the prompt, not the goal.
  if (options.prompt?.trim()) return { text: options.prompt, piped: await piped(io) };
  // A blank --prompt is no goal, whatever is piped.
  const input = options.prompt === undefined ? await piped(io) : undefined;
  if (!input || pipedBlank(input)) {
    throw new UsageError('no goal given', {
      hint: 'use keel run --prompt "<text>", keel run --plan <file>, or pipe the goal on stdin',
    });
  }
  return { text: '', piped: input, fromStdin: true };
}

/** --command's expanded text, or undefined without --command; arguments without it are a usage error. */
export async function customGoal(options: RunOptions): Promise<CommandGoal | undefined> {
  const args = options.args ?? [];
  if (options.command === undefined) {
    if (args.length > 0)
      throw new UsageError(`unexpected arguments: ${args.join(' ')}`, {
        hint: 'arguments go with --command <name>; give the goal with --prompt "<text>"',
      });
    return undefined;
  }
  if (options.prompt !== undefined || options.plan !== undefined) {
    throw new UsageError('give one of --command, --prompt or --plan');
  }
  return commandGoal(options.command, args, options.cwd);
}

export async function runCommand(options: RunOptions, io?: RunIo): Promise<number> {
  const json = runFailureJson(options.output);
  const { stdout, stderr } = io ?? { stdout: process.stdout, stderr: process.stderr };
  if (options.inputFormat === 'stream-json')
    return (await import('./stream-session.js')).streamSession(options);
  // Once the loop starts it ends the run with run_end on every path; a failure before that ends it here.
  let started = false;
  const unstarted = (code: number) => {
    if (!started && options.output === 'stream-json') writeUnstartedRunEnd(stdout);
    return code;
  };
  try {
    const custom = await customGoal(options);
    // `git diff | keel run --command review`: piped input is context for a command too.
    const goal = custom ? { text: custom.text, piped: await piped(io) } : await goalText(options, io);
    let text = goal.text;
    await checkResumeFlags(options);
    // A run never asks: without a provider chosen (and no Ollama to use) it names the command to run.
    const { stop, loaded } = await providerSetUp(options, false);
    if (stop !== undefined) return unstarted(stop);
    const agent = await startRun(
      options,
      {
        ...(loaded ? { loaded } : {}),
        mode: (loaded) => resolveMode(options, loaded.config, 'restricted'),
        allow: options.allow,
        streamText: Boolean(stdout.isTTY) && options.output === 'text',
        dryRun: options.dryRun,
        sandbox: options.sandbox,
        session: { save: options.session !== false, continue: options.continue, resume: options.resume },
        summary: options.output === 'text',
        ...(options.agent === undefined ? {} : { agent: options.agent }),
        ...(goal.plan?.length ? { plan: goal.plan } : {}),
        // A piped goal is known once it is cut to what the model takes, after the run is assembled.
        ...(options.mode === 'plan' ? { planGoal: () => text } : {}),
        ...(options.askUser === false ? { askUserTool: false } : {}),
      },
      io,
    );
    if (custom?.allowedTools) restrictTools(agent.registry, custom.allowedTools, agent.emit);
    if (agent.resumed && options.output === 'text') {
      const style = streamStyle(stderr, process.env);
      stderr.write(`resuming session ${agent.resumed.meta.id}\n`);
      stderr.write(renderHistory(agent.conversation.messages, style, subagentRuns(agent.resumed.events)));
    }
    const imaging = imagingOf(agent.model);
    const capped = goal.piped && capPiped(goal.piped, pipedBudget(agent.model.capabilities), imaging);
    if (capped?.note) agent.emit({ type: 'warning', message: capped.note });
    if (capped && goal.fromStdin) text = pipedGoal(capped);
    const content = capped && !goal.fromStdin ? withPipedInput(text, capped) : text;
    const images = await attachImages(text, agent.workspace, createReadJail(process.env), imaging);
    if (capped?.image) images.push(capped.image);
    agent.conversation.push({ role: 'user', content, ...(images.length > 0 ? { images } : {}) });
    const interrupt = io ? { signal: io.signal, dispose() {} } : interruptSignal(agent.runner);
    started = true;
    const result = await agent.run(interrupt.signal).finally(() => {
      interrupt.dispose();
      // Background commands end with the run.
      agent.runner.killAll();
    });
    // A clean end: the session's active marker goes.
    await agent.close();
    const code = runExitCode(result, options.debug);
    // A plan with instructions left is not done, whatever the model said (the report on stderr lists them).
    if (code === ExitCode.ok && goal.plan?.length && planUnfinished(goal.plan, agent.todos()))
      return ExitCode.turnLimit;
    return code;
  } catch (error) {
    const out = io && {
      print: (t: string) => void stdout.write(t),
      notice: (t: string) => void stderr.write(t),
    };
    return unstarted(reportFailure(error, { debug: options.debug, json, ...(out ? { out } : {}) }));
  }
}
