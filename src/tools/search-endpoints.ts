// The search APIs web_search can use (web.search): how each is asked (Brave, Tavily, SearXNG) and its answer
// read back through a zod schema into title, URL and snippet.
import * as z from 'zod';
import { once } from '../core/once.js';
import type { SearchEndpoint } from './tool.js';
import type { HttpRequest } from './web-http.js';

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** Each provider's public API, used when web.search.url is not set (SearXNG has none: it is self-hosted). */
export const DEFAULT_SEARCH_URLS: Readonly<Record<SearchEndpoint['provider'], string | undefined>> = {
  brave: 'https://api.search.brave.com/res/v1/web/search',
  tavily: 'https://api.tavily.com/search',
  searxng: undefined,
};

const braveAnswer = once(() =>
  z.object({
    web: z
      .object({
        results: z
          .array(z.object({ title: z.string(), url: z.string(), description: z.string().optional() }))
          .default([]),
      })
      .optional(),
  }),
);

/** Tavily and SearXNG both answer `results: [{title, url, content}]`. */
const resultsAnswer = once(() =>
  z.object({
    results: z
      .array(z.object({ title: z.string().default(''), url: z.string(), content: z.string().nullish() }))
      .default([]),
  }),
);

/** The request for one search: the URL (also what the policy judges), method, headers and body. */
export function searchRequest(
  endpoint: SearchEndpoint,
  query: string,
  count: number,
  apiKey: string | undefined,
): Pick<HttpRequest, 'url' | 'method' | 'headers' | 'body'> {
  const accept = { accept: 'application/json' };
  switch (endpoint.provider) {
    case 'brave': {
      const url = new URL(endpoint.url);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(count));
      return { url: url.href, headers: { ...accept, ...(apiKey ? { 'x-subscription-token': apiKey } : {}) } };
    }
    case 'tavily':
      return {
        url: endpoint.url,
        method: 'POST',
        headers: {
          ...accept,
          'content-type': 'application/json',
          ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        },
        body: JSON.stringify({ query, max_results: count }),
      };
    case 'searxng': {
      const url = new URL(endpoint.url);
      if (!/\/search\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/$/, '')}/search`;
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      return {
        url: url.href,
        headers: { ...accept, ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      };
    }
  }
}

const collapse = (text: string): string =>
  text
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The hits of an answer, at most `count`; throws when the answer is not the provider's shape. */
export function searchHits(provider: SearchEndpoint['provider'], json: unknown, count: number): SearchHit[] {
  const hits =
    provider === 'brave'
      ? (braveAnswer().parse(json).web?.results ?? []).map((r) => ({
          title: r.title,
          url: r.url,
          snippet: r.description ?? '',
        }))
      : resultsAnswer()
          .parse(json)
          .results.map((r) => ({ title: r.title, url: r.url, snippet: r.content ?? '' }));
  // Brave marks matches with <strong>; snippets are read as plain text.
  return hits
    .slice(0, count)
    .map((h) => ({ title: collapse(h.title) || h.url, url: h.url, snippet: collapse(h.snippet) }));
}

/** The hits as the model reads them: numbered, title, URL, snippet. */
export function formatHits(query: string, hits: SearchHit[]): string {
  if (hits.length === 0) return `no results for ${JSON.stringify(query)}`;
  const lines = hits.map(
    (h, i) => `${i + 1}. ${h.title}\n   ${h.url}${h.snippet ? `\n   ${h.snippet}` : ''}`,
  );
  return `${lines.join('\n')}\n\nCite the sources you use by URL.`;
}
