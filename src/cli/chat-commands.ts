// The chat's slash commands as a table: name, arguments, what it does, and its handler. Which one a `/name` means,
// prompt commands (custom command files, MCP prompts) beside them, and /help: chat-command-names.ts.
import { resolve } from 'node:path';
import { providerNames } from '../config/provider-schema.js';
import type { KeptApprovals } from '../safety/kept-approvals.js';
import { CYCLE, type ExecutionMode, MODE_SUMMARY, MODES } from '../safety/modes.js';
import { exportFormatOf, writeExport } from '../session/export-file.js';
import { readSession } from '../session/session-file.js';
import { taskRuns } from '../session/subagent-runs.js';
import type { ChatGit, ChatGitContext } from './chat-git.js';

/** What a command may do to the chat; chat.ts implements it. */
export interface ChatContext {
  /** Notes for the user (stderr). */
  note(text: string): void;
  /** Output the user asked for (stdout). */
  print(text: string): void;
  /** Runs `work` as the current turn: Ctrl-C aborts its signal, the spinner shows `label`. */
  busy<T>(label: string, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Sends a user message to the model and runs the turn. */
  send(message: string): Promise<void>;
  /** Starts a new agent: a new session, another model or mode (the conversation goes on), or a saved session. */
  restart(change: { model?: string; mode?: ExecutionMode; resume?: string }): Promise<void>;
  /** Ends the chat after this command. */
  exit(): void;
  help(): string;
  cost(): string;
  lastOutput(): { tool: string; content: string } | undefined;
  /** false: nothing to compact yet. */
  compact?: (focus: string | undefined, signal: AbortSignal) => Promise<boolean>;
  /** The current model, `provider/model`. */
  modelName(): string;
  /**
   * What `/model <arg>` checks first (the provider's key, the model's name): undefined to stay on the current model
   * (why already said), else what the line naming the new model adds ('' for nothing).
   */
  checkModel(arg: string): Promise<string | undefined>;
  /** The execution mode in force, and whether commands run in the sandbox. */
  mode(): ExecutionMode;
  sandboxed(): boolean;
  /** Prints the status line (the mode first). */
  status(): void;
  /** The workspace's kept approvals (`A`), for /permissions. */
  kept(): KeptApprovals | undefined;
  /** The current session's file, undefined under --no-session. */
  sessionFile(): string | undefined;
  /** /undo: the last turn's files and the turn itself taken back. */
  undo(): Promise<void>;
  /** /rewind [<n> [--files]]: back to before one of the user's messages. */
  rewind(args: string): Promise<void>;
  /** Records a file Keel wrote for the user (/save), which undo and rewind then leave alone. */
  wroteForUser(file: string): Promise<void>;
  /** What /commit, /review and /fork work on (chat-git.ts, loaded when first used); undefined before the agent starts. */
  gitContext(): ChatGitContext | undefined;
  /** The same work as the matching keel subcommand (undo, init, sessions list, models, sessions export). */
  subcommand: {
    undo(): Promise<number>;
    init(): Promise<number>;
    sessions(): Promise<number>;
    models(): Promise<number>;
  };
}

export interface ChatCommand {
  name: string;
  /** How its arguments read in /help, e.g. `<id>` or `[focus]`. */
  args?: string;
  description: string;
  /** Runs at once, even before the chat's run is assembled: it needs nothing of it (others wait for it). */
  anytime?: true;
  run(args: string, chat: ChatContext): Promise<void> | void;
}

export const CHAT_COMMANDS: readonly ChatCommand[] = [
  {
    name: 'help',
    description: 'list commands and keys',
    anytime: true,
    run: (_, chat) => chat.print(chat.help()),
  },
  {
    name: 'clear',
    description: 'start a new session (the conversation so far stays saved)',
    run: async (_, chat) => {
      await chat.restart({});
      chat.note('new session started\n');
    },
  },
  {
    name: 'sessions',
    description: "list this workspace's saved sessions",
    run: async (_, chat) => void (await chat.subcommand.sessions()),
  },
  {
    name: 'resume',
    args: '<id>',
    description: 'continue a saved session (an id or a prefix of one)',
    run: async (args, chat) => {
      if (!args) return chat.note('usage: /resume <id> (see /sessions)\n');
      await chat.restart({ resume: args });
    },
  },
  {
    name: 'compact',
    args: '[focus]',
    description: 'replace the conversation by a summary (what to keep in focus, optionally)',
    run: async (args, chat) => {
      const compact = chat.compact;
      if (!compact) return chat.note('compaction is unavailable in this build\n');
      const compacted = await chat.busy('compacting', (signal) => compact(args || undefined, signal));
      if (!compacted) chat.note('nothing to compact yet: the conversation is empty\n');
    },
  },
  {
    name: 'model',
    args: '[name]',
    description:
      'show the model and the ones available, or switch to another (provider/model: another provider) for the next turns',
    run: async (args, chat) => {
      if (!args) {
        chat.note(`current model: ${chat.modelName()}\n`);
        await chat.subcommand.models();
        return;
      }
      const checked = await chat.checkModel(args);
      if (checked === undefined) return;
      await chat.restart({ model: args });
      chat.note(`model: ${chat.modelName()}${checked}\n`);
    },
  },
  {
    name: 'mode',
    args: '[name]',
    description: 'show the execution mode and the others, or switch to one (Shift+Tab cycles)',
    run: (args, chat) => switchMode(args, chat),
  },
  {
    name: 'plan',
    description: 'plan mode: read and plan, change nothing (/mode <name> to execute)',
    run: (_, chat) => switchMode('plan', chat),
  },
  {
    name: 'permissions',
    args: '[rm <n>]',
    description: 'list the approvals kept for this workspace (A), or remove one',
    run: (args, chat) => permissions(args, chat),
  },
  {
    name: 'cost',
    description: 'tokens in and out per turn and for the session, and cost',
    run: (_, chat) => chat.print(chat.cost()),
  },
  {
    name: 'output',
    description: "show the last tool call's whole output",
    run: (_, chat) => {
      const last = chat.lastOutput();
      if (!last) return chat.note('no tool has run yet\n');
      chat.note(`output of ${last.tool}:\n`);
      chat.print(`${last.content.replace(/\n$/, '')}\n`);
    },
  },
  {
    name: 'tasks',
    args: '[n]',
    description: "list this chat's sub-agent tasks, or show all that task n did",
    run: (args, chat) => showTasks(args, chat),
  },
  {
    name: 'save',
    args: '<file>',
    description: 'export the session: .md, .html or .json by the extension',
    run: (args, chat) => saveSession(args, chat),
  },
  {
    name: 'undo',
    description: 'take back the last turn: its file changes and its place in the conversation',
    run: (_, chat) => chat.undo(),
  },
  {
    name: 'rewind',
    args: '[<n> [--files]]',
    description:
      'go back to before one of your messages: the conversation, and the files with --files (also Esc Esc)',
    run: (args, chat) => chat.rewind(args),
  },
  {
    name: 'commit',
    args: '[--yes] [--all] [paths…]',
    description: 'commit the staged changes, else what Keel changed in this session, with a drafted message',
    run: (args, chat) => gitCommand(chat, 'commit', args),
  },
  {
    name: 'review',
    args: '[--base <ref>] [paths…]',
    description: 'review the uncommitted diff (or the branch since --base) for problems',
    run: (args, chat) => gitCommand(chat, 'review', args),
  },
  {
    name: 'diff',
    args: '[paths…]',
    description: "the uncommitted changes: git's diff against HEAD, and the new files",
    run: (args, chat) => gitCommand(chat, 'diff', args),
  },
  {
    name: 'fork',
    args: '[n]',
    description: 'start a new saved session from this one, up to your message n (default: all)',
    run: (args, chat) => gitCommand(chat, 'fork', args),
  },
  {
    name: 'init',
    description: 'write or update AGENTS.md from an analysis of the project (keel init)',
    run: async (_, chat) => void (await chat.subcommand.init()),
  },
  { name: 'exit', description: 'leave the chat (also Ctrl-D)', anytime: true, run: (_, chat) => chat.exit() },
];

/** /commit, /review and /fork: their module loads only when one is used. */
async function gitCommand(chat: ChatContext, command: keyof ChatGit, args: string): Promise<void> {
  const context = chat.gitContext();
  if (context) await (await import('./chat-git.js')).chatGit(context)[command](args);
}

async function switchMode(args: string, chat: ChatContext): Promise<void> {
  const current = chat.mode();
  if (!args) {
    const lines = MODES.map((m) => `${m === current ? '*' : ' '} ${m.padEnd(11)} ${MODE_SUMMARY[m]}`);
    const sandbox =
      current === 'auto' && !chat.sandboxed() ? ' (no sandbox here: commands are asked about)' : '';
    chat.note(
      `mode: ${current}${sandbox}\n${lines.join('\n')}\nShift+Tab cycles ${CYCLE.join(' → ')}; keel policy show prints the whole table\n`,
    );
    return;
  }
  const mode = MODES.find((m) => m === args.trim());
  if (!mode) return chat.note(`unknown mode ${args}: one of ${MODES.join(', ')}\n`);
  if (mode === current) return chat.note(`already in ${mode} mode\n`);
  await chat.restart({ mode });
  chat.status();
}

async function permissions(args: string, chat: ChatContext): Promise<void> {
  const kept = chat.kept();
  if (!kept) return chat.note('no approvals can be kept in this chat\n');
  const remove = /^(?:rm|remove)\s+(\S+)$/.exec(args.trim());
  if (args.trim() && !remove) return chat.note('usage: /permissions, or /permissions rm <n>\n');
  if (remove) {
    const removed = await kept.remove(Number(remove[1]));
    if (!removed) return chat.note(`no kept approval number ${remove[1]} (/permissions lists them)\n`);
    // This chat's own "a" answers are not touched: the removed one may still hold until the chat ends.
    return chat.note(`removed: ${removed.tool} ${removed.what}\n`);
  }
  const list = await kept.list();
  if (list.length === 0)
    return chat.note('no approvals kept for this workspace (answer A at an approval to keep one)\n');
  const lines = list.map(
    (a, i) => `  ${i + 1}. ${a.tool}: ${a.what} (${a.scope}; kept ${a.added.slice(0, 10)})`,
  );
  chat.note(`approvals kept for this workspace:\n${lines.join('\n')}\n/permissions rm <n> removes one\n`);
}

/** `/tasks [n]`: the chat shows a sub-agent's calls folded under its task line; this unfolds them. */
async function showTasks(args: string, chat: ChatContext): Promise<void> {
  const file = chat.sessionFile();
  if (!file) return chat.note('no tasks to show: this chat is not saved (--no-session)\n');
  const tasks = taskRuns((await readSession(file))?.events ?? []);
  if (tasks.length === 0) return chat.note('no sub-agent task has run in this chat\n');
  if (!args.trim()) {
    const list = tasks.map(
      (t, i) => `${i + 1}. ${t.description} (${t.lines.length} tool call${t.lines.length === 1 ? '' : 's'})`,
    );
    return chat.print(`${list.join('\n')}\n`);
  }
  const n = Number(args.trim());
  const task = Number.isInteger(n) ? tasks[n - 1] : undefined;
  if (!task) return chat.note(`usage: /tasks [n], n from 1 to ${tasks.length}\n`);
  chat.note(`task ${n}: ${task.description}\n`);
  chat.print(`${task.lines.length > 0 ? task.lines.join('\n') : '(no tool calls)'}\n`);
}

async function saveSession(args: string, chat: ChatContext): Promise<void> {
  if (!args) return chat.note('usage: /save <file.md|file.html|file.json>\n');
  const file = chat.sessionFile();
  if (!file) return chat.note('nothing to save: this chat is not saved (--no-session)\n');
  const format = exportFormatOf(args);
  if (!format)
    return chat.note(
      `/save writes Markdown, HTML or JSON by the extension: name a .md, .html or .json file\n`,
    );
  // The loop flushed the session at the end of the last turn: the file holds all of it.
  const record = await readSession(file);
  if (!record) return chat.note('nothing to save yet: send a message first\n');
  const target = resolve(args);
  // The exporters (and the Markdown library) load only when a session is saved.
  const { exportSession } = await import('../session/export.js');
  await writeExport(target, exportSession(record, format));
  await chat.wroteForUser(target);
  chat.note(`saved the session to ${target} (${format})\n`);
}

/** OpenRouter's model ids are `vendor/model`: on OpenRouter these prefixes name its models, not Keel's providers. */
const OPENROUTER_VENDORS = new Set(['anthropic', 'openai']);

/**
 * What `/model <arg>` switches to: `provider/model` (or a bare provider name, its configured model) another
 * provider, anything else a model of the current one.
 */
export function modelSwitch(arg: string, currentProvider: string): { provider?: string; model?: string } {
  const slash = arg.indexOf('/');
  const prefix = slash < 0 ? arg : arg.slice(0, slash);
  const isProvider = (providerNames as readonly string[]).includes(prefix);
  if (!isProvider || (slash > 0 && currentProvider === 'openrouter' && OPENROUTER_VENDORS.has(prefix)))
    return { model: arg };
  const model = slash < 0 ? '' : arg.slice(slash + 1);
  return { provider: prefix, ...(model ? { model } : {}) };
}

/** A command line split: `/resume abc` → { name: 'resume', args: 'abc' }; undefined for a message. */
export function parseCommand(line: string): { name: string; args: string } | undefined {
  const match = /^\/([\w.:-]+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return undefined;
  return { name: match[1] ?? '', args: (match[2] ?? '').trim() };
}
