// web_search through the provider's own search (no web.search endpoint configured), over each provider's wire
// format against the scripted model server: the search request carries the provider's search tool (Anthropic's
// web_search, OpenAI's web_search in the Responses API, Gemini's google_search grounding, OpenRouter's web plugin),
// its results come back to the model as the answer with its sources, and each source is a citation of the run.
import { describe, expect, it } from 'vitest';
import { runAgent } from '../support/agent-in-process.js';
import { useE2E, wireProviders } from '../support/e2e.js';
import type { ReceivedRequest, ScriptedReply } from '../support/model-server.js';

const { server, workspace } = useE2E();

const RESULTS = [
  { url: 'https://nodejs.org/en/blog/release/v20.0.0', title: 'Node.js 20 release' },
  { url: 'https://github.com/nodejs/release', title: 'Node.js release schedule' },
];

type Searching = 'anthropic' | 'gemini' | 'openai' | 'openrouter';

/** What the provider's search request must carry, read from its body. */
const searchTool: Record<Searching, (request: ReceivedRequest) => unknown> = {
  anthropic: (r) => r.body.tools,
  gemini: (r) => r.body.tools,
  openai: (r) => r.body.tools,
  openrouter: (r) => r.body.plugins,
};
const expectedTool: Record<Searching, unknown> = {
  anthropic: [expect.objectContaining({ type: 'web_search_20250305', name: 'web_search', max_uses: 1 })],
  gemini: [{ googleSearch: {} }],
  openai: [expect.objectContaining({ type: 'web_search' })],
  openrouter: [{ id: 'web', max_results: 2 }],
};
/** Where each provider's search request goes. */
const searchPath: Record<Searching, RegExp> = {
  anthropic: /\/v1\/messages$/,
  gemini: /:streamGenerateContent$/,
  openai: /\/v1\/responses$/,
  openrouter: /\/v1\/chat\/completions$/,
};

/** The search answer as each wire carries it: OpenRouter's results are url_citation annotations. */
const searchReply = (provider: Searching): ScriptedReply =>
  provider === 'openrouter'
    ? { text: 'Node 20 is an LTS release.', citations: RESULTS }
    : { text: 'Node 20 is an LTS release.', searchResults: RESULTS };

describe('web_search through the provider’s own search', () => {
  it.each(
    wireProviders.filter((p): p is (typeof wireProviders)[number] & { provider: Searching } =>
      ['anthropic', 'gemini', 'openai', 'openrouter'].includes(p.provider),
    ),
  )('$provider: the provider searches, and the model gets its answer and sources', async (p) => {
    const s = await server([
      { toolCalls: [{ name: 'web_search', args: { query: 'node 20 release', max_results: 2 } }] },
      searchReply(p.provider),
      { text: 'Node 20 is LTS.' },
    ]);
    const ws = await workspace();
    const { result, events } = await runAgent(s, ws, 'look up the latest node release', {
      // Google's SDK offers grounding to Gemini 2 and later only.
      flags: {
        provider: p.provider,
        baseUrl: s[p.url],
        model: p.provider === 'gemini' ? 'gemini-2.5-flash' : 'test-model',
      },
      mode: 'full',
      sandbox: false,
      env: { [p.envVar!]: 'sk-scripted-test' },
    });
    expect(result.reason).toBe('done');
    const [, search, last] = s.requests;
    expect(search!.path).toMatch(searchPath[p.provider]);
    expect(searchTool[p.provider](search!)).toEqual(expectedTool[p.provider]);
    const tool = JSON.stringify(last!.body);
    expect(tool).toContain('Node 20 is an LTS release.');
    for (const r of RESULTS) {
      expect(tool).toContain(r.url);
      expect(tool).toContain(r.title);
    }
    const cited = events.flatMap((e) => (e.type === 'citation' ? [e.url] : []));
    expect(cited).toEqual(RESULTS.map((r) => r.url));
  });

  it('is not offered by a provider without its own search and no endpoint configured', async () => {
    const s = await server([{ text: 'no search here' }]);
    const ws = await workspace();
    await runAgent(s, ws, 'look up the latest node release online', { mode: 'full', sandbox: false });
    const names = (s.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(names).toContain('web_fetch');
    expect(names).not.toContain('web_search');
  });
});
