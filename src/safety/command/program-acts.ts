// Acts of particular programs: git's program settings (`-c core.pager`, `git config --global`), containers that get
// the host (`--privileged`, mounting `/`), signals to every process (`kill -1`, `pkill -u`), and archive extraction
// whose members may land anywhere (`tar -P`, `unzip` without `-d`).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  CONTAINER_ESCAPE_FLAGS,
  CONTAINER_SOCKETS,
  GIT_EXEC_SETTINGS,
  GIT_REDIRECT_SETTINGS,
  GIT_SHELL_ALIAS,
  PAGER_VARIABLES,
} from './act-rules.js';
import { argumentRulesOf } from './argument-rules.js';
import { readArguments } from './arguments.js';
import { GLOBAL_VALUE_OPTIONS, operands } from './confirm-tier.js';
import { harmlessGitSetting } from './git-read-only.js';
import { type ActScope, hasFlag, operandWords, write } from './invocation.js';
import { type Word, within } from './paths.js';
import { type Add, checkDestruction, checkPath, checkWrite, targetOf } from './targets.js';

/** What a git setting makes git do that a command may not set up (run a program, read settings elsewhere), or undefined. */
export function gitSettingDanger(key: string, value: string | undefined): string | undefined {
  const runs = 'makes git run a program';
  if (GIT_SHELL_ALIAS.test(key))
    return value === undefined || value.trimStart().startsWith('!') ? runs : undefined;
  if (GIT_EXEC_SETTINGS.some((re) => re.test(key))) return runs;
  if (GIT_REDIRECT_SETTINGS.some((re) => re.test(key)))
    return 'makes git read settings or files from elsewhere, where a program can be set';
  return undefined;
}

/** `-c core.pager=cat`: a pager setting whose value is a plain pager runs nothing new. */
const harmlessSetting = (key: string, value: string | undefined): boolean =>
  value !== undefined && /^(core\.pager|pager\..+)$/i.test(key) && PAGER_VARIABLES.harmless.test(value);

/** Sections a `--rename-section` must not produce: renaming `x` to `core` turns `x.fsmonitor` into a program. */
const EXEC_SECTIONS =
  /^(core|alias|filter|diff|difftool|merge|mergetool|credential|include|includeif|extensions|pager|sequence|gpg|remote|protocol|sendemail|submodule|browser|man|web|init|uploadpack)(\.|$)/i;

/** `git config`'s options that take a value, so the value is not taken for the key. */
const CONFIG_VALUE_OPTIONS = ['-f', '--file', '--blob', '--type', '--default', '--comment', '--value'];
const CONFIG_READS = /^(--get|--get-all|--get-regexp|--get-urlmatch|-l|--list|--get-color|--get-colorbool)$/;

/** One `-c key=value` (also clone's `--config key=value`) or `--config-env key=VAR`. */
function checkSetting(setting: string, fromEnv: boolean, add: Add): void {
  const eq = setting.indexOf('=');
  const key = eq === -1 ? setting : setting.slice(0, eq);
  const value = fromEnv || eq === -1 ? undefined : setting.slice(eq + 1);
  // Colours, `core.pager=cat` (git-read-only.ts lists them) and plain pagers run nothing.
  const harmless = !fromEnv && (harmlessSetting(key, value) || harmlessGitSetting(setting));
  const danger = gitSettingDanger(key, value);
  if (!danger || harmless) return;
  add('deny', `\`git ${fromEnv ? '--config-env' : '-c'} ${key}\` ${danger}`);
}

export function gitActs(args: readonly Word[], add: Add): void {
  for (const [i, w] of args.entries()) {
    const next = args[i + 1]?.text ?? '';
    if (w.text === '-c' || w.text === '--config') checkSetting(next, false, add);
    else if (/^-c./.test(w.text)) checkSetting(w.text.slice(2), false, add);
    else if (w.text.startsWith('--config=')) checkSetting(w.text.slice(9), false, add);
    if (w.text === '--config-env') checkSetting(next, true, add);
    else if (w.text.startsWith('--config-env=')) checkSetting(w.text.slice(13), true, add);
  }
  const texts = args.map((w) => w.text);
  const sub = subcommandIndex(texts, GLOBAL_VALUE_OPTIONS.git);
  if (texts[sub] === 'config') gitConfigActs(texts.slice(sub + 1), add);
  // apply takes the patch's paths as they are written with --unsafe-paths: `../.profile`, `/etc/x`.
  const applyRest = texts.slice(sub + 1);
  const onlyReports =
    applyRest.some((t) => /^--(check|stat|numstat|summary)$/.test(t)) && !applyRest.includes('--apply');
  if (texts[sub] === 'apply' && applyRest.includes('--unsafe-paths') && !onlyReports) {
    add('deny', '`git apply --unsafe-paths` writes wherever the patch says, outside the workspace too');
  }
  // init's and clone's template directory has hooks copied into .git/hooks, where git runs them later.
  const templated = texts.slice(sub + 1).some((t) => t === '--template' || t.startsWith('--template='));
  if ((texts[sub] === 'init' || texts[sub] === 'clone') && templated) {
    add('deny', `\`git ${texts[sub]} --template\` copies hooks that git runs later into the repository`);
  }
}

