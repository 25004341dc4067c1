// Wires the pieces for run and chat: config, workspace, policy, tools, model, conversation and outputs.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Conversation } from '../agent/conversation.js';
import { type LoopOptions, runLoop, type ToolOutcome } from '../agent/loop.js';
import { systemPrompt } from '../agent/system-prompt.js';
import { type LoadedConfig, loadConfig } from '../config/load.js';
import { UsageError } from '../core/errors.js';
import { type EventSink, fanOut } from '../core/events.js';
import type { ToolCall } from '../core/messages.js';
import { promptBudget } from '../providers/capabilities.js';
import { createModel } from '../providers/index.js';
import type { Model } from '../providers/model.js';
import { createPolicy, type ExecutionMode } from '../safety/policy.js';
import { openWorkspace, type Workspace } from '../safety/workspace.js';
import { executeToolCall, formatForModel } from '../tools/executor.js';
import { createRegistry, defaultTools, type ToolRegistry } from '../tools/registry.js';
import type { ToolContext } from '../tools/tool.js';
import { createJsonOutput, createStreamJsonOutput } from '../ui/json-output.js';
import { colorEnabled, createStyle } from '../ui/style.js';
import { createTextRenderer } from '../ui/text-renderer.js';
import { onOutputClosed } from './closed-output.js';
import type { GlobalOptions } from './main.js';

export interface Agent {
  loaded: LoadedConfig;
  workspace: Workspace;
  model: Model;
  registry: ToolRegistry;
  conversation: Conversation;
  emit: EventSink;
  /** Runs the loop on the conversation as it stands. */
  run(signal: AbortSignal): ReturnType<typeof runLoop>;
}

export interface SetupOptions {
  mode: (loaded: LoadedConfig) => ExecutionMode;
  /** Write answer text to stdout as it streams. */
  streamText: boolean;
  approve?: ToolContext['approve'];
}

export async function resolveWorkspaceDir(cwd: string | undefined): Promise<string> {
  const dir = resolve(cwd ?? process.cwd());
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new UsageError(`workspace directory not found: ${dir}`, {
      hint: 'pass an existing directory with --cwd',
    });
  }
  return dir;
}

export async function loadConfigFor(options: GlobalOptions): Promise<LoadedConfig> {
  const workspace = await resolveWorkspaceDir(options.cwd);
  return loadConfig({
    workspace,
    // Paths given on the command line are relative to where keel was started, not to the workspace.
    configFile: options.config === undefined ? undefined : resolve(options.config),
    env: process.env,
    flags: {
      provider: options.provider,
      model: options.model,
      baseUrl: options.baseUrl,
      maxTurns: options.maxTurns,
      cassette: options.cassette === undefined ? undefined : resolve(options.cassette),
    },
  });
}

function outputSink(options: GlobalOptions, model: Model, streamText: boolean): EventSink {
  if (options.output === 'stream-json') return createStreamJsonOutput(process.stdout);
  if (options.output === 'json') {
    // Humans still see errors on stderr; stdout carries only the JSON object.
    const style = createStyle(colorEnabled(process.stderr, process.env));
    const text = createTextRenderer({
      stdout: devNull,
      stderr: process.stderr,
      style,
      streamText: false,
      showReasoning: false,
    });
    return fanOut(
      createJsonOutput(process.stdout, { provider: model.provider, model: model.modelId }),
      (e) => {
        if (e.type === 'error' || e.type === 'warning' || e.type === 'run_end') text(e);
      },
    );
  }
  const style = createStyle(colorEnabled(process.stderr, process.env));
  return createTextRenderer({
    stdout: process.stdout,
    stderr: process.stderr,
    style,
    streamText,
    showReasoning: Boolean(process.stderr.isTTY),
  });
}

const devNull = { write: () => true } as unknown as NodeJS.WritableStream;

export async function setupAgent(options: GlobalOptions, setup: SetupOptions): Promise<Agent> {
  const loaded = await loadConfigFor(options);
  const { config } = loaded;
  const workspace = await openWorkspace(await resolveWorkspaceDir(options.cwd));
  const mode = setup.mode(loaded);
  const policy = createPolicy({ mode, workspace });
  const registry = createRegistry(defaultTools());
  const model = await createModel(config.provider, {
    record: options.record === undefined ? undefined : resolve(options.record),
    env: process.env,
  });
  const emit = outputSink(options, model, setup.streamText);
  // A model with a smaller window than the configured budget prunes before the server would cut the prompt.
  const budget = promptBudget(model.capabilities);
  const conversation = new Conversation(systemPrompt({ workspace: workspace.root, mode }), {
    maxTokens: Math.min(config.agent.conversation.max_tokens, budget ?? Number.POSITIVE_INFINITY),
    minRetainTurns: config.agent.conversation.min_retain_turns,
    pruneThreshold: config.agent.conversation.prune_threshold,
  });
  const limits = {
    maxOutputSize: config.agent.tools.max_output_size,
    maxFileReadSize: config.agent.tools.max_file_read_size,
    commandTimeoutMs: config.agent.terminal.timeout_seconds * 1000,
    maxStdoutBytes: config.agent.terminal.max_stdout_bytes,
    maxStderrBytes: config.agent.terminal.max_stderr_bytes,
  };
  const runTool = async (call: ToolCall, turn: number, signal: AbortSignal): Promise<ToolOutcome> => {
    const ctx: ToolContext = { workspace, policy, signal, emit, limits, approve: setup.approve };
    const result = await executeToolCall(call, turn, registry, ctx);
    return { content: formatForModel(result), isError: !result.success };
  };
  const loopOptions: Omit<LoopOptions, 'signal'> = {
    model,
    tools: registry.specs(),
    runTool,
    emit,
    workspace: workspace.root,
    maxTurns: config.agent.max_turns,
    timeoutMs: config.agent.timeout_seconds * 1000,
  };
  return {
    loaded,
    workspace,
    model,
    registry,
    conversation,
    emit,
    run: (signal) => runLoop(conversation, { ...loopOptions, signal }),
  };
}

/** Aborts on Ctrl-C or when nobody reads our output any more; a second Ctrl-C exits at once. */
export function interruptSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  const stopWatching = onOutputClosed(() => controller.abort());
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSigint);
      stopWatching();
    },
  };
}
