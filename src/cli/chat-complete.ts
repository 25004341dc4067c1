// Tab completion in the chat: slash command names at the start of the line, workspace paths after `@`.
import { readdir } from 'node:fs/promises';
import type { Workspace } from '../safety/workspace.js';
import type { Completer } from '../ui/line-reader.js';

/** Candidates shown at most (a directory of thousands would flood the screen). */
const MAX_CANDIDATES = 200;

/** `workspace` is asked at each Tab: the chat's agent (and its workspace) may change with /resume or /model. */
export function chatCompleter(
  commandNames: () => string[],
  workspace: () => Workspace | undefined,
): Completer {
  return async (line) => {
    if (/^\/\S*$/.test(line)) {
      const matches = commandNames()
        .map((name) => `/${name}`)
        .filter((name) => name.startsWith(line));
      // One match: a space after it, ready for arguments.
      return [matches.length === 1 ? [`${matches[0]} `] : matches, line];
    }
    // The mention being typed, in the forms the chat reads (core/at-paths.ts): bare with shell escapes
    // (`@odd\ dir/`), or quoted (`@"odd dir/`).
    const mention = /(?:^|\s)@("[^"\n]*|(?:\\.|[^\s\\"])*\\?)$/.exec(line);
    const jail = workspace();
    if (!mention || !jail) return [[], line];
    const raw = mention[1] ?? '';
    const quoted = raw.startsWith('"');
    const typed = quoted ? raw.slice(1) : raw.replace(/\\(.)/g, '$1').replace(/\\$/, '');
    const stem = raw.replace(/(^|[^\\])((?:\\\\)*)\\$/, '$1$2');
    const slash = typed.lastIndexOf('/');
    const dir = typed.slice(0, slash + 1);
    const prefix = typed.slice(slash + 1);
    // The directory is resolved through the jail: completion never lists anything outside the workspace.
    const absolute = await jail.resolve(dir === '' ? '.' : dir);
    const entries = await readdir(absolute, { withFileTypes: true });
    const matches = entries
      .filter((e) => e.name.startsWith(prefix) && (prefix.startsWith('.') || !e.name.startsWith('.')))
      .filter((e) => e.name !== 'node_modules' || prefix !== '')
      // Readline puts in what a candidate adds to the text typed: each starts with that text as typed.
      .map((e) => `@${stem}${addition(e.name.slice(prefix.length), e.isDirectory(), quoted)}`)
      .sort()
      .slice(0, MAX_CANDIDATES);
    return [matches, `@${raw}`];
  };
}

/**
 * The rest of a completed `@path`, in the form the chat reads back as that path: in a quote begun by the user (closed
 * after a file), or with the characters that would end or change it escaped as a terminal escapes a dropped file.
 */
function addition(rest: string, directory: boolean, quoted: boolean): string {
  if (quoted) return `${rest}${directory ? '/' : '"'}`;
  return `${rest.replace(/[\s'"()[\]&;!$`]/g, '\\$&')}${directory ? '/' : ''}`;
}
