// What the hosted API providers (Gemini, OpenRouter, Anthropic, OpenAI) share: key env vars, base URLs, error context.
import { ProviderUnavailableError } from '../core/errors.js';
import { credentialEnvVar } from './credentials.js';
import type { ProviderErrorContext } from './errors.js';

export type HostedProvider = 'gemini' | 'openrouter' | 'anthropic' | 'openai';

/** Everything a hosted provider's factory needs; the key was resolved before (see index.ts). */
export interface HostedModelOptions {
  model: string;
  /** The API root as the provider's SDK takes it (`…/v1`, Gemini's `…/v1beta`). */
  baseUrl: string;
  apiKey: string;
}

const labels: Record<HostedProvider, string> = {
  gemini: 'Gemini',
  openrouter: 'OpenRouter',
  anthropic: 'Anthropic',
  openai: 'OpenAI',
};

/** Where an account's credit is added and its plan checked (Gemini's billing is the Google Cloud project's). */
const billingPages: Record<HostedProvider, string | undefined> = {
  gemini: undefined,
  openrouter: 'https://openrouter.ai/settings/credits',
  anthropic: 'https://console.anthropic.com/settings/billing',
  openai: 'https://platform.openai.com/settings/organization/billing',
};

/** The error for a hosted provider with no key anywhere: it names the variable to set and the login command. */
export function missingKey(provider: HostedProvider): ProviderUnavailableError {
  return new ProviderUnavailableError('credentials_rejected', `no API key for ${provider}`, {
    hint: `set ${credentialEnvVar[provider]} or run \`keel auth login ${provider}\``,
  });
}

/** App attribution OpenRouter uses for its rankings; not required, but asked of well-behaved clients. */
export const openRouterHeaders = {
  'HTTP-Referer': 'https://github.com/keel-agent/keel',
  'X-Title': 'Keel',
};

export function trimBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/** How a hosted provider's failures are worded: its label, its URL, the variable holding its key. */
export function hostedErrorContext(
  provider: HostedProvider,
  options: HostedModelOptions,
  baseUrl: string,
): ProviderErrorContext {
  const envVar = credentialEnvVar[provider];
  const billing = billingPages[provider];
  return {
    label: labels[provider],
    provider,
    baseUrl,
    modelId: options.model,
    unreachableHint: `check your network and provider.${provider}.base_url / --base-url`,
    credentialsEnv: envVar,
    credentialsHint: `check that the key in ${envVar} (or stored by \`keel auth login ${provider}\`) is valid`,
    notFoundHint: `choose another model with --model (\`keel models ${provider}\` lists them)`,
    ...(billing ? { creditHint: `add credit or check the plan of the key's account at ${billing}` } : {}),
    secrets: [options.apiKey],
  };
}
