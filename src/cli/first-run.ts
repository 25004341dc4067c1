// A first run that sets itself up: with no provider chosen, an Ollama on this machine is used (and saved), or the
// user picks a provider at the terminal, logs in, and the chat goes on; headless, one error names the command.
// The decisions are provider-setup.ts's; this file asks, probes and writes.

import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { userConfigPath } from '../config/paths.js';
import { ExitCode, KeelError } from '../core/errors.js';
import {
  type CredentialProvider,
  CredentialStore,
  credentialEnvVar,
  missingApiKey,
} from '../providers/credentials.js';
import { listOllamaTags, normalizeOllamaHost } from '../providers/ollama-api.js';
import { terminalColumns, wrapFor } from '../ui/wrap.js';
import type { GlobalOptions } from './global-options.js';
import { pickOllamaModel, providerChosen, type SetupFacts, setupStep } from './provider-setup.js';
import { reportFailure, runFailureJson } from './report.js';
import { loadConfigFor } from './run-options.js';
import { discardTypeAhead } from './secret-input.js';

/** How long a first run waits for Ollama's model list: on this machine it answers at once or not at all. */
const PROBE_MS = 1500;

const choices: { name: CredentialProvider | 'ollama'; text: string }[] = [
  { name: 'copilot', text: 'GitHub Copilot: log in with your GitHub account' },
  { name: 'anthropic', text: 'Anthropic: an API key' },
  { name: 'openai', text: 'OpenAI: an API key' },
  { name: 'gemini', text: 'Google Gemini: an API key' },
  { name: 'openrouter', text: 'OpenRouter: an API key, many models' },
  { name: 'ollama', text: 'Ollama: models on this machine' },
];

async function ollamaModels(loaded: LoadedConfig): Promise<{ url: string; models?: string[] }> {
  const { base_url: baseUrl, api_key: apiKey } = loaded.config.provider.ollama;
  const url = normalizeOllamaHost(baseUrl);
  const models = await listOllamaTags(url, AbortSignal.timeout(PROBE_MS), apiKey).catch(() => undefined);
  return { url, ...(models ? { models } : {}) };
}

async function foundCredentials(): Promise<CredentialProvider[]> {
  const rows = await new CredentialStore({ env: process.env }).status().catch(() => []);
  return rows.filter((row) => row.source !== 'none').map((row) => row.provider);
}

/** One line from the terminal, typed after the question showed; null on Ctrl-C or Ctrl-D. */
async function ask(prompt: string): Promise<string | null> {
  await discardTypeAhead();
  // Required here, not imported: only the first run's questions use readline, and loading it costs every start.
  const { createInterface } = createRequire(import.meta.url)(
    'node:readline',
  ) as typeof import('node:readline');
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  return new Promise((done) => {
    let answered = false;
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => {
      if (!answered) process.stderr.write('\n');
      done(answered ? answer : null);
    });
    let answer = '';
    rl.question(prompt, (line) => {
      answer = line.trim();
      answered = true;
      rl.close();
    });
  });
}

/**
 * Before a chat or run starts: undefined to go on (a provider is chosen, or was just set up), or the exit code to
 * stop with, its message printed (headless without a provider, the user leaving the question, a failed login).
 * A config that does not load is left to the run to report.
 */
export async function ensureProvider(options: GlobalOptions, terminal: boolean): Promise<number | undefined> {
  return (await providerSetUp(options, terminal)).stop;
}

/**
 * ensureProvider, also handing back the config it loaded when nothing was written to it since: the run takes it
 * rather than loading and validating the same files again before its first request.
 */
export async function providerSetUp(
  options: GlobalOptions,
  terminal: boolean,
): Promise<{ stop?: number; loaded?: LoadedConfig }> {
  const loaded = await loadConfigFor(options).catch(() => undefined);
  try {
    const stop = await setUp(loaded, options, terminal);
    if (stop !== undefined) return { stop };
    return loaded && !written.has(loaded) ? { loaded } : {};
  } catch (error) {
    return { stop: reportFailure(error, { debug: options.debug, json: runFailureJson(options.output) }) };
  }
}

/** The config editor brings the YAML document model: loaded only when set-up writes the user's choice. */
const configEditor = () => import('../config/edit.js');

/** Configs a set-up step may have written a provider over: stale for the run. */
const written = new WeakSet<LoadedConfig>();

