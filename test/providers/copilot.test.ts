// Copilot against a scripted GitHub and model server: device flow, token exchange and refresh, chat headers, models.
import { describe, expect, it } from 'vitest';
import type { ModelEvent } from '../../src/core/model.js';
import { createCopilotModel, listCopilotModels } from '../../src/providers/copilot.js';
import { pollAccessToken, requestDeviceCode } from '../../src/providers/copilot-login.js';
import { CopilotTokenSource, exchangeCopilotToken } from '../../src/providers/copilot-token.js';
import { trackedModelServer, useCleanup } from '../support/cleanup.js';
import { type GitHubServer, type GitHubServerOptions, startGitHubServer } from '../support/github-server.js';
import type { ModelServer, ScriptStep } from '../support/model-server.js';
import { ask, collect, failure, request } from './helpers.js';

const track = useCleanup();
const text = (events: ModelEvent[]) => events.map((e) => (e.type === 'text' ? e.delta : '')).join('');

async function github(options: GitHubServerOptions = {}): Promise<GitHubServer> {
  const s = await startGitHubServer(options);
  track(s.close);
  return s;
}
const models = (script: ScriptStep[]): Promise<ModelServer> => trackedModelServer(track, script);

describe('device flow', () => {
  it('asks for a code with the Copilot client id, then polls through pending until granted', async () => {
    const gh = await github({ polls: ['pending', 'pending', 'granted'], githubToken: 'ghu_new' });
    const code = await requestDeviceCode(gh.url);
    expect(code).toMatchObject({ userCode: 'WDJB-MJHT', verificationUri: `${gh.url}/login/device` });
    expect(await pollAccessToken(gh.url, code)).toBe('ghu_new');
    const [device, ...polls] = gh.requests;
    expect(device!.body).toEqual({ client_id: 'Iv1.b507a08c87ecfe98', scope: 'read:user' });
    expect(device!.headers.accept).toBe('application/json');
    expect(polls).toHaveLength(3);
    expect(polls[0]!.body).toEqual({
      client_id: 'Iv1.b507a08c87ecfe98',
      device_code: 'device-123',
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
    });
  });

  it('slows down when told to', async () => {
    const gh = await github({
      polls: ['slow_down', 'pending', 'granted'],
      interval: 0.01,
      slowDownInterval: 0.15,
    });
    await pollAccessToken(gh.url, await requestDeviceCode(gh.url));
    const times = gh.requests.filter((r) => r.route.endsWith('access_token')).map((r) => r.at);
    // The poll after slow_down waits the interval GitHub named (0.15 s), not the first one (0.01 s).
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(120);
  });

  it.each([
    ['denied', 'the GitHub login was denied'],
    ['expired', 'the GitHub login code expired before it was entered'],
  ] as const)('a %s login is a credentials error (exit 3)', async (answer, message) => {
    const gh = await github({ polls: ['pending', answer] });
    const error = await pollAccessToken(gh.url, await requestDeviceCode(gh.url)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'credentials_rejected', exitCode: 3, message });
  });
});

