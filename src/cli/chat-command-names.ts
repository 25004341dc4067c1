// Which command a `/name` line means in the chat: a built-in (chat-commands.ts), a prompt command (a custom command
// file, an MCP prompt) beside them, or none (with the name a typo meant); and /help, which lists them all.
import type { PromptCommand } from '../core/prompt-command.js';
import { CYCLE } from '../safety/modes.js';
import { wrapLine } from '../ui/wrap.js';
import { CHAT_COMMANDS, type ChatCommand } from './chat-commands.js';

const BUILT_IN: ReadonlySet<string> = new Set(CHAT_COMMANDS.map((c) => c.name));

/**
 * A prompt command's name in the chat. One named like a built-in (`.keel/commands/review.md`) is `<source>:<name>`
 * (`/project:review`): the built-in keeps its name, so no file a repository ships takes over `/undo` or `/review`.
 * `keel run --command`, which has no built-ins, runs the file by either name.
 */
const chatName = (prompt: PromptCommand): string =>
  BUILT_IN.has(prompt.name) ? `${prompt.source}:${prompt.name}` : prompt.name;

/** Every name a `/` completes to: the built-ins, then the prompt commands. */
export const commandNames = (prompts: readonly PromptCommand[]): string[] => [
  ...CHAT_COMMANDS.map((c) => c.name),
  ...prompts.map(chatName),
];

/**
 * What `/name` runs: a built-in, else a prompt command by its chat name (or as `<source>:<name>` whatever its name),
 * else neither, with the name a typo meant.
 */
export function findCommand(
  name: string,
  prompts: readonly PromptCommand[],
): { builtin?: ChatCommand; prompt?: PromptCommand; guess?: string } {
  const builtin = CHAT_COMMANDS.find((c) => c.name === name);
  if (builtin) return { builtin };
  const prompt =
    prompts.find((p) => chatName(p) === name) ?? prompts.find((p) => `${p.source}:${p.name}` === name);
  if (prompt) return { prompt };
  const guess = suggestCommand(name, commandNames(prompts));
  return guess ? { guess } : {};
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

/** The closest known name to a mistyped one, if close enough to be a typo (or a prefix of it). */
export function suggestCommand(name: string, names: readonly string[]): string | undefined {
  const prefixed = names.find((n) => n.startsWith(name) && name.length > 0);
  if (prefixed) return prefixed;
  let best: { name: string; d: number } | undefined;
  for (const n of names) {
    const d = distance(name.toLowerCase(), n.toLowerCase());
    if (!best || d < best.d) best = { name: n, d };
  }
  // Two edits (a swapped pair of letters) is still a typo for names of three letters or more.
  return best && best.d <= (name.length >= 3 ? 2 : 1) ? best.name : undefined;
}

/**
 * /help: the built-in commands, the prompt commands and the keys; at a terminal (`columns`), each description
 * wrapped at word boundaries under its own column.
 */
export function helpText(prompts: readonly PromptCommand[], columns?: number): string {
  const rows = CHAT_COMMANDS.map((c) => [`/${c.name}${c.args ? ` ${c.args}` : ''}`, c.description]);
  for (const p of prompts) {
    const renamed = chatName(p) !== p.name ? `; /${p.name} stays the built-in command` : '';
    const usage = `/${chatName(p)}${p.argumentHint ? ` ${p.argumentHint}` : ''}`;
    rows.push([usage, `${p.description} (${p.source}${renamed})`]);
  }
  const width = Math.max(...rows.map((r) => (r[0] ?? '').length));
  const keys = [
    ['Enter', 'send the message'],
    ['\\ at the end', 'continue the message on the next line (a paste stays one message)'],
    ['@path', "attach a file's content (Tab completes paths)"],
    ['Tab', 'complete a /command or an @path'],
    ['Shift+Tab', `next mode (${CYCLE.join(' → ')}); during a turn: once it is over`],
    ['Up / Down', 'earlier messages, also from past chats'],
    ['Esc', 'stop the turn, or turn a question down (as Ctrl-C does)'],
    ['Esc Esc', 'at an empty prompt: /rewind'],
    ['Ctrl-C', 'cancel the turn (twice: quit); at the prompt: clear the line, or quit on an empty one'],
    ['Ctrl-D', 'quit'],
  ];
  const keyWidth = Math.max(...keys.map((k) => (k[0] ?? '').length));
  const table = (pairs: string[][], first: number) =>
    pairs.map(([name, what]) => {
      const line = `  ${(name ?? '').padEnd(first)}  ${what}`;
      return columns === undefined ? line : wrapLine(line, columns, ' '.repeat(first + 4));
    });
  return ['commands:', ...table(rows, width), 'keys:', ...table(keys, keyWidth), ''].join('\n');
}
