// Which commands the sandbox lets write the repository's `.git`: those git itself runs. Every program of the command
// is git, or one beside it that writes nothing (cd, echo, cat, …, with no redirection to a file), and none of git's
// ways to run another program is used. Any other program — a script, a build tool, xargs — sees `.git` read-only, so
// it cannot delete or rewrite the history, which undo cannot bring back (Codex keeps `.git` read-only in its sandbox for
// the same reason); what git runs itself (hooks) is the user's, read-only in the sandbox and under the tripwire.
import { analyzeCommand, type Redirect } from '../safety/command/analysis.js';

/** Programs that may stand beside git in a command that writes `.git`: they write no file themselves. */
const BESIDE_GIT = new Set([
  'cd',
  'pwd',
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'test',
  '[',
  '[[',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
]);

/** Syntax a git command may use: a here-document or a `$(cat <<EOF …)` message, a test. */
const ALLOWED_SYNTAX = new Set(['heredoc', 'command_substitution', 'test_expression']);

/** git's ways to run another program: `submodule foreach`, `rebase --exec`, `bisect run`, `filter-branch`. */
function runsAnotherProgram(argv: readonly string[]): boolean {
  const words = new Set(argv);
  if (words.has('foreach') || words.has('filter-branch') || words.has('bisect')) return true;
  return words.has('rebase') && argv.some((word) => word === '-x' || word.startsWith('--exec'));
}

/** A redirection that writes a file: `>`, `>>`, `&>` … to anything but /dev/null or another descriptor (`2>&1`). */
const writesFile = (redirect: Redirect): boolean =>
  redirect.operator.includes('>') && redirect.target !== '/dev/null' && !/^(\d+|-)$/.test(redirect.target);

/** True when the sandbox may let `command` write `.git`: git runs it, and nothing else could write there. */
export async function gitMayWrite(command: string): Promise<boolean> {
  let analysis: Awaited<ReturnType<typeof analyzeCommand>>;
  try {
    analysis = await analyzeCommand(command);
  } catch {
    return false;
  }
  if (analysis.issues.some((issue) => !ALLOWED_SYNTAX.has(issue.kind))) return false;
  let git = false;
  for (const simple of analysis.commands) {
    const program = simple.argv[0];
    if (program === undefined || simple.nonLiteral.includes(0)) return false;
    if (simple.assignments.length > 0) return false;
    if (simple.redirects.some(writesFile)) return false;
    if (program === 'git') {
      if (runsAnotherProgram(simple.argv)) return false;
      git = true;
    } else if (!BESIDE_GIT.has(program)) return false;
  }
  return git;
}
