// Syntax highlighting of a code block for the terminal: highlight.js (core only, loaded on the first block, each
// language registered when a block needs it), its token classes mapped to ANSI styles.
import { createRequire } from 'node:module';
import type { Style } from './style.js';

interface HljsCore {
  getLanguage(name: string): unknown;
  registerLanguage(name: string, language: unknown): void;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}

/** Names people write after the fence → highlight.js's language files. */
const ALIASES: Record<string, string> = {
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  rb: 'ruby',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  yml: 'yaml',
  md: 'markdown',
  rs: 'rust',
  kt: 'kotlin',
  cs: 'csharp',
  'c++': 'cpp',
  h: 'c',
  hpp: 'cpp',
  html: 'xml',
  svg: 'xml',
  golang: 'go',
  dockerfile: 'dockerfile',
  jsonc: 'json',
};

/** highlight.js token classes → how they look. Unlisted classes stay plain. */
const CLASS_STYLES: Record<string, keyof Style> = {
  keyword: 'magenta',
  built_in: 'cyan',
  type: 'cyan',
  literal: 'blue',
  number: 'yellow',
  string: 'green',
  regexp: 'red',
  symbol: 'yellow',
  comment: 'dim',
  doctag: 'dim',
  meta: 'dim',
  title: 'blue',
  'title.function': 'blue',
  'title.class': 'cyan',
  params: 'italic',
  attr: 'yellow',
  attribute: 'yellow',
  variable: 'red',
  'template-variable': 'red',
  property: 'cyan',
  tag: 'blue',
  name: 'blue',
  'selector-tag': 'magenta',
  'selector-class': 'yellow',
  addition: 'green',
  deletion: 'red',
  emphasis: 'italic',
  strong: 'bold',
  link: 'underline',
  section: 'bold',
  bullet: 'yellow',
};

let core: HljsCore | null | undefined;

/**
 * highlight.js's core, loaded once with require(): the bundle runs from a V8 code cache where Node 20 drops
 * import() of packages outside it. Null when it cannot be loaded (the block is then shown plain).
 */
function loadCore(): HljsCore | null {
  if (core !== undefined) return core;
  try {
    const require = createRequire(import.meta.url);
    const loaded = require('highlight.js/lib/core') as HljsCore & { default?: HljsCore };
    core = loaded.default ?? loaded;
  } catch {
    core = null;
  }
  return core;
}

/** Registers the language a block names; false when highlight.js has none by that name. */
function ensureLanguage(hljs: HljsCore, lang: string): string | undefined {
  const name = ALIASES[lang] ?? lang;
  if (hljs.getLanguage(name)) return name;
  // Only plain names reach require: a fence's info string is model text.
  if (!/^[a-z0-9-]+$/.test(name)) return undefined;
  try {
    const require = createRequire(import.meta.url);
    const module = require(`highlight.js/lib/languages/${name}`) as { default?: unknown };
    hljs.registerLanguage(name, module.default ?? module);
    return name;
  } catch {
    return undefined;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name] ?? '');
}

/** highlight.js's HTML (nested `<span class="hljs-…">`) → the same text with ANSI styles. */
export function htmlToAnsi(html: string, style: Style): string {
  const stack: (keyof Style | undefined)[] = [];
  let out = '';
  const paint = (text: string) => {
    let shown = unescapeHtml(text);
    // The innermost styled span decides; outer ones are re-applied around it by nesting.
    for (let i = stack.length - 1; i >= 0; i--) {
      const key = stack[i];
      if (key) {
        // Styles end at line breaks so a dim comment never bleeds into the next line's prefix.
        shown = shown
          .split('\n')
          .map((line) => (line ? style[key](line) : line))
          .join('\n');
        break;
      }
    }
    out += shown;
  };
  const tag = /<span class="([^"]*)">|<\/span>/g;
  let last = 0;
  for (let m = tag.exec(html); m !== null; m = tag.exec(html)) {
    paint(html.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] === undefined) stack.pop();
    else {
      const classes = m[1].split(/\s+/).map((c) => c.replace(/^hljs-/, '').replace(/_$/, ''));
      stack.push(CLASS_STYLES[classes.join('.')] ?? CLASS_STYLES[classes[0] ?? '']);
    }
  }
  paint(html.slice(last));
  return out;
}

/** The code with ANSI colours for its language, or undefined when the language is unknown or unnamed. */
export function highlightCode(code: string, lang: string, style: Style): string | undefined {
  if (!lang) return undefined;
  const hljs = loadCore();
  if (!hljs) return undefined;
  const name = ensureLanguage(hljs, lang.toLowerCase());
  if (!name) return undefined;
  try {
    return htmlToAnsi(hljs.highlight(code, { language: name, ignoreIllegals: true }).value, style);
  } catch {
    return undefined;
  }
}