describe('token exchange', () => {
  it('sends the GitHub token and editor headers, and returns the token, expiry in ms and endpoint', async () => {
    const gh = await github({ githubToken: 'ghu_x', apiUrl: 'http://chat.example', tokenTtlSeconds: 1000 });
    const before = Date.now();
    const token = await exchangeCopilotToken('ghu_x', { githubApiUrl: `${gh.url}/` });
    expect(token.token).toBe('copilot-token-1');
    expect(token.apiUrl).toBe('http://chat.example');
    expect(token.expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 999_000);
    const headers = gh.requests[0]!.headers;
    expect(headers.authorization).toBe('token ghu_x');
    expect(headers['editor-version']).toMatch(/^vscode\//);
    expect(headers['editor-plugin-version']).toMatch(/^copilot-chat\//);
    expect(headers['user-agent']).toMatch(/^GitHubCopilotChat\//);
  });

  it.each([401, 403, 404])(
    'HTTP %i means no Copilot access (exit 3) and never echoes the token',
    async (status) => {
      const gh = await github({ exchangeStatus: status });
      const error = await exchangeCopilotToken('ghu_CANARY', { githubApiUrl: gh.url }).catch((e: Error) => e);
      expect(error).toMatchObject({ exitCode: 3, hint: 'run `keel auth login copilot` or set GITHUB_TOKEN' });
      expect((error as Error).message).toContain('no Copilot access or the token was revoked');
      expect((error as Error).message).not.toContain('CANARY');
    },
  );

  it('a token source reuses a fresh token and exchanges again within the margin of expiry', async () => {
    const gh = await github({ githubToken: 'g', tokenTtlSeconds: 600 });
    let now = Date.now();
    const source = new CopilotTokenSource('g', { githubApiUrl: gh.url, marginMs: 60_000, now: () => now });
    expect((await source.get()).token).toBe('copilot-token-1');
    expect((await source.get()).token).toBe('copilot-token-1');
    now += 541_000; // 59 s left: inside the margin
    expect((await source.get()).token).toBe('copilot-token-2');
  });
});

describe('chat', () => {
  const answer: ScriptStep[] = [{ text: 'hello' }];

  it('streams from the endpoint the token names, with Copilot headers and the current token', async () => {
    const chat = await models([
      { text: 'Hi ', toolCalls: [{ name: 'read_file', args: { path: 'a' } }] },
      { text: 'done' },
    ]);
    const gh = await github({ githubToken: 'ghu_a', apiUrl: chat.openaiUrl });
    const model = createCopilotModel({ model: 'gpt-4.1', githubToken: 'ghu_a', githubApiUrl: gh.url });
    expect(model.provider).toBe('copilot');
    const events = await collect(model.stream(request(ask('read a'))));
    expect(events).toContainEqual({
      type: 'tool-call',
      call: { id: 'call_1_0', name: 'read_file', input: '{"path":"a"}' },
    });
    const first = chat.requests[0]!;
    expect(first.headers.authorization).toBe('Bearer copilot-token-1');
    expect(first.headers['copilot-integration-id']).toBe('vscode-chat');
    expect(first.headers['openai-intent']).toBe('conversation-edits');
    expect(first.headers['editor-version']).toMatch(/^vscode\//);
    expect(first.headers['x-initiator']).toBe('user');
    expect(first.body.model).toBe('gpt-4.1');

    await collect(
      model.stream(
        request([
          ...ask('read a'),
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'call_1_0', name: 'read_file', input: '{"path":"a"}' }],
          },
          { role: 'tool', toolCallId: 'call_1_0', toolName: 'read_file', content: 'A', isError: false },
        ]),
      ),
    );
    expect(chat.requests[1]!.headers['x-initiator']).toBe('agent');
    expect(gh.issued).toEqual(['copilot-token-1']); // still fresh: one exchange for both
  });

  it('base_url overrides the endpoint the token names', async () => {
    const chat = await models(answer);
    const gh = await github({ githubToken: 'g', apiUrl: 'http://127.0.0.1:9' });
    const model = createCopilotModel({
      model: 'm',
      githubToken: 'g',
      githubApiUrl: gh.url,
      baseUrl: chat.openaiUrl,
    });
    expect(text(await collect(model.stream(request(ask('hi')))))).toBe('hello');
  });

  it('an expired token is exchanged again before the request', async () => {
    const chat = await models([{ text: 'one' }, { text: 'two' }]);
    const gh = await github({ githubToken: 'g', apiUrl: chat.openaiUrl, tokenTtlSeconds: 30 }); // < 60 s margin
    const model = createCopilotModel({ model: 'm', githubToken: 'g', githubApiUrl: gh.url });
    await collect(model.stream(request(ask('a'))));
    await collect(model.stream(request(ask('b'))));
    expect(chat.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer copilot-token-1',
      'Bearer copilot-token-2',
    ]);
  });

  it('a 401 from chat refreshes the token once and retries', async () => {
    const chat = await models([
      { status: 401, errorBody: { error: { message: 'token expired' } } },
      { text: 'ok' },
    ]);
    const gh = await github({ githubToken: 'g', apiUrl: chat.openaiUrl });
    const model = createCopilotModel({ model: 'm', githubToken: 'g', githubApiUrl: gh.url });
    expect(text(await collect(model.stream(request(ask('a')))))).toBe('ok');
    expect(chat.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer copilot-token-1',
      'Bearer copilot-token-2',
    ]);
  });

  it('a second 401 is a credentials error, without the GitHub token in it', async () => {
    const reject = { status: 401, errorBody: { error: { message: 'bad ghu_CANARY' } } };
    const chat = await models([reject, reject]);
    const gh = await github({ githubToken: 'ghu_CANARY', apiUrl: chat.openaiUrl });
    const model = createCopilotModel({ model: 'm', githubToken: 'ghu_CANARY', githubApiUrl: gh.url });
    const error = await failure(model, request(ask('a')));
    expect(error).toMatchObject({ code: 'credentials_rejected' });
    expect(`${error.message} ${error.hint}`).not.toContain('CANARY');
    expect(chat.requests).toHaveLength(2);
  });
});

describe('chat errors', () => {
  it('names the endpoint the token named, not the default one, in a server error', async () => {
    const chat = await models([{ status: 500 }]);
    const gh = await github({ githubToken: 'g', apiUrl: chat.openaiUrl });
    const model = createCopilotModel({ model: 'm', githubToken: 'g', githubApiUrl: gh.url });
    const error = await failure(model, request(ask('a')));
    expect(error.message).toBe(`GitHub Copilot at ${chat.openaiUrl} answered HTTP 500: scripted error`);
    expect(error.message).not.toContain('api.githubcopilot.com');
  });

  it("reads Copilot's 400 model_not_supported as an unknown model (exit 2)", async () => {
    const chat = await models([
      {
        status: 400,
        errorBody: {
          error: {
            message: 'The requested model is not supported.',
            code: 'model_not_supported',
            param: 'model',
            type: 'invalid_request_error',
          },
        },
      },
    ]);
    const gh = await github({ githubToken: 'g', apiUrl: chat.openaiUrl });
    const model = createCopilotModel({ model: 'gpt-9', githubToken: 'g', githubApiUrl: gh.url });
    const error = await failure(model, request(ask('a')));
    expect(error).toMatchObject({
      code: 'model_not_found',
      exitCode: 2,
      message: 'model "gpt-9" not found at GitHub Copilot (The requested model is not supported.)',
    });
    expect(error.hint).toContain('keel models copilot');
  });
});

describe('model list', () => {
  it('keeps enabled chat models, one per family, with their limits', async () => {
    const gh = await github({ githubToken: 'g' });
    const list = await listCopilotModels({ githubToken: 'g', githubApiUrl: gh.url });
    expect(list).toEqual([
      {
        id: 'gpt-4.1',
        name: 'GPT-4.1',
        vendor: 'Azure OpenAI',
        contextWindow: 111000,
        maxOutputTokens: 16384,
        toolCalls: true,
        streaming: true,
      },
    ]);
    const modelsRequest = gh.requests.find((r) => r.route === 'GET /models')!;
    expect(modelsRequest.headers.authorization).toBe('Bearer copilot-token-1');
    expect(modelsRequest.headers['copilot-integration-id']).toBe('vscode-chat');
  });
});
