// web_fetch: an http(s) page as Markdown (text as is), or condensed by the model as a prompt asks with the whole
// page saved; an image as an image part. The policy judges the URL's domain (preview.url); redirects are asked again and address-checked.
import * as z from 'zod';
import { imageFromBytes, MAX_IMAGE_BYTES } from '../core/images.js';
import type { ImagePart } from '../core/messages.js';
import { utf8Prefix } from '../core/text.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';
import { httpRequest, networkError } from './web-http.js';
import { bodyKind, decodeBody, htmlToMarkdown, imageResult } from './web-page.js';

/** Bytes of a body read at most: a bigger page is cut there, with a note. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
export const FETCH_TIMEOUT_MS = 30_000;

const schema = z.strictObject({
  url: z.string().min(1).describe('http(s) URL'),
  prompt: z.string().min(1).optional(),
});

const ACCEPT = 'text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5';

const NO_TEXT =
  '[the page has no text without running its scripts, and web_fetch does not run JavaScript: look for the same content elsewhere (its docs, a raw file, an API)]';

/** The page text, from its body's kind (an image: described, and its part for a model that sees); why not, for a binary. */
function pageText(
  url: string,
  contentType: string,
  body: Buffer,
): { text: string; kind: string; image?: ImagePart } | string {
  const kind = bodyKind(contentType, body);
  if (kind === 'image') {
    const image = body.length <= MAX_IMAGE_BYTES ? imageFromBytes(body, url) : undefined;
    return {
      text: imageResult(url, contentType, body.length, image !== undefined),
      kind,
      ...(image ? { image } : {}),
    };
  }
  if (kind === 'binary')
    return `${url} is binary (${contentType.split(';')[0] || 'no content type'}); web_fetch reads text, HTML and images only`;
  const decoded = decodeBody(contentType, body);
  if (kind === 'text') return { text: decoded, kind };
  const page = htmlToMarkdown(decoded, url);
  // A page its scripts fill in (a single-page app) has no text here: said, rather than a bare title.
  const markdown = page.markdown || NO_TEXT;
  return { text: page.title ? `# ${page.title}\n\n${markdown}` : markdown, kind };
}

async function condensed(
  text: string,
  prompt: string,
  url: string,
  ctx: ToolContext,
  condense: NonNullable<ToolContext['condense']>,
) {
  const saved = await ctx.saveText?.(text).catch(() => undefined);
  // Half the conversation budget at most goes into the one condensing request.
  const input = utf8Prefix(text, ctx.limits.maxOutputSize * 4);
  let summary: string;
  try {
    summary = await condense(input, prompt, ctx.signal);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    // The page is still worth reading: given whole (capped like any result), with why it was not condensed.
    const why = error instanceof Error ? error.message : String(error);
    return `${text}\n\n[not condensed: the model failed (${why})]`;
  }
  const size = Buffer.byteLength(text);
  const where = saved ? `; the whole page (${size} bytes) is saved in ${saved}: read it with read_file` : '';
  // A page larger than the condensing request takes: the summary covers its start only, and says so.
  const part =
    input.length < text.length ? ` from its first ${Buffer.byteLength(input)} of ${size} bytes` : '';
  return `${summary.trim()}\n\n[${url} condensed by the model${part} for: ${JSON.stringify(prompt)}${where}]`;
}

export const webFetchTool = defineTool({
  name: 'web_fetch',
  description: 'Fetch a web page as Markdown; with prompt, get it condensed to what you ask.',
  schema,
  safety: 'caution',
  async preview(args) {
    return { reads: [], writes: [], url: args.url, summary: `fetch ${args.url}` };
  },
  async execute(args, ctx) {
    if (!ctx.web) return fail('web access is not available in this run');
    let response: Awaited<ReturnType<typeof httpRequest>>;
    try {
      response = await httpRequest({
        url: args.url,
        headers: { accept: ACCEPT },
        maxBytes: MAX_BODY_BYTES,
        timeoutMs: FETCH_TIMEOUT_MS,
        signal: ctx.signal,
        allowPrivate: ctx.web.allowPrivate,
        lookup: ctx.web.lookup,
        classify: ctx.web.classify,
        authorize: ctx.authorizeUrl,
      });
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      return fail(networkError(error, args.url));
    }
    const { url, status, contentType, body, truncated } = response;
    const page = pageText(url, contentType, body);
    if (typeof page === 'string') return fail(page, { status });
    if (status >= 400) {
      const head = page.text.replace(NO_TEXT, '').slice(0, 500);
      return fail(`HTTP ${status} from ${url}${head.trim() ? `:\n${head}` : ''}`, { status });
    }
    const cut = truncated
      ? `\n\n[page cut: only its first ${MAX_BODY_BYTES / 1024 / 1024} MB were read]`
      : '';
    const moved = url === args.url ? '' : `[redirected to ${url}]\n`;
    const metadata = { status, url, bytes: body.length, ...(truncated ? { body_truncated: true } : {}) };
    if (args.prompt && ctx.condense && page.kind !== 'image') {
      const summary = await condensed(`${page.text}${cut}`, args.prompt, url, ctx, ctx.condense);
      return ok(`${moved}${summary}`, metadata, `fetched ${url} (${body.length} bytes), condensed`);
    }
    const result = ok(
      `${moved}${page.text}${cut}`,
      metadata,
      `fetched ${url} (${body.length} bytes${truncated ? ', cut' : ''})`,
    );
    return page.image && !truncated ? { ...result, images: [page.image] } : result;
  },
});
