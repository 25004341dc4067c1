// What a user's message asks for, by a fast local classifier (CodeCraft §3.4): intent, scope, the paths and
// symbols it names, and a confidence. Keywords are data (intent-keywords.ts); no model is called, so it costs well under
// a millisecond.
import { PLAN_PROMPT_SENTENCES } from '../plan/prompt.js';
import { asksForChanges } from './change-request.js';
import { extractEntities, isPath } from './entities.js';
import {
  DOCUMENT_NOUNS,
  INTENT_KEYWORDS,
  type Intent,
  LEAD_INS,
  PROBLEM_NOUNS,
  READING_VERBS,
  SCOPE_KEYWORDS,
  type Scope,
} from './intent-keywords.js';

export type { Intent, Scope };

export interface Classification {
  intent: Intent;
  scope: Scope;
  /** Paths and symbols named in the message, in order of appearance. */
  entities: string[];
  /** 0..1: how clearly the keywords point at the intent (a message with none gets a low default). */
  confidence: number;
}

/** A letter, digit, `_` or apostrophe: what a keyword may not touch on either side. */
function wordish(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 65 && code <= 90) || // A-Z
    (code >= 48 && code <= 57) || // 0-9
    code === 95 || // _
    code === 39 // '
  );
}

/**
 * How often `words` occur in `text` on word boundaries (neither side a letter, digit, `_` or apostrophe), counted
 * as a global regular expression of their alternation, `(?:^|[^\w'])(a|b|…)(?=$|[^\w'])`, counts them: left to
 * right, at each place the first word in list order, never overlapping; `first` stops at one. Plain string search
 * rather than those expressions: compiling them cost about 2 ms of every run's start, before its first request.
 */
export function keywordHits(text: string, words: readonly string[], first = false): number {
  let hits = 0;
  for (let start = 0; start < text.length; start++) {
    if (start > 0 && wordish(text.charCodeAt(start - 1))) continue;
    const word = words.find((w) => {
      const end = start + w.length;
      return text.startsWith(w, start) && (end === text.length || !wordish(text.charCodeAt(end)));
    });
    if (word === undefined) continue;
    hits++;
    if (first) break;
    // The next keyword starts after the character following this one (that character bounds them both).
    start += word.length;
  }
  return hits;
}

/** Whether `text` starts with `word`, on a word boundary. */
function startsWithWord(text: string, word: string): boolean {
  return text.startsWith(word) && (text.length === word.length || !wordish(text.charCodeAt(word.length)));
}

/** The request from its verb on: the lowercased message without the lead-ins before it. */
function fromVerb(text: string): string {
  let rest = text.trimStart();
  for (;;) {
    const lead = LEAD_INS.find((w) => startsWithWord(rest, w));
    if (!lead) return rest;
    rest = rest.slice(lead.length).replace(/^[\s,]+/, '');
  }
}

/** How much one keyword hit counts: implement's verbs (add, make, update) also begin most other requests. */
const INTENT_WEIGHT: Readonly<Partial<Record<Intent, number>>> = { implement: 0.5 };

/**
 * Weighted keyword hits of each intent; a keyword as the request's first word (its verb) counts half again. A request
 * opening with another intent's keyword has the problem nouns as its object: they count nothing for debug. One opening
 * with a reading verb (read, or explain's and analyze's) has the documentation nouns as its object: they count
 * nothing for document ("read the README", "summarize the changelog").
 */
