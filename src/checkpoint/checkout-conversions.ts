// Files whose bytes in the work tree are not the blob their index entry names: git converts them on checkout (a
// filter such as Git LFS's, `eol=crlf`, `ident`, `working-tree-encoding`, `text` under core.autocrlf or core.eol=crlf)
// and back when they are added. A shadow index seeded from such an index must not take those entries' object ids
// for the files' contents — an undo would write back the LFS pointer, or LF line ends — so their size is zeroed (as
// git smudges a racily clean entry) and the shadow's first walk, which converts nothing, reads them.
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Attributes that change a file's bytes on checkout whatever the configuration. */
const ALWAYS = /^(filter=.+|ident|eol=crlf|working-tree-encoding=.+)$/;
/** Attributes that make a file text: converted to CRLF on checkout under core.autocrlf=true or core.eol=crlf. */
const TEXT = /^(text|text=auto|eol=.+)$/;

const readText = (path: string) => fs.readFile(path, 'utf8').catch(() => undefined);

/** Whether git config text turns text files' line ends into CRLF on checkout (`[core] autocrlf = true`, `eol = crlf`). */
export function crlfCheckout(config: string): boolean {
  let core = false;
  for (const raw of config.split('\n')) {
    const line = raw.replace(/[#;].*$/, '').trim();
    const section = /^\[\s*([^\]\s"]+)/.exec(line);
    if (section) {
      core = section[1]?.toLowerCase() === 'core';
      continue;
    }
    if (!core) continue;
    const setting = /^(\w+)\s*=\s*(.*)$/.exec(line);
    const name = setting?.[1]?.toLowerCase();
    const value = setting?.[2]
      ?.trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (name === 'autocrlf' && value === 'true') return true;
    if (name === 'eol' && value === 'crlf') return true;
  }
  return false;
}

/**
 * The paths (relative to the folder of `.gitattributes` at `base`, '' for the top) a gitattributes file's lines
 * give a converting attribute: its patterns, matched as .gitignore patterns are — a pattern with a trailing `/`
 * also takes the files inside, which git would not: more files are read than need be, never fewer.
 */
export function convertingPatterns(text: string, crlf: boolean): string[] {
  const macros = new Set<string>();
  const patterns: string[] = [];
  const converts = (attr: string) => ALWAYS.test(attr) || (crlf && TEXT.test(attr)) || macros.has(attr);
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [pattern = '', ...attrs] = line.split(/\s+/);
    if (pattern.startsWith('[attr]')) {
      if (attrs.some(converts)) macros.add(pattern.slice('[attr]'.length));
      continue;
    }
    // git ignores negative patterns in attributes files.
    if (pattern.startsWith('!')) continue;
    if (attrs.some(converts)) patterns.push(pattern);
  }
  return patterns;
}

export interface Conversions {
  /** Every text file may be converted (core.autocrlf=true or core.eol=crlf): no entry can be trusted. */
  all: boolean;
  /** Some file may be converted: an attribute that converts is set somewhere. */
  some: boolean;
  /** Whether checkout may convert the file at this repository-relative path. */
  converts(path: string): boolean;
}

/**
 * What checkout converts in the repository whose work tree is `workTree`: its config and the user's (`core.autocrlf`,
 * `core.eol`), and the attributes of its tracked `.gitattributes` files (`attributeFiles`, repository-relative), its
 * `info/attributes` and the user's global attributes file.
 */
export async function checkoutConversions(
  workTree: string,
  gitDir: string,
  commonDir: string,
  attributeFiles: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Conversions> {
  const home = env.HOME ?? homedir();
  const xdg = env.XDG_CONFIG_HOME || join(home, '.config');
  const configs = await Promise.all(
    [
      join(commonDir, 'config'),
      join(gitDir, 'config.worktree'),
      join(home, '.gitconfig'),
      join(xdg, 'git', 'config'),
      '/etc/gitconfig',
    ].map(readText),
  );
  const crlf = configs.some((text) => text !== undefined && crlfCheckout(text));
  if (crlf) return { all: true, some: true, converts: () => true };
  const matchers: { base: string; matcher: Ignore }[] = [];
  const add = (base: string, text: string | undefined) => {
    const patterns = text ? convertingPatterns(text, false) : [];
    if (patterns.length > 0) matchers.push({ base, matcher: ignore().add(patterns) });
  };
  for (const file of attributeFiles) {
    const base = dirname(file) === '.' ? '' : dirname(file);
    add(base, await readText(join(workTree, file)));
  }
  add('', await readText(join(commonDir, 'info', 'attributes')));
  add('', await readText(join(xdg, 'git', 'attributes')));
  return {
    all: false,
    some: matchers.length > 0,
    converts(path) {
      for (const { base, matcher } of matchers) {
        if (base !== '' && !path.startsWith(`${base}/`)) continue;
        const rel = base === '' ? path : path.slice(base.length + 1);
        try {
          if (rel !== '' && matcher.ignores(rel)) return true;
        } catch {
          return true; // a path the matcher cannot take: read it, to be sure
        }
      }
      return false;
    },
  };
}

/** The tracked `.gitattributes` files among index paths. */
export const attributeFiles = (paths: Iterable<string>): string[] =>
  [...paths].filter((p) => p === '.gitattributes' || p.endsWith('/.gitattributes'));
