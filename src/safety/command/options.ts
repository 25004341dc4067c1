// How a program's parser splits its arguments into options, their values and operands: getopt's clusters
// (`-xvf a.tar`, `-o../x`, `--output=x`, `--output x`), gcc's options that are words of their own (`-include x`,
// `-I../inc`), find's whole-word options, and tar's old style (`tar cfC a.tar dir`). One parser for every check
// that asks which word is a value and which an operand.

/** How a program reads its options. */
export interface OptionSyntax {
  /** Options that take a value: long ones (`--output`) and short ones (`-o`, or `-include` for the prefix style). */
  readonly valued?: readonly string[];
  /** Options whose value is optional and only ever attached (`sed -i.bak`, `--backup=numbered`). */
  readonly optional?: readonly string[];
  /** Valued long options also taken by a unique abbreviation (getopt_long's `--outp=x` for `--output`). */
  readonly abbreviated?: readonly string[];
  /**
   * `getopt` (default): single letters that cluster, a value letter taking the rest of its word or the next word.
   * `prefix`: every option is a word of its own, its value attached or the next word (gcc's `-o`, `-I`, `-include`).
   * `word`: every option is a whole word, its value the next word (find's `-fprint file`).
   */
  readonly style?: 'getopt' | 'prefix' | 'word';
  /** tar's old style: a first word without a dash is a cluster whose value letters take the next words in order. */
  readonly oldStyle?: boolean;
}

/** One option as the program reads it; `at` is the index of the word holding its value. */
export interface ParsedOption {
  name: string;
  value?: string;
  at?: number;
  /** The value is part of the option's own word (`-o../x`, `--output=x`), not the next word. */
  attached?: boolean;
}

export interface ParsedArguments {
  options: ParsedOption[];
  /** Indexes of the operands: not options nor their values; every word after `--`. */
  operands: number[];
}

/** The option a long word names: itself, or the one valued option it abbreviates (getopt_long). */
function longName(name: string, syntax: OptionSyntax): string {
  if (syntax.valued?.includes(name) || name.length < 3) return name;
  const candidates = (syntax.abbreviated ?? []).filter((o) => o.startsWith(name));
  return candidates.length === 1 ? (candidates[0] as string) : name;
}

/** The option of the prefix style a word starts with, longest first (`-isystem` before `-i`). */
function prefixOption(word: string, valued: readonly string[]): string | undefined {
  return valued
    .filter((o) => !o.startsWith('--') && word.startsWith(o))
    .sort((a, b) => b.length - a.length)[0];
}

/** Splits `args` (the words after the program) the way the program's own parser does. */
export function parseOptions(args: readonly string[], syntax: OptionSyntax = {}): ParsedArguments {
  const valued = syntax.valued ?? [];
  const optional = syntax.optional ?? [];
  const style = syntax.style ?? 'getopt';
  const options: ParsedOption[] = [];
  const operands: number[] = [];
  /** Options of an old-style cluster still waiting for their value words. */
  const pending: string[] = [];
  const takeNext = (name: string, i: number): number => {
    if (i + 1 < args.length) options.push({ name, value: args[i + 1], at: i + 1 });
    else options.push({ name });
    return i + 1;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (pending.length > 0) {
      options.push({ name: pending.shift() as string, value: arg, at: i });
      continue;
    }
    if (i === 0 && syntax.oldStyle && /^[A-Za-z]+$/.test(arg)) {
      for (const letter of arg) {
        if (valued.includes(`-${letter}`)) pending.push(`-${letter}`);
        else options.push({ name: `-${letter}` });
      }
      continue;
    }
    if (arg === '--') {
      for (let j = i + 1; j < args.length; j++) operands.push(j);
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      operands.push(i);
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = longName(eq === -1 ? arg : arg.slice(0, eq), syntax);
      if (eq !== -1) options.push({ name, value: arg.slice(eq + 1), at: i, attached: true });
      else if (valued.includes(name)) i = takeNext(name, i);
      else options.push({ name });
      continue;
    }
    // A whole word naming a valued option (`-fprint`, pwsh's `-Command`) in any style.
    if (valued.includes(arg)) {
      i = takeNext(arg, i);
      continue;
    }
    if (style !== 'getopt') {
      const name = style === 'prefix' ? prefixOption(arg, valued) : undefined;
      if (name === undefined) options.push({ name: arg });
      else options.push({ name, value: arg.slice(name.length).replace(/^=/, ''), at: i, attached: true });
      continue;
    }
    // A cluster: flags until a letter that takes a value, which takes the rest of the word or the next word.
    for (let j = 1; j < arg.length; j++) {
      const name = `-${arg[j]}`;
      const rest = arg.slice(j + 1);
      if (optional.includes(name)) {
        options.push(rest === '' ? { name } : { name, value: rest, at: i, attached: true });
        break;
      }
      if (!valued.includes(name)) {
        options.push({ name });
        continue;
      }
      if (rest !== '') options.push({ name, value: rest, at: i, attached: true });
      else i = takeNext(name, i);
      break;
    }
  }
  return { options, operands };
}
