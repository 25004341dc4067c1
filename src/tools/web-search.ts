// web_search: a query through the configured search API (web.search), results as title, URL and snippet, each a
// citation listed under the answer; without one, through the provider's own search (Anthropic's web search tool,
// OpenAI's in the Responses API, Gemini's Google Search grounding, OpenRouter's web plugin), its answer with the
// sources it found. The policy judges the endpoint's (or the provider API's) domain like any web access.
import * as z from 'zod';
import { formatHits, searchHits, searchRequest } from './search-endpoints.js';
import { defineTool, fail, type NativeSearch, ok } from './tool.js';
import { httpRequest, networkError } from './web-http.js';

const schema = z.strictObject({
  query: z.string().min(1).describe('search query'),
  max_results: z.number().int().min(1).max(20).default(5).describe('default 5'),
});

const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
const SEARCH_TIMEOUT_MS = 30_000;

export const webSearchTool = defineTool({
  name: 'web_search',
  description: 'Search the web: titles, URLs and snippets.',
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const search = ctx.web?.search;
    const native = search ? undefined : ctx.web?.native;
    // The URL judged is the endpoint's (or the provider's API); the query is in the summary, never the key.
    const url = search ? searchRequest(search, args.query, args.max_results, undefined).url : native?.url;
    const by = search?.provider ?? (native ? `${native.provider}'s own search` : undefined);
    return {
      reads: [],
      writes: [],
      ...(url ? { url } : {}),
      summary: `search the web for ${JSON.stringify(args.query)}${by ? ` (${by})` : ''}`,
    };
  },
  async execute(args, ctx) {
    const search = ctx.web?.search;
    const native = ctx.web?.native;
    if (!search && native) return searchNatively(native, args.query, args.max_results, ctx.signal);
    if (!search) return fail('web search is not configured (web.search in the config)');
    const key = await search.apiKey();
    if (!key && search.provider !== 'searxng') {
      const variable = search.provider === 'brave' ? 'BRAVE_API_KEY' : 'TAVILY_API_KEY';
      return fail(
        `no API key for ${search.provider}: set ${variable}, run \`keel auth login ${search.provider}\` or set web.search.api_key`,
      );
    }
    const request = searchRequest(search, args.query, args.max_results, key);
    let text: string;
    let status: number;
    try {
      const response = await httpRequest({
        ...request,
        maxBytes: MAX_ANSWER_BYTES,
        timeoutMs: SEARCH_TIMEOUT_MS,
        signal: ctx.signal,
        // The endpoint is the user's choice (a SearXNG on this machine is common): no private-address check.
        allowPrivate: true,
        lookup: ctx.web?.lookup,
        authorize: ctx.authorizeUrl,
      });
      text = response.body.toString('utf8');
      status = response.status;
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      return fail(networkError(error, new URL(request.url).origin));
    }
    if (status >= 400)
      return fail(`${search.provider} answered HTTP ${status}: ${text.slice(0, 300)}`, { status });
    let hits: ReturnType<typeof searchHits>;
    try {
      hits = searchHits(search.provider, JSON.parse(text), args.max_results);
    } catch {
      return fail(
        `${search.provider} answered something other than its search results: ${text.slice(0, 200)}`,
      );
    }
    const result = ok(
      formatHits(args.query, hits),
      { results: hits.length },
      `${hits.length} result${hits.length === 1 ? '' : 's'}`,
    );
    return { ...result, citations: hits.map((h) => ({ url: h.url, title: h.title })) };
  },
});

/** The provider searches: its answer, then its sources numbered, each a citation. */
async function searchNatively(native: NativeSearch, query: string, max: number, signal: AbortSignal) {
  let found: Awaited<ReturnType<NativeSearch['search']>>;
  try {
    found = await native.search(query, max, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const why = error instanceof Error ? error.message : String(error);
    return fail(`${native.provider}'s web search failed: ${why}`);
  }
  if (found.sources.length === 0 && found.text === '')
    return fail(`${native.provider}'s web search found nothing for ${JSON.stringify(query)}`);
  const listed = found.sources.map((s, i) => `[${i + 1}] ${s.title ? `${s.title} — ` : ''}${s.url}`);
  const text = [found.text, listed.length > 0 ? `Sources:\n${listed.join('\n')}` : '']
    .filter(Boolean)
    .join('\n\n');
  const result = ok(
    text,
    { results: found.sources.length, via: native.provider },
    `${found.sources.length} sources`,
  );
  return { ...result, citations: found.sources };
}
