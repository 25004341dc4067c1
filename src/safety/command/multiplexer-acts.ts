// tmux and screen run what they are given in a shell of their own, later and outside the command's process tree:
// `tmux new -d 'rm -rf ~'`, `tmux send-keys -t s 'rm -rf ~' Enter`, `screen -dm rm -rf ~`. Each command line they
// are handed is judged like the command itself; one built at run time is refused.
import { type ActScope, judgeCommandText as judge } from './invocation.js';
import type { Word } from './paths.js';

/** tmux's commands that run a shell command (their operands), each with the options taking a value. */
const TMUX_RUNNERS: Readonly<Record<string, string>> = {
  'new-session': 'cefFnstxy',
  new: 'cefFnstxy',
  'new-window': 'ceFnt',
  neww: 'ceFnt',
  'split-window': 'ceFlt',
  splitw: 'ceFlt',
  'respawn-pane': 'cet',
  respawnp: 'cet',
  'respawn-window': 'cet',
  respawnw: 'cet',
  'run-shell': 'cdt',
  run: 'cdt',
  'if-shell': 't',
  if: 't',
  'display-popup': 'bcdeEhsStTwxy',
  popup: 'bcdeEhsStTwxy',
  'pipe-pane': 't',
  pipep: 't',
};
/** send-keys types its operands into a pane's shell. */
const TMUX_TYPERS: Readonly<Record<string, string>> = { 'send-keys': 'cNt', send: 'cNt' };
/** tmux's own options before its command that take a value (`-c` runs one: judged). */
const TMUX_GLOBAL_VALUES = 'cfLST';
/** Key names send-keys presses rather than types. */
const KEY_NAME =
  /^(Enter|Escape|Space|Tab|BTab|BSpace|DC|IC|Up|Down|Left|Right|Home|End|NPage|PPage|PageUp|PageDown|F\d{1,2}|KP\w+|[CMS]-.+)$/;

/** screen's options taking a value; `-X` takes a screen command (`stuff` types text). */
const SCREEN_VALUES = 'cehpsStTX';

/** The operands after a command's options (`-dPs name`: the last letter takes the next word). */
function operands(words: readonly Word[], values: string): Word[] {
  let i = 0;
  while (i < words.length) {
    const text = words[i]!.text;
    if (text === '--') return words.slice(i + 1);
    if (!/^-[A-Za-z]+$/.test(text)) break;
    const takes = [...text.slice(1)].findIndex((letter) => values.includes(letter));
    // A value-taking letter ends the cluster: the rest of the word, or the next word, is its value.
    i += takes !== -1 && takes === text.length - 2 ? 2 : 1;
  }
  return words.slice(i);
}

export async function tmuxActs(args: readonly Word[], scope: ActScope): Promise<void> {
  let i = 0;
  // tmux's own options: `-c CMD` runs a command as a shell would.
  while (i < args.length && /^-[A-Za-z]+$/.test(args[i]!.text)) {
    const text = args[i]!.text;
    const last = text.at(-1)!;
    if (TMUX_GLOBAL_VALUES.includes(last)) {
      if (last === 'c' && args[i + 1]) await judge('tmux', [args[i + 1]!], scope);
      i += 2;
    } else i += 1;
  }
  // Commands separated by `;` (written `\;` or `';'`).
  const rest = args.slice(i);
  const commands: Word[][] = [[]];
  for (const word of rest) {
    if (word.text === ';') commands.push([]);
    else commands.at(-1)!.push(word);
  }
  for (const [name, ...words] of commands) {
    if (!name) continue;
    const runs = TMUX_RUNNERS[name.text];
    const types = TMUX_TYPERS[name.text];
    if (runs !== undefined) {
      const found = operands(words, runs);
      // if-shell's first operand is the shell test; the rest are tmux commands, not shell.
      await judge('tmux', name.text === 'if-shell' || name.text === 'if' ? found.slice(0, 1) : found, scope);
    } else if (types !== undefined) {
      const keys = operands(words, types).filter((w) => !(w.literal && KEY_NAME.test(w.text)));
      await judge(
        'tmux',
        keys.length > 0 ? [{ ...keys[0]!, text: keys.map((k) => k.text).join(' ') }] : [],
        scope,
      );
    }
  }
}

export async function screenActs(args: readonly Word[], scope: ActScope): Promise<void> {
  let i = 0;
  while (i < args.length && /^-[A-Za-z]+$/.test(args[i]!.text)) {
    const text = args[i]!.text;
    const last = text.at(-1)!;
    if (SCREEN_VALUES.includes(last)) {
      // `-X stuff 'text^M'` types the text into the session's shell.
      if (last === 'X') {
        const words = args.slice(i + 1);
        if (words[0]?.text === 'stuff' && words[1])
          await judge('screen', [{ ...words[1], text: words[1].text.replace(/\^M|\\n|\\r/g, '\n') }], scope);
        return;
      }
      i += 2;
    } else i += 1;
  }
  await judge('screen', args.slice(i), scope);
}
