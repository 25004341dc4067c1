// A run's web access for the tools (safety.web, web.search with its key from the credential store) and the model
// condensing a fetched page (web_fetch's prompt): one request, no tools.
import type { ToolSpend } from '../agent/tool-spend.js';
import type { KeelConfig } from '../config/schema.js';
import { type AgentEvent, usageEvent } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { Model } from '../core/model.js';
import { CredentialStore } from '../providers/credentials.js';
import { DEFAULT_SEARCH_URLS } from '../tools/search-endpoints.js';
import type { NativeSearch, SearchEndpoint, WebAccess } from '../tools/tool.js';

/**
 * What the web tools may reach in this run; the search key is looked up when a search runs, not before. Without a
 * configured endpoint, a model whose provider searches the web (Model.webSearch) searches for web_search.
 */
export function webAccess(config: KeelConfig, env: NodeJS.ProcessEnv, model?: Model): WebAccess {
  const configured = config.web.search;
  const url = configured ? (configured.url ?? DEFAULT_SEARCH_URLS[configured.provider]) : undefined;
  const search: SearchEndpoint | undefined =
    configured && url
      ? {
          provider: configured.provider,
          url,
          apiKey: async () => {
            if (configured.api_key) return configured.api_key;
            if (configured.provider === 'searxng') return undefined;
            return (await new CredentialStore({ env }).lookup(configured.provider))?.value;
          },
        }
      : undefined;
  const native = !search && model?.webSearch ? nativeSearch(model, model.webSearch.url) : undefined;
  return {
    allowPrivate: config.safety.web.allow_private,
    ...(search ? { search } : {}),
    ...(native ? { native } : {}),
  };
}

const SEARCH_SYSTEM =
  'You search the web for a coding agent. Search for the query, then answer with the most relevant results: for each, its title, URL and what it says that matters, concisely.';

/** One request with the provider's search tool: its answer, and the sources it cited or found. */
function nativeSearch(model: Model, url: string): NativeSearch {
  return {
    provider: model.provider,
    url,
    async search(query, maxResults, signal) {
      const messages: Message[] = [
        { role: 'system', content: SEARCH_SYSTEM },
        { role: 'user', content: query },
      ];
      let text = '';
      let sources: { url: string; title?: string }[] = [];
      for await (const event of model.stream({ messages, tools: [], signal, webSearch: { maxResults } })) {
        if (event.type === 'text') text += event.delta;
        else if (event.type === 'citation') {
          if (!sources.some((s) => s.url === event.url))
            sources.push({ url: event.url, ...(event.title ? { title: event.title } : {}) });
        } else if (event.type === 'retry') {
          // A retried response starts again.
          text = '';
          sources = [];
        }
      }
      return { text: text.trim(), sources: sources.slice(0, maxResults) };
    },
  };
}

const CONDENSE_SYSTEM =
  'You condense a web page for a coding agent. Answer only from the page, concisely, keeping exact names, versions, code and URLs that matter. Say so when the page does not answer.';

/**
 * The run's model, asked once without tools to condense a page as the prompt asks; its text answer. What the request
 * spends is in the run's totals (`spend`) and a usage event (turn 0: no turn's request) for the session and /cost.
 */
export function modelCondenser(
  model: Model,
  spend?: ToolSpend,
  emit?: (event: AgentEvent) => void,
): (text: string, prompt: string, signal: AbortSignal) => Promise<string> {
  return async (text, prompt, signal) => {
    const messages: Message[] = [
      { role: 'system', content: CONDENSE_SYSTEM },
      { role: 'user', content: `${prompt}\n\n<page>\n${text}\n</page>` },
    ];
    let answer = '';
    for await (const event of model.stream({ messages, tools: [], signal })) {
      if (event.type === 'text') answer += event.delta;
      else if (event.type === 'usage') {
        const used = usageEvent(0, event.usage, model);
        spend?.add(event.usage, used.cost_usd);
        emit?.(used);
      }
      // A retried response starts again.
      else if (event.type === 'retry') answer = '';
    }
    return answer;
  };
}
