// What every way of running tools opens first (every entry point, through runtime/): the state
// dir, the workspace jail (saved tool outputs a read-only root), the command runner (sandboxed when asked or by
// full mode's default, with an allowlisted environment) and the policy, its rules checked before anything runs.
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { stateDir, userConfigPath, workspaceKey } from '../config/paths.js';
import { UsageError } from '../core/errors.js';
import type { CommandRunner } from '../core/runner.js';
import { commandEnv } from '../exec/process-runner.js';
import { chooseCommandRunner } from '../exec/sandbox-choice.js';
import { keelDirectories } from '../exec/sandbox-runner.js';
import type { HintWords } from '../safety/modes.js';
import { checkRules, createPolicy, type ExecutionMode, type Policy } from '../safety/policy.js';
import { keelDirs } from '../safety/read-jail.js';
import { userSecretLinks } from '../safety/secret-links.js';
import { openWorkspace, type Workspace } from '../safety/workspace.js';

export interface SafetySetup {
  state: string;
  /**
   * Where this workspace's tool output too large for one result is saved (a folder per run); the model may read
   * it back, never write it.
   */
  outputRoot: string;
  workspace: Workspace;
  commands: Awaited<ReturnType<typeof chooseCommandRunner>>;
  policy: Policy;
  /** The same policy in another mode (a sub-agent's narrower one). */
  policyFor(mode: ExecutionMode): Policy;
}

export interface SafetyOptions {
  /** The workspace directory, checked by resolveWorkspaceDir. */
  dir: string;
  mode: ExecutionMode;
  /** --sandbox (true) or --no-sandbox (false); absent: safety.sandbox, else the mode's default. */
  sandbox?: boolean;
  /** Allow rules for this run (--allow). */
  allow?: readonly string[];
  env: NodeJS.ProcessEnv;
  /**
   * An editor's terminals (keel acp): commands run there, where the user sees them, unless they would run in the
   * sandbox — an editor's terminal is not one, so a sandboxed run keeps its own.
   */
  terminal?: CommandRunner;
  /** Keel's state directory; default: the XDG one (tool evals give each case its own). */
  stateDir?: string;
  /** The words the policy's hints use; default: the command line's. */
  words?: HintWords;
}

export async function openSafety(loaded: LoadedConfig, options: SafetyOptions): Promise<SafetySetup> {
  const { config } = loaded;
  const { env } = options;
  const state = options.stateDir ?? stateDir(env);
  // Each workspace's saved outputs apart: the model may read back this workspace's, never another's.
  const real = await realpath(options.dir).catch(() => options.dir);
  const outputRoot = join(state, 'tool-output', workspaceKey(real));
  const workspace = await openWorkspace(options.dir, [outputRoot], keelDirs(env), userSecretLinks(env));
  const chosen = await chooseCommandRunner({
    mode: options.mode,
    requested: options.sandbox ?? config.safety.sandbox,
    env: commandEnv(env, config.safety.env_passthrough),
    sandbox: {
      workspace: workspace.root,
      home: env.HOME || homedir(),
      // Every Keel dir: other workspaces' sessions (data) and saved outputs (state) are no command's business.
      keelDirs: [...new Set([...keelDirectories(userConfigPath(env), state), ...keelDirs(env)])],
      network: config.safety.sandbox_network,
      runtimeDir: env.XDG_RUNTIME_DIR || undefined,
    },
  });
  const commands = options.terminal && !chosen.sandboxed ? { ...chosen, runner: options.terminal } : chosen;
  const policyOptions = {
    mode: options.mode,
    workspace,
    config,
    allow: options.allow,
    stateDir: state,
    env,
    sandboxed: commands.sandboxed,
    ...(options.words ? { words: options.words } : {}),
  };
  await checkRules(policyOptions).catch((error: unknown) => {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  });
  return {
    state,
    outputRoot,
    workspace,
    commands,
    policy: createPolicy(policyOptions),
    policyFor: (mode) => createPolicy({ ...policyOptions, mode }),
  };
}
