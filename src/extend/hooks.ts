// The user's hooks (config `hooks`): commands run on session_start, before and after each tool call, and on stop,
// each given a JSON event on stdin. A pre_tool hook exiting 2 blocks the call, its stderr the model's reason; any
// other failure (non-zero exit, timeout, a hook that cannot start) is one warning and the agent goes on.
import { lstat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { HookConfig, HooksConfig } from '../config/extend-schema.js';
import type { AgentEvent } from '../core/events.js';
import { clip } from '../core/text.js';
import type { ReadJail } from '../safety/read-jail.js';
import type { HookedCall, ToolHooks, ToolResult } from '../tools/tool.js';
import { type HookOutcome, runHook } from './hook-runner.js';

/** The exit code with which a pre_tool hook blocks a call (as in Claude Code). */
export const BLOCK_EXIT = 2;
/** What of a tool's output a post_tool hook receives, at most. */
const RESULT_CAP = 100_000;

export type HookEvent = keyof HooksConfig;

export interface HookSetup {
  workspace: string;
  sessionId: string;
  /** The environment hooks run in: Keel's own, plus KEEL_HOOK_EVENT, KEEL_WORKSPACE and KEEL_SESSION_ID. */
  env: NodeJS.ProcessEnv;
  emit: (event: AgentEvent) => void;
  /**
   * Hooks a project file set (by `sources`, config key → where from) whose script is a link out of the workspace
   * or into a secret are skipped with a warning, checked as they are about to run. The user's own are exempt.
   */
  jail?: { reads: ReadJail; sources: Record<string, string> };
}

export interface Hooks extends ToolHooks {
  sessionStart(signal?: AbortSignal): Promise<void>;
  stop(details: { reason: string; turns: number }, signal?: AbortSignal): Promise<void>;
}

/** `write_*`, `mcp__*`, `read_file`: `*` any run of characters, `?` one. */
export function hookMatches(pattern: string, tool: string): boolean {
  const body = pattern
    .split(/([*?])/)
    .map((part) => (part === '*' ? '.*' : part === '?' ? '.' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`).test(tool);
}

function failure(event: HookEvent, hook: HookConfig, outcome: HookOutcome): string | undefined {
  const name = `${event} hook \`${clip(hook.command, 60)}\``;
  if (outcome.error) return `${name} could not start: ${outcome.error}`;
  if (outcome.timedOut) return `${name} timed out after ${hook.timeout_seconds}s and was killed`;
  if (outcome.code === 0) return undefined;
  const stderr = outcome.stderr.trim();
  const how = outcome.code === null ? 'was killed' : `exited with code ${outcome.code}`;
  return `${name} ${how}${stderr ? `: ${clip(stderr, 300)}` : ''}`;
}

/** The hooks of `config`, or undefined when none is configured (then nothing is spawned, ever). */
export function createHooks(config: HooksConfig, setup: HookSetup): Hooks | undefined {
  if (Object.values(config).every((list) => list.length === 0)) return undefined;
  const base = { session_id: setup.sessionId, workspace: setup.workspace };

  async function jailRefusal(event: HookEvent, hook: HookConfig): Promise<string | undefined> {
    const { jail } = setup;
    if (!jail?.sources[`hooks.${event}`]?.startsWith('project file')) return undefined;
    return scriptRefusal(hook.command, setup.workspace, jail.reads);
  }

  async function runAll(
    event: HookEvent,
    payload: Record<string, unknown>,
    signal: AbortSignal | undefined,
    tool?: string,
  ): Promise<string | undefined> {
    for (const hook of config[event]) {
      if (tool !== undefined && !hookMatches(hook.match, tool)) continue;
      const refused = await jailRefusal(event, hook);
      if (refused) {
        setup.emit({
          type: 'warning',
          message: `${event} hook \`${clip(hook.command, 60)}\` skipped: ${refused}`,
        });
        continue;
      }
      const outcome = await runHook({
        command: hook.command,
        cwd: setup.workspace,
        env: {
          ...setup.env,
          KEEL_HOOK_EVENT: event,
          KEEL_WORKSPACE: setup.workspace,
          KEEL_SESSION_ID: setup.sessionId,
        },
        input: `${JSON.stringify({ event, ...base, ...payload })}\n`,
        timeoutMs: hook.timeout_seconds * 1000,
        signal,
      });
      if (signal?.aborted) return undefined;
      if (event === 'pre_tool' && outcome.code === BLOCK_EXIT && !outcome.timedOut) {
        return (
          clip(outcome.stderr.trim(), 2000) || `a pre_tool hook (\`${clip(hook.command, 60)}\`) refused it`
        );
      }
      const warning = failure(event, hook, outcome);
      if (warning) setup.emit({ type: 'warning', message: warning });
    }
    return undefined;
  }

  return {
    beforeTool: (call: HookedCall, signal) =>
      runAll('pre_tool', { tool: call.tool, call_id: call.id, args: call.args }, signal, call.tool),
    async afterTool(call: HookedCall, result: ToolResult, signal) {
      const shown = {
        success: result.success,
        output: clip(result.output, RESULT_CAP),
        ...(result.error !== undefined ? { error: result.error } : {}),
      };
      await runAll(
        'post_tool',
        { tool: call.tool, call_id: call.id, args: call.args, result: shown },
        signal,
        call.tool,
      );
    },
    async sessionStart(signal) {
      await runAll('session_start', {}, signal);
    },
    async stop(details, signal) {
      await runAll('stop', details, signal);
    },
  };
}

/** A word of the hook naming a file in the workspace (`./check.sh`, `scripts/x.sh`) that the jail refuses. */
async function scriptRefusal(
  command: string,
  workspace: string,
  jail: ReadJail,
): Promise<string | undefined> {
  for (const word of command.split(/[\s;&|()<>]+/)) {
    const path = word.replace(/^['"]|['"]$/g, '');
    if (!path.includes('/') || isAbsolute(path)) continue;
    if (!(await lstat(resolve(workspace, path)).catch(() => undefined))) continue;
    const checked = await jail.check(path, workspace);
    if ('refused' in checked) return `${path}: ${checked.refused}`;
  }
  return undefined;
}
