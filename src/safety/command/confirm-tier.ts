// The confirm tier as data: commands that are asked about even in full mode (refused headless), because they
// rewrite shared history, publish, change infrastructure or throw away uncommitted work.

export interface ConfirmRule {
  /** The program and its subcommand words, matched on the leading operands: `['git', 'push']`. */
  command: readonly string[];
  /** Matches when any of these options is given (as a word or `--opt=value`)... */
  options?: readonly string[];
  /** ...or any of these letters in a short-option cluster (`-fu` has `f`)... */
  letters?: string;
  /** ...or an operand after the subcommand matches. Without any of the three, the subcommand alone matches. */
  operand?: RegExp;
  /** Never matches when one of these options is given (`git rebase --abort`). */
  unless?: readonly string[];
  why: string;
}

/** Options that take a value before the subcommand (`git -C dir push`), so the value is not taken for it. */
export const GLOBAL_VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  git: [
    '-C',
    '-c',
    '--git-dir',
    '--work-tree',
    '--namespace',
    '--config-env',
    '--exec-path',
    '--super-prefix',
  ],
  npm: ['-w', '--workspace', '--prefix', '-C'],
  pnpm: ['-C', '--dir', '-F', '--filter'],
  yarn: ['--cwd'],
  cargo: ['--manifest-path', '-Z', '--config', '--color'],
  docker: ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level'],
  podman: ['--url', '--connection', '-c'],
  kubectl: ['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server'],
  helm: ['-n', '--namespace', '--kube-context', '--kubeconfig'],
  gh: ['-R', '--repo'],
};

const DISCARDS = 'throws away uncommitted changes';
const PUBLISHES = 'publishes a package for everyone';

export const CONFIRM_RULES: readonly ConfirmRule[] = [
  {
    command: ['git', 'push'],
    options: ['--force', '--force-with-lease', '--force-if-includes', '--delete', '--mirror', '--prune'],
    letters: 'fd',
    operand: /^[+:]/,
    why: 'rewrites or deletes history on the remote',
  },
  { command: ['git', 'reset'], options: ['--hard', '--merge', '--keep'], why: DISCARDS },
  { command: ['git', 'clean'], options: ['--force'], letters: 'f', why: 'deletes untracked files' },
  {
    command: ['git', 'checkout'],
    options: ['--', '--force'],
    letters: 'f',
    operand: /^\.\/?$/,
    why: DISCARDS,
  },
  { command: ['git', 'restore'], unless: ['--staged', '-S'], why: DISCARDS },
  { command: ['git', 'switch'], options: ['--discard-changes', '--force'], letters: 'f', why: DISCARDS },
  { command: ['git', 'stash'], operand: /^(drop|clear)$/, why: 'deletes stashed work' },
  {
    command: ['git', 'branch'],
    options: ['-D'],
    letters: 'D',
    why: 'deletes a branch even if it is not merged',
  },
  {
    command: ['git', 'rebase'],
    unless: ['--abort', '--quit', '--show-current-patch'],
    why: 'rewrites commit history',
  },
  { command: ['git', 'filter-branch'], why: 'rewrites commit history' },
  { command: ['git', 'filter-repo'], why: 'rewrites commit history' },
  {
    command: ['git', 'reflog'],
    operand: /^(expire|delete)$/,
    why: 'drops the record that recovers lost commits',
  },
  { command: ['git', 'update-ref'], options: ['-d'], why: 'deletes a ref' },
  { command: ['npm', 'publish'], why: PUBLISHES },
  { command: ['npm', 'unpublish'], why: 'removes a published package' },
  { command: ['pnpm', 'publish'], why: PUBLISHES },
  { command: ['yarn', 'publish'], why: PUBLISHES },
  { command: ['yarn', 'npm', 'publish'], why: PUBLISHES },
  { command: ['cargo', 'publish'], why: PUBLISHES },
  { command: ['cargo', 'yank'], why: 'yanks a published crate' },
  { command: ['gem', 'push'], why: PUBLISHES },
  { command: ['gem', 'yank'], why: 'yanks a published gem' },
  { command: ['twine', 'upload'], why: PUBLISHES },
  { command: ['poetry', 'publish'], why: PUBLISHES },
  { command: ['uv', 'publish'], why: PUBLISHES },
  { command: ['docker', 'push'], why: 'publishes an image' },
  { command: ['docker', 'image', 'push'], why: 'publishes an image' },
  { command: ['podman', 'push'], why: 'publishes an image' },
  { command: ['terraform', 'apply'], why: 'changes real infrastructure' },
  { command: ['terraform', 'destroy'], why: 'destroys real infrastructure' },
  { command: ['tofu', 'apply'], why: 'changes real infrastructure' },
  { command: ['tofu', 'destroy'], why: 'destroys real infrastructure' },
  { command: ['kubectl', 'apply'], why: 'changes a cluster' },
  { command: ['kubectl', 'delete'], why: 'deletes cluster resources' },
  { command: ['kubectl', 'replace'], why: 'changes a cluster' },
  { command: ['helm', 'uninstall'], why: 'removes a release from a cluster' },
  { command: ['helm', 'delete'], why: 'removes a release from a cluster' },
  { command: ['gh', 'repo', 'delete'], why: 'deletes a repository' },
  { command: ['gh', 'release', 'delete'], why: 'deletes a release' },
];

/** The operands of an argument list, skipping option words and the values of the given value options. */
export function operands(args: readonly string[], valueOptions: readonly string[] = []): string[] {
  const found: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') return [...found, ...args.slice(i + 1)];
    if (valueOptions.includes(arg)) i++;
    else if (!arg.startsWith('-') || arg === '-') found.push(arg);
  }
  return found;
}

function optionGiven(args: readonly string[], options: readonly string[] = [], letters = ''): boolean {
  return args.some(
    (arg) =>
      options.includes(arg) ||
      options.some((o) => o.startsWith('--') && arg.startsWith(`${o}=`)) ||
      (/^-[A-Za-z]+$/.test(arg) && [...arg.slice(1)].some((l) => letters.includes(l))),
  );
}

/** Why the command (program name and arguments, unwrapped) is in the confirm tier, or undefined. */
export function confirmReason(program: string, args: readonly string[]): string | undefined {
  const words = operands(
    args,
    Object.hasOwn(GLOBAL_VALUE_OPTIONS, program) ? GLOBAL_VALUE_OPTIONS[program] : [],
  );
  for (const rule of CONFIRM_RULES) {
    const [name, ...sub] = rule.command;
    if (name !== program || sub.some((word, i) => words[i] !== word)) continue;
    if (optionGiven(args, rule.unless)) continue;
    const conditional = rule.options || rule.letters || rule.operand;
    const rest = words.slice(sub.length);
    const matches =
      !conditional ||
      optionGiven(args, rule.options, rule.letters) ||
      (rule.operand !== undefined && rest.some((w) => rule.operand?.test(w)));
    if (matches) return `\`${rule.command.join(' ')}\` ${rule.why}`;
  }
  return undefined;
}
