// Python's indentation rules, checked the way CPython's tokenizer does (tree-sitter's Python grammar accepts
// an unexpected indent or an unindent to no outer level without an error node): logical lines found past
// strings, comments, brackets and backslash continuations, then the INDENT/DEDENT stack.

export interface IndentProblem {
  /** 1-based. */
  line: number;
  message: string;
}

interface LogicalLine {
  line: number;
  indent: string;
  /** The line ends with `:` outside brackets, strings and comments: a block follows. */
  opensBlock: boolean;
}

/** The first physical line of each logical line, skipping blank and comment-only lines. */
function logicalLines(source: string): LogicalLine[] {
  const result: LogicalLine[] = [];
  let depth = 0;
  let quote = ''; // the open string's delimiter: ', ", ''' or """
  let continued = false;
  let current: LogicalLine | undefined;
  let last = ''; // the last significant character of the logical line so far
  const physical = source.split('\n');
  for (const [index, text] of physical.entries()) {
    const starts = depth === 0 && quote === '' && !continued;
    continued = false;
    let i = 0;
    if (starts) {
      const indent = /^[ \t\f]*/.exec(text)![0];
      const rest = text.slice(indent.length);
      if (rest === '' || rest.startsWith('#') || rest === '\r') continue;
      current = { line: index + 1, indent: indent.replace(/\f/g, ''), opensBlock: false };
      result.push(current);
      last = '';
      i = indent.length;
    }
    for (; i < text.length; i++) {
      const ch = text[i]!;
      if (quote !== '') {
        if (ch === '\\') i++;
        else if (text.startsWith(quote, i)) {
          i += quote.length - 1;
          quote = '';
          last = ch;
        }
        continue;
      }
      if (ch === '#') break;
      if (ch === '\\' && i === text.replace(/\s+$/, '').length - 1) {
        continued = true;
        break;
      }
      if (ch === '"' || ch === "'") {
        quote = text.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
        i += quote.length - 1;
        continue;
      }
      if ('([{'.includes(ch)) depth++;
      else if (')]}'.includes(ch)) depth = Math.max(0, depth - 1);
      if (!/\s/.test(ch)) last = ch;
    }
    // A one-quote string cannot run past its line (CPython reports it; it does not change indentation).
    if (quote.length === 1) quote = '';
    if (current && depth === 0 && quote === '' && !continued) current.opensBlock = last === ':';
  }
  return result;
}

/** Widths with tabs to the next multiple of 8 and of 1: CPython refuses an order that differs between the two. */
function widths(indent: string): [number, number] {
  let eight = 0;
  for (const ch of indent) eight = ch === '\t' ? (Math.floor(eight / 8) + 1) * 8 : eight + 1;
  return [eight, indent.length];
}

const compare = (a: number, b: number): number => Math.sign(a - b);

/** The indentation errors CPython would report for this source, in order (the first of each block). */
export function pythonIndentProblems(source: string): IndentProblem[] {
  const problems: IndentProblem[] = [];
  const stack: [number, number][] = [[0, 0]];
  let expectBlock = false;
  for (const logical of logicalLines(source)) {
    const width = widths(logical.indent);
    const top = stack.at(-1)!;
    const order = compare(width[0], top[0]);
    if (order !== compare(width[1], top[1])) {
      problems.push({ line: logical.line, message: 'inconsistent use of tabs and spaces in indentation' });
    } else if (order > 0) {
      if (!expectBlock) problems.push({ line: logical.line, message: 'unexpected indent' });
      stack.push(width);
    } else {
      if (expectBlock) problems.push({ line: logical.line, message: 'expected an indented block' });
      while (stack.length > 1 && width[0] < stack.at(-1)![0]) stack.pop();
      if (width[0] !== stack.at(-1)![0])
        problems.push({ line: logical.line, message: 'unindent does not match any outer indentation level' });
    }
    expectBlock = logical.opensBlock;
  }
  if (expectBlock) problems.push({ line: source.split('\n').length, message: 'expected an indented block' });
  return problems;
}
