// YAML text parsed with line tracking, so an error can name the line of any key or value in the file.
import { type Document, isMap, isPair, isScalar, LineCounter, parseDocument } from 'yaml';

export interface YamlSyntaxProblem {
  line: number;
  column: number;
  /** The parser's reason, without its own position and source excerpt. */
  reason: string;
}

export interface YamlSource {
  document: Document;
  lineCounter: LineCounter;
  /** Set when the text is not valid YAML; `document` is then unusable. */
  syntax?: YamlSyntaxProblem;
}

export function parseYamlSource(text: string): YamlSource {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: true });
  const error = document.errors[0];
  if (error === undefined) return { document, lineCounter };
  const position = error.linePos?.[0] ?? { line: 1, col: 1 };
  const reason = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, '');
  return { document, lineCounter, syntax: { line: position.line, column: position.col, reason } };
}

function lineAt(source: YamlSource, offset: number | undefined): number | undefined {
  return offset === undefined ? undefined : source.lineCounter.linePos(offset).line;
}

/**
 * The line of the node at `path`; with `key`, the line of that key inside the mapping at `path`.
 * Falls back to the nearest ancestor that exists, so every problem gets some line.
 */
export function lineOf(
  source: YamlSource,
  path: readonly (string | number)[],
  key?: string,
): number | undefined {
  if (key !== undefined) {
    const parent = source.document.getIn(path, true);
    if (isMap(parent)) {
      for (const pair of parent.items) {
        if (isPair(pair) && isScalar(pair.key) && String(pair.key.value) === key) {
          return lineAt(source, pair.key.range?.[0]);
        }
      }
    }
  }
  for (let depth = path.length; depth >= 0; depth--) {
    const node = source.document.getIn(path.slice(0, depth), true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (range) return lineAt(source, range[0]);
  }
  return undefined;
}

/** The line of the key naming the entry at `path` (the `max_turns:` of `agent.max_turns`). */
export function keyLineOf(source: YamlSource, path: readonly (string | number)[]): number | undefined {
  if (path.length === 0) return lineOf(source, path);
  const last = path.at(-1);
  if (typeof last === 'number') return lineOf(source, path);
  return lineOf(source, path.slice(0, -1), last);
}
