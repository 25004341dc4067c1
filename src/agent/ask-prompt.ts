// The system prompt of `keel ask`: a terminal assistant's few lines, not the coding agent's rules.

export interface AskPromptOptions {
  directory: string;
  /** --tools: the read-only tools are offered. */
  tools: boolean;
  platform?: string;
  shell?: string;
}

export function askSystemPrompt(options: AskPromptOptions): string {
  const lines = [
    "You are Keel, answering one question in the user's terminal.",
    'Answer directly and briefly in Markdown; put code and commands in fenced code blocks tagged with their language.',
    'Input piped to keel comes with the question between <stdin> tags: base the answer on it.',
    `Working directory: ${options.directory}. Platform: ${options.platform ?? process.platform}, shell: ${options.shell ?? 'unknown'}.`,
  ];
  if (options.tools) {
    lines.push(
      'You may use the read-only tools to look at files under the working directory; read them rather than guess.',
    );
  }
  return lines.join('\n');
}
