// Keel's built-in model table (data): what is known of well-used models when their server does not say.
// Lookup (exact id, tag, vendor prefix, family prefix) lives in capabilities.ts.
//
// Context windows of gpt-5-mini, gpt-4o-mini, qwen3 and llama3 are XZatoma's token table, kept as a floor: Copilot
// serves gpt-5-mini with a 128k prompt, and Ollama's qwen3 builds differ (32k-40k). Other limits are the vendors'
// published ones. Prices are USD per million tokens at list price (Gemini 2.5 Pro: prompts up to 200k tokens) as
// published in 2025; an entry without a price is one we are not sure of. Ollama models run locally: no price.
// Cached input: Anthropic bills cache writes (5-minute TTL) at 1.25× and reads at 0.1× the input price; OpenAI
// reads at 0.1× (gpt-5), 0.25× (gpt-4.1) or 0.5× (gpt-4o) with free writes; Gemini 2.5 reads at 0.25×.
import type { Price } from '../core/model.js';

export interface ModelTableEntry {
  /** Lower-case id or family (`claude-sonnet-4-5`, `qwen3`). */
  id: string;
  contextWindow: number;
  maxOutput?: number;
  tools?: boolean;
  streaming?: boolean;
  /** Reads images (vision). */
  images?: boolean;
  price?: Price;
}

/** Cents of a cent are the finest a price list goes: 3 × 0.1 is 0.3, not 0.30000000000000004. */
const round = (n: number) => Math.round(n * 1e6) / 1e6;
/** A price with cached input read at `read` × and written at `write` × the input price. */
const usd = (inputPerMTok: number, outputPerMTok: number, read?: number, write?: number): Price => ({
  inputPerMTok,
  outputPerMTok,
  ...(read === undefined ? {} : { cacheReadPerMTok: round(inputPerMTok * read) }),
  ...(write === undefined ? {} : { cacheWritePerMTok: round(inputPerMTok * write) }),
});
const openai = (input: number, output: number, read: number) => usd(input, output, read);
const anthropic = (input: number, output: number) => usd(input, output, 0.1, 1.25);
const gemini = (input: number, output: number) => usd(input, output, 0.25);
const hosted = { tools: true, streaming: true } as const;
/** Every hosted model listed here reads images. */
const vision = { ...hosted, images: true } as const;

export const modelTable: readonly ModelTableEntry[] = [
  // OpenAI (also Copilot's and OpenRouter's `openai/…`)
  { id: 'gpt-5', contextWindow: 400_000, maxOutput: 128_000, ...vision, price: openai(1.25, 10, 0.1) },
  { id: 'gpt-5-mini', contextWindow: 128_000, ...vision, price: openai(0.25, 2, 0.1) },
  { id: 'gpt-4.1', contextWindow: 1_047_576, maxOutput: 32_768, ...vision, price: openai(2, 8, 0.25) },
  {
    id: 'gpt-4.1-mini',
    contextWindow: 1_047_576,
    maxOutput: 32_768,
    ...vision,
    price: openai(0.4, 1.6, 0.25),
  },
  {
    id: 'gpt-4.1-nano',
    contextWindow: 1_047_576,
    maxOutput: 32_768,
    ...vision,
    price: openai(0.1, 0.4, 0.25),
  },
  { id: 'gpt-4o', contextWindow: 128_000, maxOutput: 16_384, ...vision, price: openai(2.5, 10, 0.5) },
  { id: 'gpt-4o-mini', contextWindow: 128_000, maxOutput: 16_384, ...vision, price: openai(0.15, 0.6, 0.5) },
  // Anthropic (also OpenRouter's `anthropic/…`)
  { id: 'claude-sonnet-4-5', contextWindow: 200_000, maxOutput: 64_000, ...vision, price: anthropic(3, 15) },
  { id: 'claude-sonnet-4', contextWindow: 200_000, maxOutput: 64_000, ...vision, price: anthropic(3, 15) },
  { id: 'claude-haiku-4-5', contextWindow: 200_000, maxOutput: 64_000, ...vision, price: anthropic(1, 5) },
  { id: 'claude-opus-4-1', contextWindow: 200_000, maxOutput: 32_000, ...vision, price: anthropic(15, 75) },
  { id: 'claude-3-5-haiku', contextWindow: 200_000, maxOutput: 8_192, ...vision, price: anthropic(0.8, 4) },
  // Google Gemini (also OpenRouter's `google/…`)
  { id: 'gemini-2.5-pro', contextWindow: 1_048_576, maxOutput: 65_536, ...vision, price: gemini(1.25, 10) },
  { id: 'gemini-2.5-flash', contextWindow: 1_048_576, maxOutput: 65_536, ...vision, price: gemini(0.3, 2.5) },
  {
    id: 'gemini-2.5-flash-lite',
    contextWindow: 1_048_576,
    maxOutput: 65_536,
    ...vision,
    price: gemini(0.1, 0.4),
  },
  // Ollama families (tool and image support here is a hint; /api/show's capabilities decide)
  { id: 'qwen3', contextWindow: 32_768, tools: true, streaming: true },
  { id: 'qwen2.5-coder', contextWindow: 32_768, tools: true, streaming: true },
  { id: 'llama3', contextWindow: 8_192, tools: false, streaming: true },
  { id: 'llama3.1', contextWindow: 131_072, tools: true, streaming: true },
  { id: 'llama3.2', contextWindow: 131_072, tools: true, streaming: true },
  { id: 'llama3.2-vision', contextWindow: 131_072, tools: false, streaming: true, images: true },
  { id: 'llava', contextWindow: 4_096, tools: false, streaming: true, images: true },
  { id: 'qwen2.5vl', contextWindow: 128_000, tools: true, streaming: true, images: true },
  { id: 'gemma3', contextWindow: 131_072, tools: false, streaming: true, images: true },
];
