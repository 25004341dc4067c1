// The one config schema (zod): keys, types and defaults. Unknown keys are errors.
import { z } from 'zod';

export const providerNames = ['ollama', 'openai-compatible', 'replay'] as const;
export type ProviderName = (typeof providerNames)[number];

const positiveInt = z.number().int().positive();

export const configSchema = z
  .object({
    provider: z
      .object({
        type: z.enum(providerNames).default('ollama'),
        ollama: z
          .object({
            model: z.string().min(1).default('qwen3'),
            base_url: z.string().min(1).default('http://localhost:11434'),
          })
          .strict()
          .prefault({}),
        'openai-compatible': z
          .object({
            model: z.string().min(1).default('gpt-4o-mini'),
            base_url: z.string().min(1).default('https://api.openai.com/v1'),
            api_key: z.string().optional(),
          })
          .strict()
          .prefault({}),
        replay: z
          .object({
            cassette: z.string().optional(),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    agent: z
      .object({
        max_turns: positiveInt.default(100),
        timeout_seconds: positiveInt.default(600),
        conversation: z
          .object({
            max_tokens: positiveInt.default(100_000),
            min_retain_turns: positiveInt.default(5),
            prune_threshold: z.number().gt(0).lte(1).default(0.8),
          })
          .strict()
          .prefault({}),
        tools: z
          .object({
            max_output_size: positiveInt.default(1_048_576),
            max_file_read_size: positiveInt.default(10_485_760),
          })
          .strict()
          .prefault({}),
        terminal: z
          .object({
            default_mode: z
              .enum(['interactive', 'restricted_autonomous', 'full_autonomous'])
              .default('restricted_autonomous'),
            timeout_seconds: positiveInt.default(30),
            max_stdout_bytes: positiveInt.default(10_485_760),
            max_stderr_bytes: positiveInt.default(1_048_576),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type KeelConfig = z.infer<typeof configSchema>;
