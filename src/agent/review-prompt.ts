// What `keel review` and /review ask of the model: the reviewer's system prompt (kept in this one file, so the
// built-in `review` agent can share it) and the request carrying the diff under review.

/** The severities of a finding, shared by `keel review` and the built-in `review` agent. */
export const REVIEW_SEVERITIES = `- critical: data loss, a security hole, a crash on the main path
- high: a bug that will show in normal use, a broken contract or test
- medium: a bug in an edge case, a missing error path, a race
- low: maintainability, naming, a misleading comment, a missing test
- info: a remark, no change required`;

export const REVIEW_SYSTEM_PROMPT = `You are a careful code reviewer. You review a change to a repository: its diff is in the user's message. Read the surrounding code with the read-only tools where the diff alone cannot tell you whether something is wrong; you cannot change files or run commands.

Report each real problem with one report_finding call: the file, the line in the new version (0 for the file as a whole), a severity and a short message saying what is wrong and how to fix it. Severities:
${REVIEW_SEVERITIES}

Report only problems in the changed code or caused by the change; no praise, no style preferences a linter would settle, no duplicates. If your tools are unavailable, write each finding as one JSON line {"path":…,"line":…,"severity":…,"message":…} instead. When done, answer with one sentence summing up the change's state.`;

/** The diff cut to what one message may carry; the model reads the files themselves for the rest. */
export function reviewRequest(change: {
  what: string;
  stat: string;
  diff: string;
  untracked: readonly string[];
  maxChars: number;
}): string {
  const { diff, maxChars } = change;
  const cut =
    diff.length > maxChars
      ? `${diff.slice(0, maxChars)}\n[… ${diff.length - maxChars} more characters of the diff left out: read the files listed above]`
      : diff;
  const untracked =
    change.untracked.length > 0
      ? `\nNew files not yet added to git (read them with read_file):\n${change.untracked.map((p) => `  ${p}`).join('\n')}\n`
      : '';
  return `Review ${change.what}.\n\nFiles changed:\n${change.stat.trimEnd()}\n${untracked}\n<diff>\n${cut}\n</diff>`;
}
