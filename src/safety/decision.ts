// A policy decision from the classified actions of one call (findings): the mode's verdicts combined, deny over ask
// over allow, the reasons that decided it, and hints naming exactly what would allow it (the rules, the mode).
import {
  type ActionKind,
  type ExecutionMode,
  type HintWords,
  hintOf,
  stricter,
  type Verdict,
  verdictOf,
} from './modes.js';

export interface PolicyDecision {
  decision: 'allow' | 'ask' | 'deny';
  /** Every reason, joined: shown to the user and, on deny, returned to the model. */
  reason: string;
  /** Each reason on its own (every part of a compound command, every path a tool writes). */
  reasons: string[];
  /** How to let the call run when it is refused or asked where nobody can answer. */
  hint?: string;
  /** The call only reads (a safe tool, a command of the read-only set): no checkpoint, runs under --dry-run. */
  readOnly?: boolean;
  /** False when an approval must not be kept beyond the chat: protected or secret paths, the confirm tier. */
  keepable?: boolean;
}

/** One classified action: its kind in the modes table, why, and a hint when the table's would not do. */
export interface Finding {
  kind: ActionKind;
  reason: string;
  hint?: string;
  /** For commands outside the read-only set: the rule that would allow this part. */
  rule?: string;
}

export const quote = (rule: string): string => JSON.stringify(rule);

/** The hint for commands the mode refuses: the rules that would allow them, named exactly. */
function ruleHint(rules: string[], mode: ExecutionMode, sandboxed: boolean, words: HintWords): string {
  // Auto mode runs such commands itself once bubblewrap works; with the sandbox it asked for a path's sake.
  const alternative =
    mode === 'full' || (mode === 'auto' && sandboxed)
      ? ''
      : mode === 'auto'
        ? ', or install bubblewrap so auto mode runs it in the sandbox'
        : sandboxed
          ? `, or ${words.mode('auto')}`
          : `, or ${words.mode('full')}`;
  if (rules.length === 0) return `no rule can allow this syntax; rewrite it as plain commands${alternative}`;
  const names = rules.map(quote).join(' and ');
  return `add ${names} to safety.commands.allow, ${words.allow(rules)}${alternative}`;
}

/** Commands outside the read-only set, which an allow rule could name. */
const isOtherCommand = (f: Finding): boolean => f.kind === 'other-command' || f.kind === 'sandboxed-command';

export function combine(
  findings: Finding[],
  mode: ExecutionMode,
  sandboxed: boolean,
  words: HintWords,
): PolicyDecision {
  if (findings.length === 0) findings.push({ kind: 'unverifiable-command', reason: 'the command is empty' });
  const verdict = findings.map((f) => verdictOf(f.kind, mode)).reduce<Verdict>(stricter, 'allow');
  // A denylisted act or a deny rule is the whole story: no rule or mode would let the command run anyway.
  const final = findings.filter((f) => f.kind === 'denied-command' || f.kind === 'user-denied-command');
  const relevant = final.length > 0 ? final : findings;
  const shown = verdict === 'allow' ? relevant : relevant.filter((f) => verdictOf(f.kind, mode) !== 'allow');
  const reasons = [...new Set(shown.map((f) => f.reason))];
  const decision: PolicyDecision = { decision: verdict, reason: reasons.join('; '), reasons };
  if (verdict === 'allow') {
    if (findings.every((f) => f.kind === 'read' || f.kind === 'read-only-command')) decision.readOnly = true;
    return decision;
  }
  const top = relevant.filter((f) => verdictOf(f.kind, mode) === verdict);
  // Parts a rule could allow (syntax no rule matches leaves `rule` unset; path problems carry their own hint).
  const rules = top.filter((f) => isOtherCommand(f) && f.hint === undefined).map((f) => f.rule);
  const hints = top.map((f) => {
    if (f.hint !== undefined) return f.hint;
    if (isOtherCommand(f))
      return ruleHint(rules.includes(undefined) ? [] : (rules as string[]), mode, sandboxed, words);
    return hintOf(f.kind, mode, words);
  });
  const hint = [...new Set(hints.filter((h) => h !== ''))].join('; ');
  if (hint) decision.hint = hint;
  const passing: ActionKind[] = ['protected-path-write', 'secret-path-write', 'confirm-command'];
  if (findings.some((f) => passing.includes(f.kind))) decision.keepable = false;
  return decision;
}
