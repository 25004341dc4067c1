// Whether a user's message asks for files to be written or changed, whatever else it asks ("find all TODOs and
// write tasks.md", "summarise README.md into SUMMARY.md", "review and fix"): the intent classifier then reads it as
// work, never as a question whose steering note would tell the model to change nothing. Words are data; where a
// message could be read either way, it counts as asking for a change (no "change nothing" note is the safe error).
import { bareWord, isPath } from './entities.js';

/** Verbs that ask for a change when they open a clause ("write tasks.md", "…, and fix it", "then refactor"). */
export const CHANGE_VERBS: readonly string[] = [
  'write',
  'rewrite',
  'write up',
  'create',
  'generate',
  'regenerate',
  'produce',
  'save',
  'store',
  'put',
  'dump',
  'export',
  'output',
  'record',
  'add',
  'append',
  'insert',
  'build',
  'scaffold',
  'draft',
  'document',
  'fill in',
  'update',
  'edit',
  'modify',
  'change',
  'alter',
  'adjust',
  'fix',
  'patch',
  'repair',
  'correct',
  'address',
  'refactor',
  'rework',
  'restructure',
  'reorganize',
  'reorganise',
  'simplify',
  'clean up',
  'tidy',
  'deduplicate',
  'optimize',
  'optimise',
  'improve',
  'rename',
  'move',
  'delete',
  'remove',
  'drop',
  'replace',
  'revert',
  'merge',
  'combine',
  'split',
  'implement',
  'introduce',
  'apply',
  'convert',
  'migrate',
  'port',
  'upgrade',
  'bump',
  'format',
  'reformat',
  'set up',
  'configure',
  'install',
  'enable',
  'disable',
  'wire up',
  'hook up',
  'integrate',
  'annotate',
  'commit',
];

/** Verbs that ask for a file only with a target: "list the deps into deps.txt", "summarize it to NOTES.md". */
const OUTPUT_VERBS = [
  'list',
  'report',
  'summarize',
  'summarise',
  'collect',
  'gather',
  'print',
  'copy',
  'compile',
];

/** What may stand between a clause's start and its verb: "please", "then", "can you", "I'd like you to". */
const LEADS = [
  String.raw`(?:(?:please|pls|kindly|now|also|then|just|first|finally|lastly|next|so|ok|okay|and|afterwards)\s*,?\s+)*`,
  String.raw`(?:(?:(?:can|could|would|will) you(?: please)?|i(?:'d| would)? (?:like|want|need)(?: you)? to|help me|let'?s|let us|go ahead and|try to|feel free to|be sure to|make sure to|you (?:should|must|can|need to)|we (?:should|must|need to))\s+)?`,
].join('');

/** Verbs that also name operations: "the read and write paths", "the create, update and delete handlers". */
const OPERATIONS = ['read', 'get', 'set', 'load', 'fetch', 'send', 'parse', 'open', 'close', 'start', 'stop'];

const alternatives = (words: readonly string[]) =>
  words.map((w) => w.replace(/ /g, String.raw`\s+`)).join('|');

/** Not after an operation's name: its "and" or comma lists operations ("how read and write work"). */
const NOT_A_LIST = String.raw`(?<!\b(?:${alternatives([...OPERATIONS, ...CHANGE_VERBS])})\s*)`;

/**
 * Where a clause starts: the sentence's start or a bullet, after a comma, colon or parenthesis, or at "and", "then",
 * "also" — but not within a list of operations, whose verbs are names.
 */
const CLAUSE_START = String.raw`(?:^(?:[-*\u2022]\s+|\d+[.)]\s+)?|[:(]\s*|${NOT_A_LIST}(?:,\s*|\band\s+)|\b(?:then|also)\s+)`;

/** A change verb opening a clause, not as "change nothing". */
const IMPERATIVE = new RegExp(
  String.raw`${CLAUSE_START}${LEADS}(?:${alternatives(CHANGE_VERBS)})(?![\w'-])(?!\s+nothing\b)`,
);

/** An output verb opening a clause, then `to`/`into`/`as` and what follows, in the same clause. */
const OUTPUT_TO = new RegExp(
  String.raw`${CLAUSE_START}${LEADS}(?:${alternatives(OUTPUT_VERBS)})\b[^,;:]*?\b(?:to|into|as)\s+(\S+)`,
);

/** "into X" where X is a file: not "look into", "dig into", "insight into". */
const INTO = /(?<!\b(?:look|looking|dig|digging|delve|peek|dive|go|get|insights?)\s+)\binto\s+(\S+)/g;

/** A file as the target, named by the word: "to a new markdown file", "in a new file", "a file called". */
const FILE_TARGET =
  /\b(?:to|into)\s+(?:a|an|the|one|its own)\s+(?:(?:new|separate|single|markdown|md|text|json|csv|yaml|html)\s+)*file\b|\bin\s+a\s+new\s+file\b|\ba\s+(?:new\s+)?file\s+(?:called|named)\b/;

/** A shell-style redirect to a file: "list the deps > deps.txt". */
const REDIRECT = /(?:^|\s)>\s*(\S+)/;

/** A sentence asking something ("how do I fix it?", "what does write() do"): it wants an answer, not a change. */
const QUESTION =
  /^(?:[-*\u2022]\s+)?(?:how|what|what's|whats|why|where|which|who|whose|when|does|do|did|is|are|was|were|has|have|should (?:i|we)|shall (?:i|we))\b/;

/** A phrase's first run of word characters: "hook up" → "hook". */
const firstWord = (phrase: string): string => phrase.split(/\W+/).find(Boolean) ?? phrase;
const CHANGE_WORDS = new Set(CHANGE_VERBS.map(firstWord));
const OUTPUT_WORDS = new Set(OUTPUT_VERBS.map(firstWord));
const TARGET_WORDS = ['to', 'into', 'as'];

function asksInSentence(sentence: string): boolean {
  if (QUESTION.test(sentence)) return false;
  // Each expression below is tried only when the sentence holds, as a whole run of word characters, a word it
  // cannot match without (its verb's first word, "file", "into"): most questions hold none, and compiling these
  // expressions costs milliseconds before the first request.
  const words = new Set(sentence.split(/\W+/));
  const holds = (set: ReadonlySet<string>) => [...words].some((word) => set.has(word));
  if (holds(CHANGE_WORDS) && IMPERATIVE.test(sentence)) return true;
  if (words.has('file') && FILE_TARGET.test(sentence)) return true;
  const targets: (string | undefined)[] = [];
  if (holds(OUTPUT_WORDS) && TARGET_WORDS.some((word) => words.has(word)))
    targets.push(OUTPUT_TO.exec(sentence)?.[1]);
  if (sentence.includes('>')) targets.push(REDIRECT.exec(sentence)?.[1]);
  if (words.has('into')) for (const match of sentence.matchAll(INTO)) targets.push(match[1]);
  return targets.some((target) => target !== undefined && isPath(bareWord(target)));
}

/** Whether some sentence of the message asks for a file to be written or changed. */
export function asksForChanges(message: string): boolean {
  return message
    .toLowerCase()
    .split(/(?<=[.!?;])\s+|\n+/)
    .some((sentence) => asksInSentence(sentence.trim()));
}
