// A run's web access for the tools (safety.web, web.search with its key from the credential store) and the model
// condensing a fetched page (web_fetch's prompt): one request, no tools.
import type { KeelConfig } from '../config/schema.js';
import type { Message } from '../core/messages.js';
import type { Model } from '../core/model.js';
import { CredentialStore } from '../providers/credentials.js';
import { DEFAULT_SEARCH_URLS } from '../tools/search-endpoints.js';
import type { SearchEndpoint, WebAccess } from '../tools/tool.js';

/** What the web tools may reach in this run; the search key is looked up when a search runs, not before. */
export function webAccess(config: KeelConfig, env: NodeJS.ProcessEnv): WebAccess {
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
  return { allowPrivate: config.safety.web.allow_private, ...(search ? { search } : {}) };
}

const CONDENSE_SYSTEM =
  'You condense a web page for a coding agent. Answer only from the page, concisely, keeping exact names, versions, code and URLs that matter. Say so when the page does not answer.';

/** The run's model, asked once without tools to condense a page as the prompt asks; its text answer. */
export function modelCondenser(
  model: Model,
): (text: string, prompt: string, signal: AbortSignal) => Promise<string> {
  return async (text, prompt, signal) => {
    const messages: Message[] = [
      { role: 'system', content: CONDENSE_SYSTEM },
      { role: 'user', content: `${prompt}\n\n<page>\n${text}\n</page>` },
    ];
    let answer = '';
    for await (const event of model.stream({ messages, tools: [], signal })) {
      if (event.type === 'text') answer += event.delta;
      // A retried response starts again.
      else if (event.type === 'retry') answer = '';
    }
    return answer;
  };
}
