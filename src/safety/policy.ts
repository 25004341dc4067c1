// Execution policy: decide(tool call) -> allow | ask | deny, with every reason and how to allow it. Each action
// is classified into a kind of the modes table (modes.ts); decision.ts combines the verdicts, deny over ask over allow.

import { promises as fs } from 'node:fs';
import os from 'node:os';
import { stateDir } from '../config/paths.js';
import type { KeelConfig } from '../config/schema.js';
import type { ToolPreview } from '../core/approval.js';
import type { SafetyLevel } from '../core/safety-level.js';
import { analyzeCommand } from './command/analysis.js';
import { judgeCommand, startShell } from './command/denylist.js';
import { inlineCode } from './command/inline-code.js';
import { commandReason, syntaxReason } from './command/read-only-check.js';
import { commandShells } from './command/working-directory.js';
import { combine, type Finding, type PolicyDecision, quote } from './decision.js';
import { CLI_WORDS, type ExecutionMode, type HintWords } from './modes.js';
import { domainListed, hostOf } from './network.js';
import { protectedPaths } from './protected-paths.js';
import { secretLocation } from './secret-files.js';
import { type CommandRule, parseRules, type RuleSources, ruleFor, ruleText } from './user-rules.js';
import type { Workspace } from './workspace.js';

export type { PolicyDecision } from './decision.js';
export type { ExecutionMode } from './modes.js';

export interface PolicyRequest {
  tool: string;
  safety: SafetyLevel;
  args: unknown;
  /** What the call will do, from the tool's preview: absolute paths it reads and writes, its command. */
  preview: ToolPreview;
}

/** What the policy learns from a call that ran (write_file reports `created`). */
export interface CallOutcome {
  success: boolean;
  metadata: Readonly<Record<string, string | number | boolean>>;
}

export interface Policy {
  readonly mode: ExecutionMode;
  decide(request: PolicyRequest): Promise<PolicyDecision>;
  /** Called by the executor after a call ran: tracks the files this run created (restricted may delete those). */
  record?(request: PolicyRequest, outcome: CallOutcome): void;
}

export interface PolicyOptions {
  mode: ExecutionMode;
  workspace: Workspace;
  /** The user's merged config (rules, protected paths); absent in unit tests. */
  config?: KeelConfig;
  /** Allow rules for this run only (--allow). */
  allow?: readonly string[];
  /** Shell commands run inside a sandbox: inline interpreter code is then no reason to ask in full mode. */
  sandboxed?: boolean;
  /** Keel's state directory, protected from file tools and commands; default: from env. */
  stateDir?: string;
  /** The environment commands run in (HOME, the state dir); default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** The words hints name the ways to allow a call with; default: the command line's (--mode, --allow). */
  words?: HintWords;
}

/** The tool whose argument is a shell command, analysed rather than judged by safety level. */
export const COMMAND_TOOL = 'execute_command';

/** What each built-in file tool does to the paths of its preview's writes. */
export const TOOL_OPERATIONS: Readonly<Record<string, 'write' | 'create' | 'delete'>> = {
  write_file: 'write',
  create_directory: 'create',
  delete_path: 'delete',
};

const PATH_HINT = 'name only paths inside the workspace (symbolic and hard links included)';

const shorten = (text: string): string => (text.length > 80 ? `${text.slice(0, 77)}...` : text);
function commandOf(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null || !('command' in args)) return undefined;
  return typeof args.command === 'string' ? args.command : undefined;
}

/** The command rules of the config and --allow: the policy's, and those the system prompt names. */
export function ruleSources(options: Pick<PolicyOptions, 'config' | 'allow'>): RuleSources {
  const commands = options.config?.safety.commands;
  return {
    allow: [...(commands?.allow ?? []), ...(options.allow ?? [])],
    ask: commands?.ask ?? [],
    deny: commands?.deny ?? [],
  };
}

/** Parses the config's and --allow's command rules; throws InvalidRuleError naming a bad one. */
export const checkRules = (options: PolicyOptions): Promise<CommandRule[]> =>
  parseRules(ruleSources(options));

