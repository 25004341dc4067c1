// The user's command rules (safety.commands.allow/ask/deny and --allow): each rule is parsed like a command
// and matched on a parsed simple command's argv, never on the raw string; a trailing `*` matches further arguments.

import { SHELLS } from './command/act-rules.js';
import { analyzeCommand, type SimpleCommand } from './command/analysis.js';
import { programName } from './command/denylist.js';
import { unwrap } from './command/unwrap-argv.js';

export type RuleKind = 'allow' | 'ask' | 'deny';

export interface CommandRule {
  kind: RuleKind;
  /** The rule as the user wrote it, for messages. */
  text: string;
  /** The words to match; `rest` when the rule ended in a bare `*`. */
  words: string[];
  rest: boolean;
  /** Leading `NAME=value` words (`CI=1 npm test`), which an allow rule needs written exactly as in the command. */
  assignments: string[];
}

export interface RuleSources {
  allow: readonly string[];
  ask: readonly string[];
  deny: readonly string[];
}

/** A rule that is not one plain command (`npm test && x`, `$(...)`) is an error the user must fix. */
export class InvalidRuleError extends Error {
  constructor(rule: string, why: string) {
    super(`command rule "${rule}" ${why}; write one command with literal words, optionally ending in *`);
    this.name = 'InvalidRuleError';
  }
}

async function parseRule(kind: RuleKind, text: string): Promise<CommandRule> {
  const analysis = await analyzeCommand(text);
  const [command, ...more] = analysis.commands;
  // Leading assignments of plain values are part of the command (`CI=1 npm test`); expansions are not.
  const issues = analysis.issues.filter((i) => i.kind !== 'assignment');
  if (!command || more.length > 0 || issues.length > 0 || command.redirects.length > 0) {
    throw new InvalidRuleError(text, 'is not a single simple command');
  }
  const last = command.argv.length - 1;
  const rest = command.globs.includes(last) && command.argv[last] === '*';
  const words = rest ? command.argv.slice(0, last) : command.argv;
  if (words.length === 0) throw new InvalidRuleError(text, 'names no program');
  if (command.globs.some((i) => i !== last || !rest)) {
    throw new InvalidRuleError(text, 'has a wildcard that is not a trailing *');
  }
  return { kind, text: text.trim(), words, rest, assignments: command.assignments };
}

/** Parses every rule once; throws InvalidRuleError naming the first bad one. */
export async function parseRules(sources: RuleSources): Promise<CommandRule[]> {
  const rules: CommandRule[] = [];
  for (const kind of ['deny', 'ask', 'allow'] as const) {
    for (const text of sources[kind]) rules.push(await parseRule(kind, text));
  }
  return rules;
}

function matches(rule: CommandRule, argv: readonly string[]): boolean {
  if (argv.length < rule.words.length || (!rule.rest && argv.length !== rule.words.length)) return false;
  return rule.words.every((word, i) => word === argv[i]);
}

/** The same argv with the program named by its basename (`/usr/bin/git` → `git`), for deny and ask rules. */
const byName = (argv: readonly string[]): string[] => [programName(argv[0]), ...argv.slice(1)];

/** The rule of `kind` matching this argv as written or by its program's basename. */
const ruleOfKind = (rules: readonly CommandRule[], kind: RuleKind, argv: readonly string[]) =>
  rules.find((r) => r.kind === kind && (matches(r, argv) || matches(r, byName(argv))));

/**
 * The deny rule, else the ask rule, that a plain command (literal words, no wrapper) falls under: what the system
 * prompt leaves out of the commands it says run without asking.
 */
export function heldBack(rules: readonly CommandRule[], argv: readonly string[]): CommandRule | undefined {
  return ruleOfKind(rules, 'deny', argv) ?? ruleOfKind(rules, 'ask', argv);
}

/** The `-c SCRIPT` of a shell, for deny and ask rules to look inside `bash -c "git push"`. */
function shellScript(argv: readonly string[]): string | undefined {
  if (!SHELLS.includes(programName(argv[0]))) return undefined;
  const flag = argv.findIndex((a, i) => i > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(a));
  return flag === -1 ? undefined : argv[flag + 1];
}

/**
 * The deny or ask rule this command falls under, looking through wrappers (`env`, `timeout`, `xargs`) and
 * `sh -c` scripts, so `timeout 5 git push` meets `deny: ["git push *"]`.
 */
async function strictRule(
  rules: readonly CommandRule[],
  kind: 'deny' | 'ask',
  argv: readonly string[],
  depth = 0,
): Promise<CommandRule | undefined> {
  for (const inner of unwrap(argv)) {
    const rule = ruleOfKind(rules, kind, inner);
    if (rule) return rule;
    const script = shellScript(inner);
    if (script !== undefined && depth < 3) {
      for (const command of (await analyzeCommand(script)).commands) {
        const found = await strictRule(rules, kind, command.argv, depth + 1);
        if (found) return found;
      }
    }
  }
  return undefined;
}

/**
 * The rule deciding one simple command: deny wins over ask, ask over allow. An allow rule matches only a fully
 * literal command exactly as written (no wrapper, no expansion, the same leading assignments in the same order):
 * what runs is what the rule names. Deny and ask rules match the words whatever the assignments.
 */
export async function ruleFor(
  rules: readonly CommandRule[],
  command: SimpleCommand,
): Promise<CommandRule | undefined> {
  if (rules.length === 0 || command.argv.length === 0) return undefined;
  const strict =
    (await strictRule(rules, 'deny', command.argv)) ?? (await strictRule(rules, 'ask', command.argv));
  if (strict) return strict;
  if (!command.literal) return undefined;
  const sameAssignments = (r: CommandRule) =>
    r.assignments.length === command.assignments.length &&
    r.assignments.every((a, i) => a === command.assignments[i]);
  return rules.find((r) => r.kind === 'allow' && sameAssignments(r) && matches(r, command.argv));
}

const quoteWord = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;

/** A rule that allows exactly this command (with its leading assignments), quoted so it parses back the same. */
export function ruleText(argv: readonly string[], assignments: readonly string[] = []): string {
  const quoteValue = (a: string) => {
    const eq = a.indexOf('=');
    return `${a.slice(0, eq + 1)}${a.slice(eq + 1) === '' ? '' : quoteWord(a.slice(eq + 1))}`;
  };
  return [...assignments.map(quoteValue), ...argv.map(quoteWord)].join(' ');
}