function scores(text: string): Map<Intent, number> {
  const result = new Map<Intent, number>();
  const request = fromVerb(text);
  const first = request.split(/[^\w'-]+/)[0] ?? '';
  const lead = INTENT_KEYWORDS.find(([, words]) => words.some((w) => startsWithWord(request, w)))?.[0];
  const reads =
    (lead !== undefined && READ_ONLY_INTENTS.has(lead)) ||
    READING_VERBS.some((w) => startsWithWord(request, w));
  for (const [intent, all] of INTENT_KEYWORDS) {
    const words =
      intent === 'debug' && lead && lead !== 'debug'
        ? all.filter((w) => !PROBLEM_NOUNS.has(w))
        : intent === 'document' && reads
          ? all.filter((w) => !DOCUMENT_NOUNS.has(w))
          : all;
    const hits = keywordHits(text, words);
    const bonus = words.includes(first) ? 0.5 : 0;
    if (hits > 0) result.set(intent, (hits + bonus) * (INTENT_WEIGHT[intent] ?? 1));
  }
  return result;
}

function scopeOf(text: string, entities: readonly string[]): Scope {
  for (const [scope, words] of SCOPE_KEYWORDS) if (keywordHits(text, words, true) > 0) return scope;
  const paths = entities.filter(isPath);
  return paths.length >= 2 || paths.some((p) => p.endsWith('/')) ? 'multi_file' : 'single_file';
}

/** The intents whose steering note says to change nothing. */
const READ_ONLY_INTENTS: ReadonlySet<Intent> = new Set(['explain', 'analyze']);

/** A message asking for a file written, with no keyword saying which work: enough to steer as implement. */
const MEANT_WORK = 0.5;

/** What is classified of a long message (a plan, pasted output): the request is at its start. */
const CLASSIFIED_CHARS = 4000;

/**
 * Content the user attached rather than wrote: `@file` blocks (chat, custom commands), piped stdin, an editor's
 * resources. Their words say nothing of what is asked ("what is in @package.json" is not a test request because the
 * file has a test script), so they are left out of the classification.
 */
const ATTACHED = [
  /<file path="[^"\n]*">\n[\s\S]*?\n<\/file>/g,
  /(?:Input piped to keel on stdin:\n)?(?:\([^\n]*\)\n)?<stdin>\n[\s\S]*?\n<\/stdin>/g,
  /<context ref="[^"\n]*">\n[\s\S]*?\n<\/context>/g,
];

/** The message without the content attached to it, nor Keel's own sentences around a plan's words. */
function requestOf(message: string): string {
  const own = PLAN_PROMPT_SENTENCES.reduce((text, sentence) => text.split(sentence).join(''), message);
  return ATTACHED.reduce((text, block) => text.replace(block, ''), own);
}

/**
 * The lowercased message with the paths it names blanked out: words in a path say what the file is called, not what
 * is asked ("summarize test/helpers/server.ts" is no test request, "add retries to src/fix-headers.ts" no bug fix).
 */
function withoutPaths(text: string, entities: readonly string[]): string {
  return entities.filter(isPath).reduce((rest, path) => rest.split(path.toLowerCase()).join(' '), text);
}

export function classifyIntent(message: string): Classification {
  const head = requestOf(message).slice(0, CLASSIFIED_CHARS);
  const text = head.toLowerCase();
  const entities = extractEntities(head);
  const scope = scopeOf(text, entities);
  let ranked = [...scores(withoutPaths(text, entities))].sort((a, b) => b[1] - a[1]);
  // A question or an analysis that also asks for a file written or changed ("find all TODOs and write tasks.md") is
  // work: its intent is the best of the others, or implement when no other keyword says which work.
  if (ranked[0] && READ_ONLY_INTENTS.has(ranked[0][0]) && asksForChanges(head)) {
    ranked = ranked.filter(([intent]) => !READ_ONLY_INTENTS.has(intent));
    if (ranked.length === 0) return { intent: 'implement', scope, entities, confidence: MEANT_WORK };
  }
  const [top, second] = ranked;
  if (!top) {
    // No keyword: a question is most likely asking for an explanation, anything else for work to be done.
    const intent: Intent = /\?\s*$/.test(head) ? 'explain' : 'implement';
    return { intent, scope, entities, confidence: 0.3 };
  }
  // Stronger with more hits (up to two), and with a clearer lead over the runner-up: a tie stays below 0.5.
  const lead = (top[1] - (second?.[1] ?? 0)) / top[1];
  const confidence = Math.min(0.95, 0.3 + 0.15 * Math.min(top[1], 2) + 0.3 * lead);
  return { intent: top[0], scope, entities, confidence: Math.round(confidence * 100) / 100 };
}
