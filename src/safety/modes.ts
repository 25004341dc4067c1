// The modes table, as data: what each execution mode does with each kind of action. The policy reads it,
// `keel policy show` prints it, the README copies it.

export type ExecutionMode = 'plan' | 'interactive' | 'restricted' | 'auto' | 'full';
export type Verdict = 'allow' | 'ask' | 'deny';

export const MODES: readonly ExecutionMode[] = ['plan', 'interactive', 'restricted', 'auto', 'full'];

/** What each mode does, in one line: the chat's /mode and an editor's mode menu (ACP) show it. */
export const MODE_SUMMARY: Readonly<Record<ExecutionMode, string>> = {
  plan: 'reads and plans: no edits or commands beyond the read-only set; then you choose how to execute',
  interactive: 'asks before edits, deletes and commands beyond the read-only set',
  restricted: 'edits run; commands beyond the read-only set and your allow rules are refused',
  auto: 'edits run; other commands run in the sandbox without asking (asked where there is no sandbox)',
  full: 'edits and commands run without asking, in the sandbox where bubblewrap works (the confirm tier and protected files still ask)',
};

/**
 * The chat's Shift+Tab order, least to most autonomous, then round again: from auto (the default) the first
 * press asks more, never less (plan: nothing changes). Full is left out: it runs any command unsandboxed, so it
 * is only chosen by name.
 */
export const CYCLE: readonly ExecutionMode[] = ['plan', 'interactive', 'restricted', 'auto'];

/**
 * Plan mode reads and plans, nothing else: reads and read-only commands run, network reads are asked as in
 * interactive mode, everything else is refused. A column derived from the kinds, so every new kind is refused.
 */
const PLAN_ALLOWS: ReadonlySet<string> = new Set(['read', 'read-only-command']);
const PLAN_AS_INTERACTIVE: ReadonlySet<string> = new Set(['network', 'network-allowed-domain']);
const PLAN_HINT: Hint = () => 'plan mode makes no changes: finish the plan, then execute it in another mode';
const PLAN_NETWORK_HINT: Hint = (w) => `add the domain to safety.web.allow_domains, or ${w.approve()}`;

/**
 * How whoever runs Keel lets it do more, in the words of the entry point: the command line's flags and chat, or a
 * program's options (the library's, api/agent.ts). Every hint is written with them.
 */
export interface HintWords {
  /** Choosing one of these modes ("auto, restricted or full"). */
  mode(modes: string): string;
  /** Allowing exactly these commands for the run. */
  allow(rules: readonly string[]): string;
  /** Answering the question, in one of these modes when given. */
  approve(modes?: string): string;
}

export const CLI_WORDS: HintWords = {
  mode: (modes) => `use --mode ${modes}`,
  allow: (rules) => `pass ${rules.map((rule) => `--allow ${JSON.stringify(rule)}`).join(' ')}`,
  approve: (modes) => `approve it in keel chat${modes ? ` (--mode ${modes})` : ''}`,
};

/** A hint in the words given ('' when the action needs none). */
export type Hint = (words: HintWords) => string;

/** How to let a refused action run: plan mode's own hint (a fetch is asked there as in interactive mode). */
export const hintOf = (kind: ActionKind, mode: ExecutionMode, words: HintWords = CLI_WORDS): string =>
  (mode !== 'plan' ? ACTIONS[kind].hint : PLAN_AS_INTERACTIVE.has(kind) ? PLAN_NETWORK_HINT : PLAN_HINT)(
    words,
  );

/** The mode after `mode` in the chat's cycle (full goes back to the start). */
export const nextMode = (mode: ExecutionMode): ExecutionMode =>
  CYCLE[(CYCLE.indexOf(mode) + 1) % CYCLE.length] ?? 'interactive';

