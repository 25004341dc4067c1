// The repository's history is never thrown away by a command without asking: deleting, emptying or moving `.git`
// (`rm -rf .git`, `find . -delete`, `find . -exec rm -rf {} +`, `rsync --delete` into the root) is in the confirm
// tier, asked even in full mode. Checkpoints restore files, not history.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { ActScope } from './invocation.js';
import { globMatches, TOO_MANY } from './operands.js';
import { globBase, type Word, within } from './paths.js';
import { targetOf } from './targets.js';

/** Names found in a repository's `.git`, to tell whether a find name test can match something there. */
const GIT_NAMES = [
  '.git',
  'HEAD',
  'config',
  'index',
  'objects',
  'refs',
  'hooks',
  'info',
  'logs',
  'packed-refs',
  'description',
  'ORIG_HEAD',
  'FETCH_HEAD',
  'COMMIT_EDITMSG',
  'pack',
  'pack-3f2a.pack',
  'pack-3f2a.idx',
  'heads',
  'main',
  'master',
  'exclude',
  'pre-commit.sample',
  'ab',
  '3f2a9c0e1d7b5a4c6e8f0a1b2c3d4e5f6a7b8c',
];

const isGitDir = (p: string): Promise<boolean> =>
  fs.stat(path.join(p, '.git')).then(
    () => true,
    () => false,
  );

/** What of the repository the act on `real` would take: inside `.git`, or a directory holding it. */
async function gitLoss(real: string, root: string): Promise<string | undefined> {
  if (!within(root, real)) return undefined;
  if (path.relative(root, real).split(path.sep).includes('.git')) return 'the repository history in .git';
  if (await isGitDir(real)) return 'the repository history in .git below it';
  return undefined;
}

/**
 * A glob whose fixed directory holds `.git` and whose last part matches `.git` (`.g*`, `.[a-z]*`, `*\/`), or one
 * of whose matches is `.git` or holds it.
 */
async function globHitsGit(word: Word, scope: ActScope): Promise<boolean> {
  const matches = scope.shell.cwd === undefined ? [] : await globMatches(word.text, scope.shell.cwd);
  for (const match of matches === TOO_MANY ? [] : matches) {
    const target = await targetOf({ ...word, text: match, glob: false }, scope.shell);
    if (target !== 'unknown' && target.real && (await gitLoss(target.real, scope.context.root))) return true;
  }
  // `*\/` and `build/*\/` end in an empty part: the last part is the one before the slash.
  const last =
    word.text
      .split('/')
      .filter((p) => p !== '')
      .at(-1) ?? '';
  if (last === '' || !picomatch(last, { dot: true })('.git')) return false;
  const base = await targetOf({ ...word, text: globBase(word.text), glob: false }, scope.shell);
  return base !== 'unknown' && base.real !== undefined && (await isGitDir(base.real));
}

/** Deleting, emptying or moving `.git` (or a directory holding it) asks for confirmation in every mode. */
export async function guardGit(words: readonly Word[], act: string, scope: ActScope): Promise<void> {
  for (const word of words) {
    const target = await targetOf({ ...word, glob: false }, scope.shell);
    const loss =
      target !== 'unknown' && target.real !== undefined
        ? await gitLoss(target.real, scope.context.root)
        : undefined;
    if (loss) scope.add('confirm', `${act} of \`${word.text}\` throws away ${loss}`);
    else if (word.glob && (await globHitsGit(word, scope))) {
      scope.add('confirm', `${act} of \`${word.text}\` throws away the repository history in .git`);
    }
  }
}

/** A find pattern as a regular expression: `*` and `?` match any character, `/` included (no FNM_PATHNAME). */
function fnmatch(pattern: string, caseless: boolean): RegExp {
  const body = pattern
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')
    .replace(/\[!/g, '[^');
  return new RegExp(`^${body}$`, caseless ? 'i' : '');
}

function testMatchesGit(test: string, pattern: string, start: string): boolean {
  const paths = [`${start}/.git`, `${start}/.git/config`, `${start}/.git/objects/ab/3f2a9c`];
  try {
    if (/^-i?name$/.test(test)) return GIT_NAMES.some((n) => fnmatch(pattern, test === '-iname').test(n));
    if (/^-i?regex$/.test(test)) return paths.some((p) => new RegExp(`^(?:${pattern})$`).test(p));
    return paths.some((p) => fnmatch(pattern, test.startsWith('-i')).test(p));
  } catch {
    return true;
  }
}

/**
 * Whether a find expression keeps `.git` out of what it deletes: a name or path test no file of `.git` can match,
 * with no negation or `-o` that could turn it around (`find . -name '*.pyc' -delete` spares it; `find . -delete`,
 * `find . -type f -delete` and `find . ! -name x -delete` do not).
 */
export function findSparesGit(args: readonly Word[], start: string): boolean {
  const texts = args.map((w) => w.text);
  if (texts.some((t) => ['!', '-not', '-o', '-or', ','].includes(t))) return false;
  return texts.some(
    (t, i) =>
      /^-(i?name|i?path|i?wholename|i?regex)$/.test(t) && !testMatchesGit(t, texts[i + 1] ?? '', start),
  );
}
