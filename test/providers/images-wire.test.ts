// Images on each wire format: an attached image in the user's message and an image a tool returned, as each
// provider's API carries them (the AI SDK's own conversions, reached through ai-sdk.ts's image parts).
import { describe, expect, it } from 'vitest';
import type { ImagePart, Message } from '../../src/core/messages.js';
import type { Model } from '../../src/core/model.js';
import { toPrompt } from '../../src/providers/ai-sdk.js';
import { createAnthropicModel } from '../../src/providers/anthropic.js';
import { createGeminiModel } from '../../src/providers/gemini.js';
import { createOllamaModel } from '../../src/providers/ollama.js';
import { createOpenAICompatibleModel } from '../../src/providers/openai-compatible.js';
import { textToolModel } from '../../src/providers/text-tools.js';
import { useModelServers } from '../support/cleanup.js';
import type { ModelServer } from '../support/model-server.js';
import { collect, request } from './helpers.js';

const start = useModelServers();

/** A 1×1 PNG. */
const png =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const attached: ImagePart = { type: 'image', mediaType: 'image/png', data: png, name: 'shot.png', bytes: 70 };
const returned: ImagePart = { ...attached, name: 'logo.png' };

const conversation = (): Message[] => [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'what is in @shot.png?', images: [attached] },
  {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'call_1', name: 'read_file', input: '{"path":"logo.png"}' }],
  },
  {
    role: 'tool',
    toolCallId: 'call_1',
    toolName: 'read_file',
    content: 'logo.png: image/png',
    images: [returned],
  },
];

async function sentBody(create: (server: ModelServer) => Model) {
  const server = await start([{ text: 'a red dot' }]);
  await collect(create(server).stream(request(conversation())));
  expect(server.rejections).toEqual([]);
  return server.requests[0]!.body;
}

describe('images on the wire', () => {
  it('openai-compatible: an image_url data URL in the user message, tool images in a user message after the results', async () => {
    const body = await sentBody((s) =>
      createOpenAICompatibleModel({ model: 'gpt-4o', baseUrl: s.openaiUrl }),
    );
    const dataUrl = `data:image/png;base64,${png}`;
    expect(body.messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is in @shot.png?' },
        { type: 'image_url', image_url: { url: dataUrl } },
      ],
    });
    expect(body.messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'logo.png: image/png',
    });
    expect(body.messages[4].role).toBe('user');
    expect(body.messages[4].content[0].text).toContain('read_file (call call_1)');
    expect(body.messages[4].content[1]).toEqual({ type: 'image_url', image_url: { url: dataUrl } });
  });

  it('anthropic: base64 image blocks in the user message and inside the tool_result', async () => {
    const body = await sentBody((s) =>
      createAnthropicModel({ model: 'claude-sonnet-4-5', baseUrl: s.anthropicUrl, apiKey: 'k' }),
    );
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } };
    expect(body.messages[0].content).toContainEqual(expect.objectContaining(image));
    const result = body.messages[2].content.find((p: { type: string }) => p.type === 'tool_result');
    expect(result.content).toContainEqual(expect.objectContaining(image));
    expect(body.messages).toHaveLength(3);
  });

  it('gemini: inlineData in the user turn and in the functionResponse', async () => {
    const body = await sentBody((s) =>
      createGeminiModel({ model: 'gemini-2.5-flash', baseUrl: s.geminiUrl, apiKey: 'k' }),
    );
    const inline = { inlineData: { mimeType: 'image/png', data: png } };
    expect(body.contents[0].parts).toContainEqual(inline);
    const response = body.contents[2].parts.find((p: Record<string, unknown>) => p.functionResponse);
    expect(JSON.stringify(body.contents[2])).toContain(png);
    expect(response.functionResponse.name).toBe('read_file');
  });

  it('ollama: the base64 bytes in the message images field', async () => {
    const body = await sentBody((s) => createOllamaModel({ model: 'llava', baseUrl: s.ollamaUrl }));
    expect(body.messages[1]).toMatchObject({ role: 'user', content: 'what is in @shot.png?', images: [png] });
    expect(body.messages.at(-1)).toMatchObject({ role: 'user', images: [png] });
  });

  it('the text tool protocol keeps images on the user-role messages it writes', async () => {
    const body = await sentBody((s) =>
      textToolModel(createOllamaModel({ model: 'llava', baseUrl: s.ollamaUrl })),
    );
    const users = body.messages.filter((m: { role: string }) => m.role === 'user');
    expect(users.flatMap((m: { images?: string[] }) => m.images ?? [])).toEqual([png, png]);
  });
});

describe('toPrompt with images', () => {
  it('an image whose bytes are gone becomes a note in the text', () => {
    const gone: ImagePart = { type: 'image', mediaType: 'image/png', name: 'old.png', bytes: 2048 };
    const prompt = toPrompt([{ role: 'user', content: 'look', images: [gone] }]);
    expect(prompt[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'look\n[Keel: the image old.png (image/png, 2 KB) is no longer available]' },
      ],
    });
  });

  it('an error result sends no images', () => {
    const prompt = toPrompt([
      {
        role: 'tool',
        toolCallId: 'c',
        toolName: 'read_file',
        content: 'failed',
        isError: true,
        images: [attached],
      },
    ]);
    expect(prompt).toHaveLength(1);
  });
});
