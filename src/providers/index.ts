// Chooses the model for the configured provider, loading only that provider's code (start-up stays lean).
import type { KeelConfig } from '../config/schema.js';
import { CassetteError } from '../core/errors.js';
import type { Model } from './model.js';

export interface CreateModelOptions {
  /** Record every response of the chosen model to this cassette file. */
  record?: string;
}

export async function createModel(
  provider: KeelConfig['provider'],
  options: CreateModelOptions = {},
): Promise<Model> {
  const model = await baseModel(provider);
  if (!options.record) return model;
  const { recordingModel } = await import('./record.js');
  return recordingModel(model, options.record);
}

async function baseModel(provider: KeelConfig['provider']): Promise<Model> {
  switch (provider.type) {
    case 'ollama': {
      const { createOllamaModel } = await import('./ollama.js');
      return createOllamaModel({ model: provider.ollama.model, baseUrl: provider.ollama.base_url });
    }
    case 'openai-compatible': {
      const settings = provider['openai-compatible'];
      const { createOpenAICompatibleModel } = await import('./openai-compatible.js');
      return createOpenAICompatibleModel({
        model: settings.model,
        baseUrl: settings.base_url,
        apiKey: settings.api_key,
      });
    }
    case 'replay': {
      const cassette = provider.replay.cassette;
      if (!cassette) {
        throw new CassetteError(
          'cassette_invalid',
          'provider replay needs a cassette: pass --cassette <file>',
        );
      }
      const { replayModel } = await import('./replay.js');
      return replayModel(cassette);
    }
  }
}
