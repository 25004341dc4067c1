// The agents Keel ships: `explore` (read-only search of the codebase) and `review` (a review of a diff, with
// `keel review`'s severities). Written as agent files are, so a project or user file of the same name replaces one.
import { REVIEW_SEVERITIES } from '../agent/review-prompt.js';
import type { AgentDefinition } from './agent-definition.js';

/** What `review` answers with: one finding a line, the form `keel review` parses. */
export const REVIEW_PROMPT = `You review a change for correctness, security and clarity; you never change files.
Read the diff you are given, or get it with read-only git commands (git diff, git diff --cached, git diff <base>...HEAD, git show, git log); read the files around each change for context.
Report each finding on its own line, exactly as:
path:line severity message
where severity is one of (as \`keel review\` reports them):
${REVIEW_SEVERITIES}
Use the line number in the new version of the file.
Report only real problems in the changed code; after the findings write one line: "summary: <one sentence>". With no findings, write only the summary line.`;

export const EXPLORE_PROMPT = `You explore the codebase to answer one question; you never change files.
Search broadly first (glob, grep, the codebase map), then read only what matters. Answer concisely with what you found: paths with line numbers, names, and how the pieces connect. Say what you could not find.`;

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: 'explore',
    description: 'read-only codebase search',
    prompt: EXPLORE_PROMPT,
    source: 'built-in',
  },
  {
    name: 'review',
    description: 'read-only review of a diff',
    // The read-only tools and commands: the git commands that show a diff are read-only in every mode.
    tools: [
      'read_file',
      'list_files',
      'grep',
      'glob',
      'search_code',
      'inspect_symbol',
      'find_references',
      'execute_command',
    ],
    prompt: REVIEW_PROMPT,
    source: 'built-in',
  },
];
