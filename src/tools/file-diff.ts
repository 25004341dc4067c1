// The unified diff of a file change, for previews and approvals: the old text (none for a new file) against the new.
import { createTwoFilesPatch } from 'diff';

/** Beyond this many characters on either side the diff is not computed (Myers' diff grows with N×D). */
const MAX_DIFF_CHARS = 1_000_000;

/** A unified diff of `shown` going from `before` to `after` (undefined: the file does not exist on that side). */
export function fileChangeDiff(shown: string, before: string | undefined, after: string | undefined): string {
  if ((before?.length ?? 0) > MAX_DIFF_CHARS || (after?.length ?? 0) > MAX_DIFF_CHARS) {
    return `(${shown}: too large to diff)`;
  }
  const patch = createTwoFilesPatch(
    before === undefined ? '/dev/null' : `a/${shown}`,
    after === undefined ? '/dev/null' : `b/${shown}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: 3 },
  );
  return patch.replace(/^=+\n/, '').trimEnd();
}
