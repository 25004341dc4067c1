// A fetched body as the model reads it: HTML turned into Markdown (Readability picks the article, linkedom parses,
// turndown writes, its GFM plugin keeping tables and highlighted code blocks), links made absolute; text as is,
// images handed to the model as images, other binaries refused.
import { createRequire } from 'node:module';

type ReadabilityModule = typeof import('@mozilla/readability');
type LinkedomModule = typeof import('linkedom');
type TurndownModule = typeof import('turndown');
type GfmPlugin = (service: InstanceType<TurndownModule>) => void;

/** The packages, required the first time a page is converted: nothing of them loads at start-up. */
function load(): {
  Readability: ReadabilityModule['Readability'];
  parseHTML: LinkedomModule['parseHTML'];
  Turndown: TurndownModule;
  gfm: GfmPlugin;
} {
  // require, not import(): they stay outside the bundle (scripts/build.mjs), which runs from V8's code cache.
  const require = createRequire(import.meta.url);
  const { Readability } = require('@mozilla/readability') as ReadabilityModule;
  const { parseHTML } = require('linkedom') as LinkedomModule;
  const Turndown = require('turndown') as TurndownModule;
  const { gfm } = require('@joplin/turndown-plugin-gfm') as { gfm: GfmPlugin };
  return { Readability, parseHTML, Turndown, gfm };
}

export interface Page {
  title?: string;
  markdown: string;
}

/** What the bare-pre rule reads of an element (turndown's nodes are the DOM's). */
interface CodeElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
  parentElement: { getAttribute(name: string): string | null } | null;
}

/**
 * An HTML document as Markdown: the main article when Readability finds one, else the whole body. `url`: where it
 * came from, against which relative links and images are made absolute (a `<base href>` first).
 */