export type ActionKind =
  | 'read'
  | 'secret-read'
  | 'read-only-command'
  | 'user-allowed-command'
  | 'user-ask-command'
  | 'user-denied-command'
  | 'other-command'
  | 'sandboxed-command'
  | 'unverifiable-command'
  | 'inline-code'
  | 'unseen-command'
  | 'confirm-command'
  | 'denied-command'
  | 'create-file'
  | 'edit-file'
  | 'delete-created-file'
  | 'delete-other'
  | 'protected-path-write'
  | 'secret-path-write'
  | 'other-tool'
  | 'network'
  | 'network-allowed-domain';

export interface ActionRow {
  /** What the action is, for people. (Plan mode's column is derived: see verdictOf.) */
  label: string;
  interactive: Verdict;
  restricted: Verdict;
  auto: Verdict;
  full: Verdict;
  /** How to let the action run when it is refused (or asked where nobody can answer). */
  hint: Hint;
}

const NONE: Hint = () => '';
const ruleHint = (w: HintWords) => `add it to safety.commands.allow or ${w.allow(['<rule>'])}`;

export const ACTIONS: Readonly<Record<ActionKind, ActionRow>> = {
  read: {
    label: 'read or list files (read-only tools)',
    interactive: 'allow',
    restricted: 'allow',
    auto: 'allow',
    full: 'allow',
    hint: NONE,
  },
  'secret-read': {
    label:
      'read a secret file with a file tool (.env, keys, ~/.ssh, ...; searches skip them), as commands may not',
    interactive: 'deny',
    restricted: 'deny',
    auto: 'deny',
    full: 'deny',
    hint: () =>
      'no rule or mode lets Keel read it: ask the user for the values you need, or use a template such as .env.example',
  },
  'read-only-command': {
    label: 'read-only command (ls, cat, grep, git status, ...)',
    interactive: 'allow',
    restricted: 'allow',
    auto: 'allow',
    full: 'allow',
    hint: NONE,
  },
  'user-allowed-command': {
    label: 'command matching safety.commands.allow or --allow',
    interactive: 'allow',
    restricted: 'allow',
    auto: 'allow',
    full: 'allow',
    hint: NONE,
  },
  'user-ask-command': {
    label: 'command matching safety.commands.ask',
    interactive: 'ask',
    restricted: 'ask',
    auto: 'ask',
    full: 'ask',
    hint: (w) => `${w.approve()}, or move the rule to safety.commands.allow`,
  },
  'user-denied-command': {
    label: 'command matching safety.commands.deny',
    interactive: 'deny',
    restricted: 'deny',
    auto: 'deny',
    full: 'deny',
    hint: () => 'remove the rule from safety.commands.deny',
  },
  'other-command': {
    label: 'any other command (in auto mode: with no sandbox, or naming paths outside the workspace)',
    interactive: 'ask',
    restricted: 'deny',
    auto: 'ask',
    full: 'allow',
    hint: (w) => `${ruleHint(w)}, or ${w.mode('full')}`,
  },
  'sandboxed-command': {
    label: 'any other command, run in the sandbox (workspace writable, no network, home secrets hidden)',
    interactive: 'ask',
    restricted: 'deny',
    auto: 'allow',
    full: 'allow',
    hint: (w) => `${ruleHint(w)}, or ${w.mode('auto')}`,
  },
  'unverifiable-command': {
    label: 'command whose program comes from an expansion, or with control characters',
    interactive: 'ask',
    restricted: 'deny',
    auto: 'deny',
    full: 'deny',
    hint: () => 'write the program name literally, without control characters',
  },
  'inline-code': {
    label: 'inline interpreter code (python3 -c, node -e, awk system()) without a sandbox',
    interactive: 'ask',
    restricted: 'deny',
    auto: 'ask',
    full: 'ask',
    hint: (w) =>
      `write the code to a file in the workspace and run that, run with a sandbox, or ${ruleHint(w)}`,
  },
  'unseen-command': {
    label:
      'command whose paths or code are known only when it runs ($(...), loop variables, xargs, tar -P, prompt expansion) without a sandbox',
    interactive: 'ask',
    restricted: 'deny',
    auto: 'ask',
    full: 'ask',
    hint: () =>
      'write the paths literally, extract archives with -C/-d into the workspace, or run commands in the sandbox (install bubblewrap)',
  },
  'confirm-command': {
    label: 'confirm-tier command (git push --force, git reset --hard, npm publish, ...)',
    interactive: 'ask',
    restricted: 'deny',
    auto: 'ask',
    full: 'ask',
    hint: (w) => `${ruleHint(w)} that matches the whole command`,
  },
  'denied-command': {
    label: 'denylisted act (recursive delete of home or /, sudo, curl | sh, ...)',
    interactive: 'deny',
    restricted: 'deny',
    auto: 'deny',
    full: 'deny',
    hint: () => 'no rule or mode lets Keel run it (the reason says what would be accepted, if anything)',
  },
  'create-file': {
    label: 'create a new file or directory',
    interactive: 'allow',
    restricted: 'allow',
    auto: 'allow',
    full: 'allow',
    hint: NONE,
  },
  'edit-file': {
    label: 'edit or overwrite an existing file (the approval shows the diff)',
    interactive: 'ask',
    restricted: 'allow',
    auto: 'allow',
    full: 'allow',
    hint: (w) => `${w.mode('auto, restricted or full')} to let edits run without asking`,
  },
  'delete-created-file': {
    label: 'delete a file this run created',
    interactive: 'ask',
    restricted: 'allow',
    auto: 'allow',
    full: 'allow',
    hint: (w) => `${w.mode('auto, restricted or full')} to let it run without asking`,
  },
  'delete-other': {
    label: 'delete a directory, or a file this run did not create',
    interactive: 'ask',
    restricted: 'deny',
    auto: 'ask',
    full: 'allow',
    hint: (w) => `${w.approve('interactive or auto')}, or ${w.mode('full')}`,
  },
  'protected-path-write': {
    label: 'write .git/, .keel.yaml, .keel/, the state dir or safety.protected_paths',
    interactive: 'ask',
    restricted: 'ask',
    auto: 'ask',
    full: 'ask',
    hint: (w) =>
      `protected paths change only with an explicit approval: ${w.approve()}, or make the change yourself`,
  },
  'secret-path-write': {
    label: 'write a secret file (.env, keys, ~/.ssh, ...)',
    interactive: 'ask',
    restricted: 'ask',
    auto: 'ask',
    full: 'ask',
    hint: (w) =>
      `secret files change only with an explicit approval: ${w.approve()}, or make the change yourself`,
  },
  'other-tool': {
    label: 'another tool that may change things (no preview of its writes)',
    interactive: 'ask',
    restricted: 'allow',
    // Never stricter than restricted: MCP and custom tools that ran headless by default still do.
    auto: 'allow',
    full: 'allow',
    hint: (w) => `${w.approve()}, or ${w.mode('restricted, auto or full')} to let it run without asking`,
  },
  network: {
    label: 'fetch a web page or search the web (public addresses only unless safety.web.allow_private)',
    interactive: 'ask',
    restricted: 'deny',
    auto: 'allow',
    full: 'allow',
    hint: (w) => `add the domain to safety.web.allow_domains, ${w.approve()}, or ${w.mode('auto')}`,
  },
  'network-allowed-domain': {
    label: 'fetch from or search through a domain in safety.web.allow_domains',
    interactive: 'allow',
    restricted: 'allow',
    auto: 'allow',
    full: 'allow',
    hint: NONE,
  },
};

/** The verdict of the modes table for one kind of action. */
export const verdictOf = (kind: ActionKind, mode: ExecutionMode): Verdict => {
  if (mode !== 'plan') return ACTIONS[kind][mode];
  if (PLAN_ALLOWS.has(kind)) return 'allow';
  return PLAN_AS_INTERACTIVE.has(kind) ? ACTIONS[kind].interactive : 'deny';
};

const RANK: Readonly<Record<Verdict, number>> = { allow: 0, ask: 1, deny: 2 };

/** The stricter of two verdicts: deny over ask over allow. */
export const stricter = (a: Verdict, b: Verdict): Verdict => (RANK[b] > RANK[a] ? b : a);
