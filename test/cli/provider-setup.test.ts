// The first run's decisions: whether a provider was chosen, which Ollama model to use, and what happens without one.
import { describe, expect, it } from 'vitest';
import { pickOllamaModel, providerChosen, type SetupFacts, setupStep } from '../../src/cli/provider-setup.js';

const defaults = {
  'provider.type': 'default',
  'provider.ollama.model': 'default',
  'provider.ollama.base_url': 'default',
  'agent.max_turns': 'default',
};

describe('providerChosen', () => {
  it.each([
    ['nothing set', {}, false],
    [
      'only OLLAMA_HOST (where Ollama is, not a choice)',
      { 'provider.ollama.base_url': 'env OLLAMA_HOST' },
      false,
    ],
    ['another key in the user file', { 'agent.max_turns': 'user file /c/config.yaml:2' }, false],
    ['provider.type in the user file', { 'provider.type': 'user file /c/config.yaml:2' }, true],
    ['--provider', { 'provider.type': 'flag --provider' }, true],
    ['KEEL_PROVIDER', { 'provider.type': 'env KEEL_PROVIDER' }, true],
    ['--base-url', { 'provider.ollama.base_url': 'flag --base-url' }, true],
    ['--model', { 'provider.ollama.model': 'flag --model' }, true],
    ['OLLAMA_API_KEY', { 'provider.ollama.api_key': 'env OLLAMA_API_KEY' }, true],
  ])('%s → %s', (_name, sources, chosen) => {
    expect(providerChosen({ ...defaults, ...sources })).toBe(chosen);
  });
});

describe('pickOllamaModel', () => {
  it.each([
    ['the configured model, as qwen3:latest', ['llama3.1:8b', 'qwen3:latest'], 'qwen3'],
    ['the configured model under another tag', ['llama3.1:8b', 'qwen3:14b'], 'qwen3:14b'],
    ['a known tool-calling family before an unknown model', ['phi3:mini', 'llama3.1:8b'], 'llama3.1:8b'],
    ['never an embedding model', ['nomic-embed-text:latest', 'tinyllama:latest'], 'tinyllama:latest'],
    ['nothing from embeddings only', ['nomic-embed-text:latest'], undefined],
    ['nothing from an empty list', [], undefined],
  ])('%s', (_name, models, picked) => {
    expect(pickOllamaModel(models, 'qwen3')).toBe(picked);
  });
});

describe('setupStep', () => {
  const base: SetupFacts = {
    chosen: false,
    ollamaUrl: 'http://127.0.0.1:11434',
    ollamaModel: 'qwen3',
    credentials: [],
    terminal: true,
  };
  it.each<[string, Partial<SetupFacts>, string, RegExp?]>([
    ['a chosen provider: nothing to do', { chosen: true }, 'go'],
    ['a terminal and an Ollama with models: Ollama, saved', { ollama: ['llama3.1:8b'] }, 'ollama'],
    [
      'headless, Ollama has the default model: as before',
      { terminal: false, ollama: ['qwen3:latest'] },
      'go',
    ],
    [
      'headless, Ollama lacks the default model: names the model to set',
      { terminal: false, ollama: ['llama3.1:8b'] },
      'fail',
      /keel config set provider\.ollama\.model llama3\.1:8b/,
    ],
    ['a terminal, no Ollama: the list', {}, 'choose'],
    ['a terminal, Ollama without models: the list', { ollama: [] }, 'choose'],
    [
      'headless, no Ollama, nothing stored: names the login and the config command',
      { terminal: false },
      'fail',
      /keel auth login openai && keel config set provider\.type openai/,
    ],
    [
      'headless, a stored credential: names the provider to set',
      { terminal: false, credentials: ['anthropic'] },
      'fail',
      /keel config set provider\.type anthropic/,
    ],
    [
      'headless, Ollama without models: names the pull',
      { terminal: false, ollama: [] },
      'fail',
      /ollama pull qwen3/,
    ],
  ])('%s', (_name, facts, kind, hint) => {
    const step = setupStep({ ...base, ...facts });
    expect(step.kind).toBe(kind);
    if (hint) expect(step.kind === 'fail' && step.hint).toMatch(hint);
    if (step.kind === 'ollama') expect(step.model).toBe('llama3.1:8b');
  });
});
