// The repository map: a signatures-only skeleton of the most important files, cut to a token budget.
import type { CodeIndex } from './code-index.js';
import { rankFiles } from './rank.js';
import type { FileTags } from './tags.js';

/** Rough tokens of text, as the conversation budget counts them. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

export interface RepoMap {
  text: string;
  shown: number;
  total: number;
}

/** One file's block: its path, then each definition's line number and signature, members under their class. */
export function renderFile(path: string, tags: FileTags): string {
  const lines = [`${path}:`];
  for (const def of tags.definitions) {
    const indent = def.container ? '    ' : '  ';
    lines.push(`${indent}${String(def.line).padStart(4)}│ ${def.signature}`);
  }
  return lines.join('\n');
}

export function buildRepoMap(index: CodeIndex, maxTokens: number, mentions: string): RepoMap {
  const ranked = rankFiles(index, { mentions });
  const blocks: string[] = [];
  let used = 0;
  for (const { path } of ranked) {
    const tags = index.files.get(path)!;
    if (tags.definitions.length === 0) continue;
    const block = renderFile(path, tags);
    const cost = estimateTokens(block) + 1;
    if (used + cost > maxTokens) {
      // A large file's block may not fit while smaller ones further down still do.
      if (maxTokens - used < 20) break;
      continue;
    }
    blocks.push(block);
    used += cost;
  }
  const total = [...index.files.values()].filter((t) => t.definitions.length > 0).length;
  const rest = total - blocks.length;
  if (rest > 0) blocks.push(`(${rest} more files with definitions not shown; raise max_tokens or set focus)`);
  return { text: blocks.join('\n'), shown: total - rest, total };
}