export function htmlToMarkdown(html: string, url?: string): Page {
  const { Readability, parseHTML, Turndown, gfm } = load();
  const turndown = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.use(gfm);
  turndown.addRule('bare pre', {
    // A <pre> without <code> (highlighters write spans straight into it) is a code block too; its language from a
    // `language-x`, `lang-x` or `highlight-source-x` class on it or its parent.
    filter: (node) => node.nodeName === 'PRE' && node.firstElementChild?.nodeName !== 'CODE',
    replacement: (_content, node) => {
      const element = node as unknown as CodeElement;
      const classes = `${element.getAttribute('class') ?? ''} ${element.parentElement?.getAttribute('class') ?? ''}`;
      const language = /(?:^|\s)(?:language|lang|highlight-source)-([\w+#-]+)/.exec(classes)?.[1] ?? '';
      const code = (element.textContent ?? '').replace(/\n$/, '');
      const fence = '`'.repeat(
        Math.max(3, ...(code.match(/`+/g) ?? []).map((run: string) => run.length + 1)),
      );
      return `\n\n${fence}${language}\n${code}\n${fence}\n\n`;
    },
  });
  // Scripts, styles and forms are nothing the model can read.
  turndown.remove(['script', 'style', 'noscript', 'iframe', 'form', 'svg'] as never);
  const { document } = parseHTML(completeDocument(html));
  if (url) absoluteLinks(document, url);
  const title = document.querySelector('title')?.textContent?.trim() || undefined;
  let content: string | undefined;
  try {
    // Readability changes the document it reads: give it its own copy.
    const copy = parseHTML(document.toString()).document;
    content =
      // Classes kept: they name code blocks' languages.
      new Readability(copy as unknown as ConstructorParameters<ReadabilityModule['Readability']>[0], {
        keepClasses: true,
      }).parse()?.content ?? undefined;
  } catch {
    content = undefined;
  }
  const markdown = turndown.turndown(content ?? document.body?.innerHTML ?? html).trim();
  return { ...(title ? { title } : {}), markdown };
}

/** What may stand before a page's content when its `<head>` and `<body>` tags are left out (HTML allows that). */
const HEAD_PART =
  /^(?:\s+|<!--[\s\S]*?-->|<(title|style|script|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>|<(?:meta|link|base)\b[^>]*>)/i;

/**
 * The markup with its `<html>`, `<head>` and `<body>` written out. linkedom builds no implied elements: without
 * both tags a page's content lies outside `document.body`, and Readability and the fallback read an empty page
 * (`<!doctype html><title>…</title><p>…`, a minified page, an HTML fragment).
 */
export function completeDocument(html: string): string {
  if (/<html[\s>]/i.test(html) && /<body[\s>]/i.test(html)) return html;
  let rest = html.replace(/<!doctype[^>]*>/i, '').replace(/<\/?(?:html|head)\b[^>]*>/gi, '');
  const bodyTag = /<body\b[^>]*>/i.exec(rest);
  let head = '';
  if (bodyTag) {
    head = rest.slice(0, bodyTag.index);
    rest = rest.slice(bodyTag.index);
  } else {
    for (let part = HEAD_PART.exec(rest); part?.[0]; part = HEAD_PART.exec(rest)) {
      head += part[0];
      rest = rest.slice(part[0].length);
    }
    rest = `<body>${rest}</body>`;
  }
  return `<!DOCTYPE html><html><head>${head}</head>${rest}</html>`;
}

/** Each link's and image's address resolved against the page's (or its `<base href>`); fragments stay as they are. */
function absoluteLinks(document: ReturnType<LinkedomModule['parseHTML']>['document'], url: string): void {
  let base = url;
  try {
    const href = document.querySelector('base[href]')?.getAttribute('href');
    if (href) base = new URL(href, url).href;
  } catch {
    // A broken <base>: the page's own address.
  }
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute)?.trim();
      if (!value || value.startsWith('#') || /^[a-z][\w+.-]*:/i.test(value)) continue;
      try {
        element.setAttribute(attribute, new URL(value, base).href);
      } catch {
        // Not a URL at all: left as written.
      }
    }
  }
}

/** How a body is treated, by its content type (and, without one, by whether it looks binary). */
export type BodyKind = 'html' | 'text' | 'image' | 'binary';

export function bodyKind(contentType: string, body: Buffer): BodyKind {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('image/') && type !== 'image/svg+xml') return 'image';
  if (
    type.startsWith('text/') ||
    type === 'image/svg+xml' ||
    /^application\/(json|xml|javascript|ecmascript|x-yaml|yaml|toml|x-sh|sql|graphql)$/.test(type) ||
    /\+(json|xml)$/.test(type)
  )
    return 'text';
  if (type === '' || type === 'application/octet-stream') {
    const head = body.subarray(0, 8000);
    if (head.includes(0)) return 'binary';
    return /^\s*<(!doctype html|html)/i.test(head.toString('latin1')) ? 'html' : 'text';
  }
  return 'binary';
}

/**
 * The body decoded as its encoding says, as browsers read it: a byte order mark, else the content type's charset,
 * else (HTML) a `<meta charset>` or `<meta http-equiv="Content-Type">` in the first 1,024 bytes, or (XML) the
 * declaration's encoding; UTF-8 when nothing says or the name is one Node does not know.
 */
export function decodeBody(contentType: string, body: Buffer): string {
  const label = bomCharset(body) ?? charsetIn(contentType) ?? declaredCharset(contentType, body);
  try {
    return new TextDecoder(label ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

const charsetIn = (text: string): string | undefined => /charset\s*=\s*["']?([\w.:-]+)/i.exec(text)?.[1];

function bomCharset(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  return undefined;
}

function declaredCharset(contentType: string, body: Buffer): string | undefined {
  const head = body.subarray(0, 1024).toString('latin1');
  const xml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)/i.exec(head)?.[1];
  if (xml) return xml;
  if (bodyKind(contentType, body) !== 'html') return undefined;
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const direct = /\bcharset\s*=\s*["']?([\w.:-]+)/i.exec(tag)?.[1];
    if (direct && !/\bcontent\s*=/i.test(tag)) return direct;
    if (/\bhttp-equiv\s*=\s*["']?content-type/i.test(tag)) {
      const content = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
      const charset = charsetIn(content?.[1] ?? content?.[2] ?? content?.[3] ?? '');
      if (charset) return charset;
    }
  }
  return undefined;
}

/**
 * What web_fetch says of an image: with `attached`, the image part goes with it (a model without vision is told it
 * cannot see it, as for read_file); otherwise a type Keel does not send (an icon, SVG as text aside) or over the limit.
 */
export function imageResult(url: string, contentType: string, bytes: number, attached: boolean): string {
  const type = contentType.split(';')[0]!.trim();
  return attached
    ? `image ${type}, ${bytes} bytes, from ${url}`
    : `[image: ${type}, ${bytes} bytes, from ${url}. web_fetch cannot show it to you: it is not a PNG, JPEG, GIF or WebP of at most 5 MB.]`;
}
