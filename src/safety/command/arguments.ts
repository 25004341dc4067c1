// The arguments of one invocation as its program reads them (argument-rules.ts through options.ts): the operands,
// and each option's value with what the program does with it (writes it, reads it, reads a file after `@`, text).
import type { ArgumentRules } from './argument-rules.js';
import { type OptionSyntax, parseOptions } from './options.js';
import type { Word } from './paths.js';

export type ValueKind = 'text' | 'write' | 'path' | 'atFile';

export interface OptionValue {
  name: string;
  /** Undefined for an option the rules do not know (`--x=value`). */
  kind: ValueKind | undefined;
  word: Word;
}

export interface ReadArguments {
  /** Operands, a subcommand left out (`git log x` → x). */
  operands: Word[];
  values: OptionValue[];
  /** Option words of which no part was read as a value (`-o/x` when the rules do not know `-o`). */
  bare: Word[];
}

const lists = (r: ArgumentRules): string[] => [
  ...(r.text ?? []),
  ...(r.writes ?? []),
  ...(r.paths ?? []),
  ...(r.atFiles ?? []),
];

/** How the rules' program reads its options. */
export function syntaxOf(rules: ArgumentRules): OptionSyntax {
  const optional = rules.optional ?? [];
  const paths = [...(rules.writes ?? []), ...(rules.paths ?? [])];
  return {
    valued: lists(rules).filter((o) => !optional.includes(o)),
    optional,
    // A pattern option's value is code or a pattern (`sed --expr=…` is `--expression`): never misread as an operand.
    abbreviated: [...paths, ...(rules.patternOptions ?? [])].filter((o) => o.startsWith('--')),
    style: rules.style,
    oldStyle: rules.oldStyle,
  };
}

function kindOf(name: string, rules: ArgumentRules): ValueKind | undefined {
  if (rules.writes?.includes(name)) return 'write';
  if (rules.paths?.includes(name)) return 'path';
  if (rules.atFiles?.includes(name)) return 'atFile';
  if (rules.text?.includes(name) || rules.optional?.includes(name)) return 'text';
  return undefined;
}

/** The rules after a subcommand: the program's own, each option the subcommand names taking its meaning there. */
function withSubcommand(base: ArgumentRules, sub: ArgumentRules | undefined): ArgumentRules {
  if (!sub) return { ...base, globals: undefined, subcommands: undefined };
  const own = new Set([...lists(sub), ...(sub.optional ?? [])]);
  const keep = (list: readonly string[] | undefined) => (list ?? []).filter((o) => !own.has(o));
  return {
    ...base,
    globals: undefined,
    subcommands: undefined,
    text: [...keep(base.text), ...(sub.text ?? [])],
    writes: [...keep(base.writes), ...(sub.writes ?? [])],
    paths: [...keep(base.paths), ...(sub.paths ?? [])],
    atFiles: [...keep(base.atFiles), ...(sub.atFiles ?? [])],
    optional: [...keep(base.optional), ...(sub.optional ?? [])],
  };
}

function read(args: readonly Word[], rules: ArgumentRules, into: ReadArguments): void {
  const parsed = parseOptions(
    args.map((w) => w.text),
    syntaxOf(rules),
  );
  const valueWords = new Set<number>();
  for (const option of parsed.options) {
    if (option.at === undefined || option.value === undefined) continue;
    valueWords.add(option.at);
    const source = args[option.at] as Word;
    const word = option.attached ? { ...source, text: option.value } : source;
    into.values.push({ name: option.name, kind: kindOf(option.name, rules), word });
  }
  const operands = new Set(parsed.operands);
  for (const [i, w] of args.entries()) {
    if (operands.has(i)) into.operands.push(w);
    else if (!valueWords.has(i) && w.text !== '--') into.bare.push(w);
  }
}

/** Reads `args` (the words after the program) by the program's rules; a subcommand's own rules apply after it. */
export function readArguments(args: readonly Word[], rules: ArgumentRules): ReadArguments {
  const found: ReadArguments = { operands: [], values: [], bare: [] };
  if (!rules.globals) {
    read(args, rules, found);
    return found;
  }
  const texts = args.map((w) => w.text);
  const sub = parseOptions(texts, syntaxOf(rules.globals)).operands[0] ?? args.length;
  read(args.slice(0, sub), rules.globals, found);
  const name = texts[sub];
  const own = name !== undefined && rules.subcommands && Object.hasOwn(rules.subcommands, name);
  read(args.slice(sub + 1), withSubcommand(rules, own ? rules.subcommands?.[name] : undefined), found);
  return found;
}

/** The file a value names after `@` or `=<` (`@file`, `name=@file;type=x`, `name@file`), or undefined. */
export function atFile(value: string): string | undefined {
  const match =
    /^@(.+)$/s.exec(value) ?? /^[^=@<]*=[@<]([^;]+)/s.exec(value) ?? /^[\w.-]+@(.+)$/s.exec(value);
  return match?.[1];
}