async function setUp(
  loaded: LoadedConfig | undefined,
  options: GlobalOptions,
  terminal: boolean,
): Promise<number | undefined> {
  if (!loaded) return undefined;
  if (providerChosen(loaded.sources)) return terminal ? logInIfNoKey(loaded) : undefined;
  const ollama = await ollamaModels(loaded);
  const facts: SetupFacts = {
    chosen: false,
    ollamaUrl: ollama.url,
    ollamaModel: loaded.config.provider.ollama.model,
    credentials: ollama.models?.length ? [] : await foundCredentials(),
    terminal,
    ...(ollama.models ? { ollama: ollama.models } : {}),
  };
  const step = setupStep(facts);
  if (step.kind !== 'go') written.add(loaded);
  const file = options.config === undefined ? userConfigPath(process.env) : resolve(options.config);
  switch (step.kind) {
    case 'go':
      return undefined;
    case 'fail':
      // A provider an untrusted project file chose, ignored, may be why none is: its warning says so, and how to trust.
      for (const warning of loaded.warnings) say(`warning: ${warning}\n`);
      throw new KeelError('no_provider', ExitCode.provider, step.message, { hint: step.hint });
    case 'ollama':
      await (await configEditor()).setConfigValues(file, {
        'provider.type': 'ollama',
        'provider.ollama.model': step.model,
      });
      say(
        `Found Ollama at ${ollama.url}: using ${step.model} (saved to ${file}; keel config set provider.ollama.model <name> changes it)\n`,
      );
      return undefined;
    case 'choose':
      return choose(loaded, file, facts, step.note);
  }
}

/** A message on stderr, wrapped at word boundaries on a terminal (a pipe gets it whole). */
const say = (text: string) => process.stderr.write(wrapFor(text, terminalColumns(process.stderr)));

/** At a terminal, a chosen provider whose key is nowhere (environment, keyring, credentials file): log in now. */
async function logInIfNoKey(loaded: LoadedConfig): Promise<number | undefined> {
  const provider = await missingApiKey(loaded.config.provider.type, process.env);
  if (provider === undefined) return undefined;
  const out = { print: (text: string) => void process.stdout.write(text), notice: say };
  const { logInForKey } = await import('./auth-command.js');
  return (await logInForKey(provider, out)) ? undefined : ExitCode.interrupted;
}

async function choose(
  loaded: LoadedConfig,
  file: string,
  facts: SetupFacts,
  note: string | undefined,
): Promise<number | undefined> {
  const lines = choices.map((c, i) => {
    const found = facts.credentials.includes(c.name as CredentialProvider) ? ' (credential found)' : '';
    return `  ${i + 1}) ${c.name.padEnd(11)}${c.text}${found}\n`;
  });
  say(
    `No provider is set up yet${note ? ` (${note})` : ''}. Which one should Keel use?\n${lines.join('')}` +
      '  (an OpenAI-compatible server: keel config set provider.type openai-compatible, then its base_url)\n',
  );
  let picked: (typeof choices)[number] | undefined;
  while (!picked) {
    const answer = await ask(`choose 1-${choices.length}: `);
    if (answer === null) return ExitCode.interrupted;
    picked = choices[Number(answer) - 1] ?? choices.find((c) => c.name === answer.toLowerCase());
  }
  if (picked.name === 'ollama') {
    const again = await ollamaModels(loaded);
    const model = again.models && pickOllamaModel(again.models, facts.ollamaModel);
    await (await configEditor()).setConfigValues(file, {
      'provider.type': 'ollama',
      ...(model ? { 'provider.ollama.model': model } : {}),
    });
    if (model) {
      say(`using Ollama at ${again.url} with ${model} (saved to ${file})\n`);
      return undefined;
    }
    say(
      `saved provider.type: ollama to ${file}; start Ollama (ollama serve), pull a model (ollama pull qwen3) and run keel again\n`,
    );
    return ExitCode.provider;
  }
  const provider = picked.name;
  if (!facts.credentials.includes(provider)) {
    say(
      provider === 'copilot'
        ? 'Logging in to GitHub Copilot (as keel auth login copilot does)\n'
        : `The key is stored as keel auth login ${provider} stores it (${credentialEnvVar[provider]} in the environment also works)\n`,
    );
    try {
      await (await import('./auth-command.js')).logIn(provider, loaded.config.provider.copilot.github_url);
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') return ExitCode.interrupted;
      throw error;
    }
  }
  await (await configEditor()).setConfigValues(file, { 'provider.type': provider });
  say(`saved provider.type: ${provider} to ${file}\n`);
  return undefined;
}