/** Where the first operand (git's subcommand) is, skipping options and the values of value options. */
function subcommandIndex(texts: readonly string[], valueOptions: readonly string[] = []): number {
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i] ?? '';
    if (t === '--') return i + 1;
    if (valueOptions.includes(t)) i++;
    else if (!t.startsWith('-')) return i;
  }
  return texts.length;
}

/**
 * `git config` writing a setting that runs a program, whatever the spelling and whichever file (`--local`,
 * `--file .git/config`, `--worktree`, `git config set ...`): refused. Reading (`--get`, one key alone) is fine.
 */
function gitConfigActs(rest: readonly string[], add: Add): void {
  const words = operands(rest, CONFIG_VALUE_OPTIONS);
  const [sub = ''] = words;
  const newStyle = ['set', 'unset', 'rename-section', 'remove-section', 'edit', 'get', 'list'].includes(sub);
  if (sub === 'get' || sub === 'list' || (!newStyle && rest.some((a) => CONFIG_READS.test(a)))) return;
  if (sub === 'edit' || rest.some((a) => a === '-e' || a === '--edit')) {
    add('deny', '`git config --edit` opens the settings in an editor, where any program can be set');
    return;
  }
  const keyed = newStyle ? words.slice(1) : words;
  if (sub === 'rename-section' || rest.includes('--rename-section')) {
    if (keyed.slice(1).some((name) => EXEC_SECTIONS.test(name))) {
      add('deny', `\`git config --rename-section\` into ${keyed[1]} can make git run a program`);
    }
    return;
  }
  const unsets = sub === 'unset' || rest.some((a) => /^--(unset|unset-all)$/.test(a));
  const writes = newStyle || unsets || keyed.length >= 2 || rest.some((a) => /^--(add|replace-all)$/.test(a));
  if (!writes) return;
  if (rest.some((a) => a === '--global' || a === '--system')) {
    add('deny', '`git config --global` (or --system) changes the settings of every repository');
  }
  const [key = '', value] = keyed;
  const danger = gitSettingDanger(key, unsets ? undefined : value);
  if (danger) add('deny', `\`git config ${key}\` ${danger}`);
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

/** tar options that run a program given in the option (GTFOBins' `--checkpoint-action=exec=sh`). */
const TAR_PROGRAM_OPTIONS =
  /^(--to-command|--use-compress-program|-I|--info-script|-F|--new-volume-script|--rmt-command|--rsh-command)(=|$)|^--checkpoint-action=.*exec/;

/** Extracting into a folder of the workspace that holds a repository lets members land in its `.git`. */
const holdsRepository = (dir: string): Promise<boolean> =>
  fs.stat(path.join(dir, '.git')).then(
    () => true,
    () => false,
  );

/**
 * Extraction into folders: each is written (a protected folder such as `.git` is confirmed, a persistence point
 * refused, outside the workspace the path rule refuses); into the workspace root or a folder holding a repository,
 * members may land in `.git`, as when no folder is given: unseen.
 */
async function extractInto(program: string, folders: readonly Word[], scope: ActScope): Promise<void> {
  for (const word of folders) {
    const target = await targetOf(word, scope.shell, scope.add);
    if (target === 'unknown') continue;
    checkWrite(target, scope.context, scope.add);
    const real = target.real;
    if (real !== undefined && within(scope.context.root, real) && (await holdsRepository(real))) {
      scope.add(
        'unseen',
        `\`${program}\` extracts into \`${word.text}\`, where members may land in .git; extract into a subfolder`,
      );
    }
  }
}

/** The values the program's rules read for the given options (`-C dir`, `-Cdir`, `--directory=dir`). */
function valuesOf(program: string, args: readonly Word[], names: readonly string[]): Word[] {
  const rules = argumentRulesOf(program) ?? {};
  return readArguments(args, rules)
    .values.filter((v) => names.includes(v.name))
    .map((v) => v.word);
}

const unknownMembers = (program: string, fix: string) =>
  `\`${program}\` extracts members whose names are known only when it runs; ${fix}`;

/**
 * Extraction writes members wherever their names say: an absolute name or `..` with `tar -P`, and without an
 * explicit target directory in the workspace the analyser cannot know where. Reported as unseen (asked in full
 * mode without the sandbox); a target directory is checked as a folder written into (extractInto).
 */
export async function archiveActs(program: string, args: readonly Word[], scope: ActScope): Promise<void> {
  const texts = args.map((w) => w.text);
  if (program === 'tar' || program === 'bsdtar') {
    const bundled = /^[A-Za-z]+$/.test(texts[0] ?? '') ? (texts[0] ?? '') : '';
    const letters = (l: string) => [...l].some((c) => bundled.includes(c) || hasFlag(args, [], c));
    if (texts.some((t) => TAR_PROGRAM_OPTIONS.test(t))) {
      scope.add('unseen', `\`${program}\` runs a program named in its options`);
    }
    if (
      letters('cruA') ||
      hasFlag(args, ['--create', '--append', '--update', '--concatenate', '--catenate'])
    ) {
      await write(valuesOf(program, args, ['-f', '--file']), scope);
    }
    if (!letters('x') && !hasFlag(args, ['--extract', '--get'])) return;
    const folders = valuesOf(program, args, ['-C', '--directory']);
    if (letters('P') || hasFlag(args, ['--absolute-names'])) {
      scope.add('unseen', `\`${program} -P\` extracts members by absolute names or \`..\`, anywhere`);
    } else if (folders.length === 0) scope.add('unseen', unknownMembers(program, 'use -C <dir>'));
    return extractInto(program, folders, scope);
  }
  if (program === 'unzip') {
    const listing = hasFlag(args, [], 'lpZtvz');
    const folders = valuesOf(program, args, ['-d']);
    if (texts.includes('-:')) scope.add('unseen', '`unzip -:` extracts members with `..` anywhere');
    else if (!listing && folders.length === 0) scope.add('unseen', unknownMembers(program, 'use -d <dir>'));
    return listing ? undefined : extractInto(program, folders, scope);
  }
  if (program === 'cpio' && (hasFlag(args, ['--extract'], 'i') || texts.includes('-i'))) {
    scope.add('unseen', '`cpio -i` extracts members by absolute names or `..`, anywhere');
    return;
  }
  // pax reads an archive with -r and writes its members by their names, absolute ones included; -rw copies.
  if (program === 'pax' && hasFlag(args, [], 'r')) {
    if (hasFlag(args, [], 'w')) return write(operandWords(args, PAX_VALUE_OPTIONS).slice(-1), scope);
    scope.add('unseen', '`pax -r` extracts members by the names in the archive, absolute ones too');
    return;
  }
  const jarExtracts = /^-?[A-Za-z]*x/.test(texts[0] ?? '') || texts.includes('--extract');
  const rarExtracts =
    /^(unrar|rar)$/.test(program) && /^(x|e)$/.test(texts.find((t) => !t.startsWith('-')) ?? '');
  if ((program === 'jar' && jarExtracts) || rarExtracts) {
    scope.add('unseen', unknownMembers(program, 'list it first, or extract with tar -C or unzip -d'));
    return;
  }
  if (/^7z[az]?$/.test(program) && /^[ex]$/.test(texts[0] ?? '')) {
    const out = args.find((w) => w.text.startsWith('-o'));
    if (!out) scope.add('unseen', unknownMembers(program, 'use -o<dir>'));
    else {
      const word: Word = { text: out.text.slice(2), literal: out.literal, glob: false };
      const target = await targetOf(word, scope.shell, scope.add);
      if (target !== 'unknown') checkPath(target, scope.context, scope.add);
      await extractInto(program, [word], scope);
    }
  }
}

/** pax's options that take a value, so a value is not taken for the copy's destination. */
const PAX_VALUE_OPTIONS = ['-f', '-s', '-o', '-x', '-b', '-B', '-G', '-T', '-U', '-p'];
