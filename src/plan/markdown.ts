// Markdown plan files: `# Title`, `## Goal`, `## Context` and `## Steps` sections, read with the marked lexer.
import { Lexer, type Token, type Tokens } from 'marked';
import { PlanError } from '../core/errors.js';
import type { Plan, PlanContextEntry } from './plan.js';

type SectionKind = 'goal' | 'context' | 'instructions';

/** Section headings (lower case) and what they hold; any other `##` section becomes keyed context. */
const sectionKinds: Record<string, SectionKind> = {
  goal: 'goal',
  context: 'context',
  steps: 'instructions',
  instructions: 'instructions',
  tasks: 'instructions',
};

interface Section {
  heading: string;
  kind: SectionKind | 'other';
  line: number;
  tokens: Token[];
}

/** "Repository: /x" -> key and value; a colon inside a URL or a long sentence does not split. */
const keyValue = /^([^:\n]{1,40}):\s+(\S[\s\S]*)$/;

function toEntry(text: string, key?: string): PlanContextEntry {
  const trimmed = text.trim();
  if (key !== undefined) return { key, value: trimmed };
  const match = keyValue.exec(trimmed);
  return match ? { key: match[1]!.trim(), value: match[2]!.trim() } : { value: trimmed };
}

/** The text pieces of a section: one per list item, paragraph or other block. */
function pieces(tokens: readonly Token[]): string[] {
  return tokens.flatMap((token): string[] => {
    // Sub-headings only group items; they are not items themselves.
    if (['space', 'def', 'hr', 'heading'].includes(token.type)) return [];
    if (token.type === 'html' && /^\s*<!--[\s\S]*-->\s*$/.test(token.raw)) return [];
    if (token.type === 'list') return (token as Tokens.List).items.map((item) => item.text.trim());
    if (token.type === 'paragraph') return [(token as Tokens.Paragraph).text.trim()];
    return [token.raw.trim()];
  });
}

/**
 * A steps section's pieces, a ticked task item (`- [x] …`) apart: it is done, so it is context for the steps left,
 * not a step to do again.
 */
function stepPieces(tokens: readonly Token[]): { steps: string[]; done: string[] } {
  const done: string[] = [];
  const kept = tokens.map((token) => {
    if (token.type !== 'list') return token;
    const list = token as Tokens.List;
    const items = list.items.filter((item) => !(item.task && item.checked));
    done.push(...list.items.filter((item) => item.task && item.checked).map((item) => item.text.trim()));
    return { ...list, items } as Tokens.List;
  });
  return { steps: pieces(kept), done };
}

function blockText(tokens: readonly Token[]): string {
  return tokens
    .filter((token) => token.type !== 'space' && token.type !== 'def')
    .map((token) => (token.type === 'paragraph' ? (token as Tokens.Paragraph).text : token.raw).trim())
    .filter(Boolean)
    .join('\n\n');
}

function splitSections(body: string): {
  title?: string;
  titleLine?: number;
  preamble: Token[];
  sections: Section[];
} {
  let title: string | undefined;
  let titleLine: number | undefined;
  const preamble: Token[] = [];
  const sections: Section[] = [];
  let line = 1;
  for (const token of Lexer.lex(body)) {
    const heading = token.type === 'heading' ? (token as Tokens.Heading) : undefined;
    if (heading?.depth === 1 && title === undefined) {
      title = heading.text.replace(/^task:\s*/i, '').trim();
      titleLine = line;
    } else if (heading?.depth === 2) {
      const name = heading.text.trim().replace(/:$/, '');
      sections.push({ heading: name, kind: sectionKinds[name.toLowerCase()] ?? 'other', line, tokens: [] });
    } else {
      (sections.at(-1)?.tokens ?? preamble).push(token);
    }
    // Tokens' raw text covers the source exactly, so counting its newlines tracks the line.
    line += token.raw.split('\n').length - 1;
  }
  return { title, titleLine, preamble, sections };
}

export function parseMarkdownPlan(text: string, file: string): Plan {
  // marked normalises line endings the same way before lexing; doing it first keeps line counts true.
  const body = text.replace(/\r\n?/g, '\n');
  const { title, preamble, sections } = splitSections(body);

  const goals: string[] = [];
  const context: PlanContextEntry[] = pieces(preamble).map((piece) => ({ value: piece }));
  const instructions: string[] = [];
  for (const section of sections) {
    if (section.kind === 'goal') {
      const goal = blockText(section.tokens);
      if (!goal) {
        throw new PlanError(`${file} line ${section.line}: the \`## ${section.heading}\` section is empty`, {
          hint: 'write the goal as a paragraph under the heading',
        });
      }
      goals.push(goal);
    } else if (section.kind === 'context') {
      context.push(...pieces(section.tokens).map((piece) => toEntry(piece)));
    } else if (section.kind === 'instructions') {
      const { steps, done } = stepPieces(section.tokens);
      instructions.push(...steps);
      context.push(...done.map((value) => ({ key: 'Already done', value })));
    } else {
      context.push(...pieces(section.tokens).map((piece) => toEntry(piece, section.heading)));
    }
  }

  const goal = goals.length > 0 ? goals.join('\n\n') : title;
  if (!goal) {
    throw new PlanError(`${file}: no goal: add a \`## Goal\` section`, {
      hint: 'or start the file with a `# Title` heading, which is then used as the goal',
    });
  }
  return { ...(title ? { title } : {}), goal, context, instructions, file };
}
