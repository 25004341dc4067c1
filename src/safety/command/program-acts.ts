// Acts of particular programs: git's program settings (`-c core.pager`, `git config --global`), containers that get
// the host (`--privileged`, mounting `/`), and signals to every process (`kill -1`, `pkill -u`).
import {
  CONTAINER_ESCAPE_FLAGS,
  CONTAINER_SOCKETS,
  GIT_EXEC_SETTINGS,
  GIT_SHELL_ALIAS,
} from './act-rules.js';
import { GLOBAL_VALUE_OPTIONS, operands } from './confirm-tier.js';
import { harmlessGitSetting } from './git-read-only.js';
import { type ActScope, hasFlag } from './invocation.js';
import { type Word, within } from './paths.js';
import { type Add, checkDestruction, checkPath, targetOf } from './targets.js';

/** A git setting that makes git run a program. */
export function gitExecSetting(key: string, value: string | undefined): boolean {
  if (GIT_SHELL_ALIAS.test(key)) return value === undefined || value.startsWith('!');
  return GIT_EXEC_SETTINGS.some((re) => re.test(key));
}

export function gitActs(args: readonly Word[], add: Add): void {
  for (const [i, w] of args.entries()) {
    const next = args[i + 1]?.text ?? '';
    const setting =
      w.text === '-c' ? next : w.text.startsWith('-c') && w.text.length > 2 ? w.text.slice(2) : '';
    const [key = '', ...rest] = setting.split('=');
    // `-c core.pager=cat` or a colour runs nothing (git-read-only.ts lists the settings).
    const harmless = setting !== '' && harmlessGitSetting(setting);
    if (setting && !harmless && gitExecSetting(key, rest.length > 0 ? rest.join('=') : undefined)) {
      add('deny', `\`git -c ${key}\` makes git run a program`);
    }
    const env = w.text === '--config-env' ? next : w.text.startsWith('--config-env=') ? w.text.slice(13) : '';
    if (env && gitExecSetting(env.split('=')[0] ?? '', undefined)) {
      add('deny', `\`git --config-env ${env}\` makes git run a program`);
    }
  }
  const texts = args.map((w) => w.text);
  const words = operands(texts, GLOBAL_VALUE_OPTIONS.git);
  if (words[0] !== 'config') return;
  const rest = words.slice(1);
  const newStyle = ['set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(rest[0] ?? '');
  const keyed = newStyle ? rest.slice(1) : rest;
  const writes =
    newStyle ||
    keyed.length >= 2 ||
    hasFlag(
      args,
      ['--add', '--unset', '--unset-all', '--replace-all', '--rename-section', '--remove-section', '--edit'],
      'e',
    );
  if (!writes) return;
  if (hasFlag(args, ['--global', '--system'])) {
    add('deny', '`git config --global` (or --system) changes the settings of every repository');
  }
  const [key = '', value] = keyed;
  if (gitExecSetting(key, value)) add('deny', `\`git config ${key}\` makes git run a program`);
}

export async function containerActs(args: readonly Word[], scope: ActScope): Promise<void> {
  const words = operands(
    args.map((w) => w.text),
    GLOBAL_VALUE_OPTIONS.docker,
  );
  const sub = words[0] === 'container' ? words[1] : words[0];
  if (sub !== 'run' && sub !== 'create') return;
  for (const [i, w] of args.entries()) {
    const joined = `${w.text}=${args[i + 1]?.text ?? ''}`;
    if (CONTAINER_ESCAPE_FLAGS.some((re) => re.test(w.text) || re.test(joined))) {
      scope.add('deny', `\`${w.text}\` gives the container the host`);
    }
    const volume = w.text === '-v' || w.text === '--volume' ? args[i + 1] : undefined;
    const inline = /^--volume=/.test(w.text) ? w.text.slice(9) : undefined;
    const mount =
      w.text === '--mount' ? args[i + 1]?.text : w.text.startsWith('--mount=') ? w.text.slice(8) : '';
    const source =
      volume?.text.split(':')[0] ??
      inline?.split(':')[0] ??
      /(?:^|,)(?:source|src)=([^,]+)/.exec(mount ?? '')?.[1];
    if (!source || !/^[/~.]/.test(source)) continue;
    const word: Word = { text: source, literal: volume?.literal ?? true, glob: false };
    const target = await targetOf(word, scope.shell);
    if (target !== 'unknown' && CONTAINER_SOCKETS.some((s) => within(s, target.real ?? target.lexical))) {
      scope.add('deny', `mounting \`${source}\` gives the container control of the host`);
    }
    checkDestruction(target, word, 'mount', false, scope.context, scope.add);
    if (target !== 'unknown') checkPath(target, scope.context, scope.add);
  }
}

export function killActs(program: string, texts: readonly string[], add: Add): void {
  if (program === 'kill') {
    let i = 0;
    if (texts[0] === '-s' || texts[0] === '-n') i = 2;
    else if (texts[0]?.startsWith('-') && texts[0] !== '--' && texts.length > 1) i = 1;
    if (texts[i] === '--') i++;
    if (texts.slice(i).includes('-1') || (texts.length === 1 && texts[0] === '-1')) {
      add('deny', '`kill -1` signals every process');
    }
    return;
  }
  const all = texts.some((t) => /^(-u|-U|--user|--uid|--euid)(=|$)/.test(t) || /^(\.|\.\*)$/.test(t));
  if (all) add('deny', `\`${program}\` kills every process of a user`);
}
