// keel init's request: the three analyses in one message asking for a concise AGENTS.md (or a refresh of the
// existing one that keeps the user's own sections), and the model's answer turned back into the file.

export const AGENTS_FILE = 'AGENTS.md';

/** The guidance file should stay short: every agent that reads it pays for it on every request. */
export const TARGET_LINES = 120;

export const INIT_SYSTEM_PROMPT = [
  'You write AGENTS.md, the file coding agents read first to work on a repository:',
  'what the project is, how to build, test and lint it, its code style and conventions, its layout, and the gotchas.',
  'State only what the analysis or the existing file supports; never invent commands, paths or tools.',
  'Reply with the complete Markdown content of the file and nothing else: no preamble, no code fence around it.',
].join(' ');

export interface InitAnalyses {
  projectType: string;
  conventions: string;
  overview: string;
}

export function initPrompt(analyses: InitAnalyses, existing: string | undefined): string {
  const task =
    existing === undefined
      ? `Write AGENTS.md for this project from the analysis below.`
      : `Update the existing AGENTS.md (shown at the end) from the analysis below. Keep the user's own sections and wording wherever they are still true; correct what the analysis contradicts, add what is missing, and keep the order of the existing sections.`;
  return [
    task,
    `Sections: Overview (two or three sentences), Build and test (the exact commands), Code style and conventions, Project layout, Gotchas (only real ones). Stay under ${TARGET_LINES} lines; prefer short bullet points.`,
    '',
    '## Project type (detect_project_type)',
    analyses.projectType,
    '',
    '## Conventions (extract_conventions)',
    analyses.conventions,
    '',
    '## Overview (get_project_overview)',
    analyses.overview,
    ...(existing === undefined ? [] : ['', '## The existing AGENTS.md', '<<<', existing.trimEnd(), '>>>']),
  ].join('\n');
}

/** The file's content from the answer: an outer code fence some models add anyway is removed; one final newline. */
export function agentsFileContent(answer: string): string {
  let text = answer.trim();
  const fenced = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(text);
  if (fenced) text = fenced[1]!.trim();
  return text === '' ? '' : `${text}\n`;
}

/** Lines added and removed in a unified diff (fileChangeDiff's): the lines after the first hunk header. */
export function diffCounts(diff: string): { added: number; removed: number } {
  const lines = diff.split('\n');
  const body = lines.slice(
    Math.max(
      0,
      lines.findIndex((l) => l.startsWith('@@')),
    ),
  );
  return {
    added: body.filter((l) => l.startsWith('+')).length,
    removed: body.filter((l) => l.startsWith('-')).length,
  };
}
