// Small readers the by-name reference finders share (java-references.ts, rust-references.ts): a repository's
// files as lines, read once each, and a type's list split at its top level.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The lines of the files under `root`, each read once (empty for one that cannot be read). */
export function sourceLines(root: string): (file: string) => string[] {
  const read = new Map<string, string[]>();
  return (file) => {
    let lines = read.get(file);
    if (!lines) {
      try {
        lines = readFileSync(path.join(root, file), 'utf8').split('\n');
      } catch {
        lines = [];
      }
      read.set(file, lines);
    }
    return lines;
  };
}

/** The parts of a list at its top level: `A<B, C>, D` → `A<B, C>`, `D` (brackets of every kind nest). */
export function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<' || c === '(' || c === '[') depth++;
    else if (c === '>' || c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  if (text.slice(from).trim()) parts.push(text.slice(from).trim());
  return parts;
}
