// A fetched body as the model reads it: HTML turned into Markdown (Readability picks the article, linkedom parses,
// turndown writes), text as is, images handed to the image path, other binaries refused.
import { createRequire } from 'node:module';

type ReadabilityModule = typeof import('@mozilla/readability');
type LinkedomModule = typeof import('linkedom');
type TurndownModule = typeof import('turndown');

/** The three packages, required the first time a page is converted: nothing of them loads at start-up. */
function load(): {
  Readability: ReadabilityModule['Readability'];
  parseHTML: LinkedomModule['parseHTML'];
  Turndown: TurndownModule;
} {
  // require, not import(): they stay outside the bundle (scripts/build.mjs), which runs from V8's code cache.
  const require = createRequire(import.meta.url);
  const { Readability } = require('@mozilla/readability') as ReadabilityModule;
  const { parseHTML } = require('linkedom') as LinkedomModule;
  const Turndown = require('turndown') as TurndownModule;
  return { Readability, parseHTML, Turndown };
}

export interface Page {
  title?: string;
  markdown: string;
}

/** An HTML document as Markdown: the main article when Readability finds one, else the whole body. */
export function htmlToMarkdown(html: string): Page {
  const { Readability, parseHTML, Turndown } = load();
  const turndown = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // Scripts, styles and forms are nothing the model can read.
  turndown.remove(['script', 'style', 'noscript', 'iframe', 'form', 'svg'] as never);
  const { document } = parseHTML(html);
  const title = document.querySelector('title')?.textContent?.trim() || undefined;
  let content: string | undefined;
  try {
    // Readability changes the document it reads: give it its own copy.
    content =
      new Readability(
        parseHTML(html).document as unknown as ConstructorParameters<ReadabilityModule['Readability']>[0],
      ).parse()?.content ?? undefined;
  } catch {
    content = undefined;
  }
  const markdown = turndown.turndown(content ?? document.body?.innerHTML ?? html).trim();
  return { ...(title ? { title } : {}), markdown };
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

/** The body decoded as its charset says (UTF-8 when it says nothing or names one Node does not know). */
export function decodeBody(contentType: string, body: Buffer): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/**
 * What web_fetch returns for an image. The hook where image parts will go: until messages carry images (the image
 * path), the model is told what the image is and that it cannot see it this way.
 */
export function imageResult(url: string, contentType: string, bytes: number): string {
  const type = contentType.split(';')[0]!.trim();
  return `[image: ${type}, ${bytes} bytes, from ${url}. web_fetch cannot show it to you: images reach the model only through the image path, not as page text.]`;
}