/** The policy for a run in one mode, with the user's rules and protected paths. */
export function createPolicy(options: PolicyOptions): Policy {
  const { mode, workspace } = options;
  const env = options.env ?? process.env;
  const home = env.HOME || os.homedir();
  const state = options.stateDir ?? stateDir(env);
  const rules = checkRules(options);
  // A bad rule fails every command decision (and setup reports it first); never an unhandled rejection.
  rules.catch(() => {});
  const guarded = protectedPaths({
    root: workspace.root,
    home,
    stateDir: state,
    globs: options.config?.safety.protected_paths ?? [],
  });
  /** Files this run created, which restricted mode lets it delete again. */
  const created = new Set<string>();
  /** The findings' decision in this run's mode, its hints in the entry point's words. */
  const judge = (findings: Finding[], sandboxed = false) =>
    combine(findings, mode, sandboxed, options.words ?? CLI_WORDS);

  async function decideCommand(command: string): Promise<PolicyDecision> {
    const analysis = await analyzeCommand(command);
    const shown = `\`${shorten(command)}\``;
    // Syntax that does not parse is the whole story: the parts the parser guessed at say nothing true.
    if (analysis.issues.some((i) => i.kind === 'parse_error')) {
      const reason = `${shown} does not parse as a bash command`;
      return judge([{ kind: 'denied-command', reason, hint: 'fix the syntax' }]);
    }
    const findings: Finding[] = [];
    const verdicts = await judgeCommand(analysis, {
      workspace,
      home,
      env,
      allowedPaths: options.config?.safety.allowed_paths ?? [],
      protectedPaths: options.config?.safety.protected_paths ?? [],
      stateDir: state,
    });
    // Where each command runs, through the line's `cd`s: the read-only check reads relative paths from there.
    const shells = await commandShells(analysis.commands, await startShell({ workspace, home, env }));
    for (const v of verdicts.filter((v) => v.tier === 'deny')) {
      findings.push({ kind: 'denied-command', reason: `${shown} is refused in every mode: ${v.reason}` });
    }
    if (analysis.issues.some((i) => i.kind === 'hidden_continuation')) {
      findings.push({
        kind: 'unverifiable-command',
        reason: `${shown} continues a line right after \`$\`, which bash joins into an expansion the check cannot see`,
      });
    }
    if (analysis.issues.some((i) => i.kind === 'control_character')) {
      findings.push({
        kind: 'unverifiable-command',
        reason: `${shown} contains control characters, so what runs may differ from what is shown`,
      });
    }
    const syntax = syntaxReason(analysis);
    const parts: Finding[] = [];
    // Nothing in the line but words and plain leading assignments (an allow rule names those exactly).
    const plain = analysis.issues.every((i) => i.kind === 'assignment');
    for (const [index, part] of analysis.commands.entries()) {
      // A lone command is shown whole, with its redirections (`cat < src/a.ts`).
      const text = analysis.commands.length === 1 ? shown : `\`${shorten(part.text)}\``;
      const rule = await ruleFor(await rules, part);
      if (rule?.kind === 'deny') {
        parts.push({
          kind: 'user-denied-command',
          reason: `${text} matches your deny rule ${quote(rule.text)}`,
        });
      } else if (rule?.kind === 'ask') {
        parts.push({ kind: 'user-ask-command', reason: `${text} matches your ask rule ${quote(rule.text)}` });
      } else if (rule && plain && (await redirectsInside(part.redirects))) {
        parts.push({
          kind: 'user-allowed-command',
          reason: `${text} matches your allow rule ${quote(rule.text)}`,
        });
      } else if (part.nonLiteral.includes(0)) {
        parts.push({
          kind: 'unverifiable-command',
          reason: `${text}: the program name comes from an expansion, so it cannot be checked`,
        });
      } else if (!options.sandboxed && inlineCode(part, analysis)) {
        const rulable = part.literal && plain;
        const rule = rulable
          ? `, or add ${quote(ruleText(part.argv, part.assignments))} to safety.commands.allow`
          : '';
        parts.push({
          kind: 'inline-code',
          reason: `${text} runs inline ${inlineCode(part, analysis)} code that cannot be checked before it runs`,
          hint: `write the code to a file in the workspace and run that, or run commands in a sandbox${rule}`,
        });
      } else {
        const why = syntax
          ? { reason: syntax }
          : await commandReason(analysis.commands, index, workspace, shells);
        if (!why) parts.push({ kind: 'read-only-command', reason: `${text} is a read-only command` });
        else if (mode === 'full')
          parts.push({ kind: 'other-command', reason: `full mode runs ${text} (not read-only)` });
        else if (why.path) parts.push({ kind: 'other-command', reason: why.reason, hint: PATH_HINT });
        // The sandbox is what stands between it and the machine (auto mode runs it; other modes decide as
        // without). A path outside the workspace stays a question above: the sandbox lets commands read it.
        else if (options.sandboxed)
          parts.push({
            kind: 'sandboxed-command',
            reason: mode === 'auto' ? `auto mode runs ${text} in the sandbox (not read-only)` : why.reason,
            rule: syntax || part.argv.length === 0 ? undefined : ruleText(part.argv, part.assignments),
          });
        else
          parts.push({
            kind: 'other-command',
            reason: why.reason,
            rule: syntax || part.argv.length === 0 ? undefined : ruleText(part.argv, part.assignments),
          });
      }
    }
    findings.push(...parts);
    // Without the sandbox nothing else stands between such a command and the home directory: ask.
    if (!options.sandboxed) {
      for (const v of verdicts.filter((v) => v.tier === 'unseen')) {
        findings.push({
          kind: 'unseen-command',
          reason: `${shown} cannot be checked before it runs: ${v.reason}`,
        });
      }
    }
    const confirms = verdicts.filter((v) => v.tier === 'confirm');
    // A confirm-tier act runs without asking only when the user's allow rules name every part of the command.
    if (confirms.length > 0 && !parts.every((p) => p.kind === 'user-allowed-command')) {
      for (const v of confirms) {
        findings.push({
          kind: 'confirm-command',
          reason: `${shown} asks for confirmation in every mode: ${v.reason}`,
        });
      }
    }
    return judge(findings, options.sandboxed === true);
  }

  /** An allowed command may redirect only into the workspace (or /dev/null), never to a protected path. */
  async function redirectsInside(
    redirects: readonly { operator: string; target: string; literal: boolean }[],
  ) {
    for (const r of redirects) {
      if (/^[<>]&$/.test(r.operator) && /^(\d+|-)$/.test(r.target)) continue;
      if (r.target === '/dev/null') continue;
      if (!r.literal) return false;
      const absolute = await workspace.resolve(r.target).catch(() => undefined);
      if (!absolute || (await guarded.reason(absolute))) return false;
    }
    return true;
  }

  /** A web tool's URL: its domain in safety.web.allow_domains, or the mode's verdict on the network. */
  function decideNetwork(tool: string, url: string): PolicyDecision {
    const host = hostOf(url);
    if (host === undefined) {
      const reason = `${tool} needs an http(s) URL, not ${shorten(url)}`;
      return { decision: 'deny', reason, reasons: [reason] };
    }
    const domains = options.config?.safety.web.allow_domains ?? [];
    if (domainListed(host, domains))
      return judge([{ kind: 'network-allowed-domain', reason: `${host} is in safety.web.allow_domains` }]);
    return judge([{ kind: 'network', reason: `${tool} connects to ${host}` }]);
  }

  async function decideFileTool(request: PolicyRequest): Promise<PolicyDecision> {
    const { tool, preview } = request;
    // What a command may not name, no file tool reads either (searches skip such files). A path the call also
    // writes (an edit) is a secret write, asked below.
    const secrets = preview.reads.flatMap((absolute) => {
      if (preview.writes.includes(absolute)) return [];
      const secret = secretLocation(absolute, home);
      return secret
        ? [`${tool} would read ${workspace.relative(absolute)}, a secret location (${secret.name})`]
        : [];
    });
    if (secrets.length > 0) return judge(secrets.map((reason) => ({ kind: 'secret-read', reason })));
    if (preview.writes.length === 0) {
      if (request.safety === 'safe') return judge([{ kind: 'read', reason: `${tool} is read-only` }]);
      return judge([{ kind: 'other-tool', reason: `${tool} may change things` }]);
    }
    const findings: Finding[] = [];
    const operation = TOOL_OPERATIONS[tool] ?? 'write';
    for (const absolute of preview.writes) {
      const shown = workspace.relative(absolute);
      const guard = await guarded.reason(absolute);
      if (guard) {
        findings.push({
          kind: guard.kind === 'protected' ? 'protected-path-write' : 'secret-path-write',
          reason: `${tool} would change ${shown}, which is protected: ${guard.why}`,
        });
      }
      const stat = await fs.lstat(absolute).catch(() => undefined);
      if (operation === 'delete') {
        if (stat && !stat.isDirectory() && created.has(absolute)) {
          findings.push({
            kind: 'delete-created-file',
            reason: `${tool} deletes ${shown}, which this run created`,
          });
        } else {
          const what = stat?.isDirectory() ? 'the directory' : 'the file';
          const why = stat?.isDirectory() ? '' : ', which this run did not create';
          findings.push({ kind: 'delete-other', reason: `${tool} deletes ${what} ${shown}${why}` });
        }
      } else if (operation === 'write' && stat) {
        const what = stat.isDirectory() ? 'directory' : 'file';
        findings.push({ kind: 'edit-file', reason: `${tool} changes the existing ${what} ${shown}` });
      } else {
        findings.push({ kind: 'create-file', reason: `${tool} creates ${shown}` });
      }
    }
    return judge(findings);
  }

  return {
    mode,
    async decide(request: PolicyRequest): Promise<PolicyDecision> {
      if (request.tool === COMMAND_TOOL || request.preview.command !== undefined) {
        const command = request.preview.command ?? commandOf(request.args);
        if (command === undefined) {
          const reason = `${COMMAND_TOOL} needs a "command" string`;
          return { decision: 'deny', reason, reasons: [reason] };
        }
        return decideCommand(command);
      }
      if (request.preview.url !== undefined) return decideNetwork(request.tool, request.preview.url);
      return decideFileTool(request);
    },
    record(request, outcome) {
      if (!outcome.success) return;
      const operation = TOOL_OPERATIONS[request.tool];
      const [absolute] = request.preview.writes;
      if (absolute === undefined) return;
      if (operation === 'write' && outcome.metadata.created === true) created.add(absolute);
      if (operation === 'delete') created.delete(absolute);
    },
  };
}
