// `keel auth login|logout|status [provider]`: stores, removes and lists provider credentials (never printing them).
import type { LoadedConfig } from '../config/load.js';
import { ExitCode, isAbortError, UsageError } from '../core/errors.js';
import {
  type CredentialProvider,
  type CredentialSource,
  CredentialStore,
  credentialEnvVar,
  credentialProviders,
  isCredentialProvider,
} from '../providers/credentials.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { terminalColumns, wrapFor } from '../ui/wrap.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure, reportWarnings } from './report.js';
import { loadConfigFor } from './run-options.js';
import { readSecret, type SecretIo } from './secret-input.js';
import { interruptSignal } from './signals.js';

export interface AuthLoginOptions extends GlobalOptions {
  /** False with --no-store. */
  store?: boolean;
}

type ConfigLoader = () => Promise<LoadedConfig>;

/** Loads the config at most once per command, so its warnings are printed once. */
function configLoader(options: GlobalOptions): ConfigLoader {
  let loading: Promise<LoadedConfig> | undefined;
  return () => {
    loading ??= loadConfigFor(options).then((loaded) => {
      reportWarnings(loaded.warnings);
      return loaded;
    });
    return loading;
  };
}

/** The named provider, or the configured one when none is named. */
async function asProvider(name: string | undefined, load: ConfigLoader): Promise<CredentialProvider> {
  if (name === undefined) {
    const configured = (await load()).config.provider.type;
    if (isCredentialProvider(configured)) return configured;
    throw new UsageError(`the configured provider ${configured} needs no login`, {
      hint: `name a provider: keel auth login <${credentialProviders.join('|')}>`,
    });
  }
  if (isCredentialProvider(name)) return name;
  throw new UsageError(`unknown provider "${name}" for keel auth`, {
    hint: `providers with credentials: ${credentialProviders.join(', ')}`,
  });
}

const sourceText: Record<CredentialSource, string> = {
  env: 'the environment',
  session: 'memory, for this session only (nothing was stored)',
  keyring: 'the OS keyring',
  file: 'the credentials file',
};

async function withFailures(options: GlobalOptions, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (isAbortError(error)) return ExitCode.interrupted;
    return reportFailure(error, { debug: options.debug });
  }
}

export function authLoginCommand(name: string | undefined, options: AuthLoginOptions): Promise<number> {
  return withFailures(options, async () => {
    const load = configLoader(options);
    const provider = await asProvider(name, load);
    // Only Copilot's login needs the config (its GitHub address); an API key's works with a broken config too.
    const githubUrl = provider === 'copilot' ? (await load()).config.provider.copilot.github_url : '';
    await logIn(provider, githubUrl, { store: options.store !== false });
    return ExitCode.ok;
  });
}

/**
 * Gets a provider's credential (GitHub's device flow for Copilot, else the API key at a hidden prompt) and stores
 * it: `keel auth login`, and the first run's setup.
 */
export async function logIn(
  provider: CredentialProvider,
  /** GitHub's address, for Copilot's device flow. */
  githubUrl: string,
  options: { store: boolean } = { store: true },
  /** Where what it says goes (the chat's screen in the chat); the key's prompt is the terminal's. */
  out: CommandOutput = processOutput,
): Promise<void> {
  const store = new CredentialStore({ env: process.env });
  const secret = provider === 'copilot' ? await copilotLogin(githubUrl) : await readApiKey(provider);
  const result = await store.store(provider, secret, { noStore: !options.store });
  if (result.notice)
    out.notice(`${wrapFor(`note: ${result.notice}`, terminalColumns(process.stderr), '  ')}\n`);
  out.print(`logged in to ${provider}; credential kept in ${sourceText[result.source]}\n`);
  const envVar = credentialEnvVar[provider];
  if (process.env[envVar]?.trim()) {
    out.notice(`note: ${envVar} is set in the environment and takes precedence\n`);
  }
}

/**
 * At a terminal, a provider's missing API key asked for at the hidden prompt and stored as `keel auth login` does
 * (the first run with a provider chosen, the chat's `/model`): false when the person stopped (Ctrl-C).
 */
export async function logInForKey(
  provider: CredentialProvider,
  out: CommandOutput = processOutput,
): Promise<boolean> {
  out.notice(
    `No API key for ${provider} yet: paste one to store it as keel auth login ${provider} does (${credentialEnvVar[provider]} in the environment also works; Ctrl-C stops)\n`,
  );
  try {
    await logIn(provider, '', { store: true }, out);
    return true;
  } catch (error) {
    if (isAbortError(error)) return false;
    throw error;
  }
}

/** Why what was given cannot be an API key (empty, or not the key alone), or undefined. */
export function apiKeyProblem(key: string): string | undefined {
  if (key === '') return 'no key was given';
  if (/\s/.test(key)) return 'that is not an API key: it has spaces in it';
  if (/\p{Cc}/u.test(key))
    return 'that is not an API key: it has control characters in it (an arrow key, Esc)';
  return undefined;
}

/**
 * The key typed at the hidden prompt, asked again while it cannot be one (Ctrl-C stops); piped, the input, or a
 * usage error when it cannot be a key.
 */
export async function readApiKey(provider: CredentialProvider, io?: SecretIo): Promise<string> {
  const envVar = credentialEnvVar[provider];
  const terminal = (io?.input ?? process.stdin).isTTY === true;
  // Why the last one was refused: shown with the prompt, once what was typed before is dropped.
  let refused = '';
  for (;;) {
    const key = await readSecret(`${refused}API key for ${provider} (${envVar}): `, io);
    const problem = apiKeyProblem(key);
    if (problem === undefined) return key;
    if (!terminal) {
      throw new UsageError(key === '' ? `no API key given for ${provider}` : `${problem} (for ${provider})`, {
        hint: `paste it at the prompt, or pipe it in: printf %s "$${envVar}" | keel auth login ${provider}`,
      });
    }
    refused = `${problem}; paste the ${provider} key alone (Ctrl-C stops)\n`;
  }
}

async function copilotLogin(githubUrl: string): Promise<string> {
  const { pollAccessToken, requestDeviceCode } = await import('../providers/copilot-login.js');
  const interrupt = interruptSignal();
  try {
    const code = await requestDeviceCode(githubUrl, interrupt.signal);
    process.stdout.write(
      `To log in to GitHub Copilot, open ${code.verificationUri} and enter the code ${code.userCode}\n`,
    );
    process.stderr.write('waiting for the login to be approved… (Ctrl-C to cancel)\n');
    return await pollAccessToken(githubUrl, code, interrupt.signal);
  } finally {
    interrupt.dispose();
  }
}

export function authLogoutCommand(name: string | undefined, options: GlobalOptions): Promise<number> {
  return withFailures(options, async () => {
    const provider = await asProvider(name, configLoader(options));
    const store = new CredentialStore({ env: process.env });
    const removed = await store.remove(provider);
    process.stdout.write(
      removed.length === 0
        ? `no stored credential for ${provider}\n`
        : `removed the ${provider} credential from ${removed.map((s) => sourceText[s]).join(' and ')}\n`,
    );
    const envVar = credentialEnvVar[provider];
    if (process.env[envVar]?.trim()) {
      process.stderr.write(`note: ${envVar} is still set in the environment and still applies\n`);
    }
    return ExitCode.ok;
  });
}

export function authStatusCommand(name: string | undefined, options: GlobalOptions): Promise<number> {
  return withFailures(options, async () => {
    const only = name === undefined ? undefined : await asProvider(name, configLoader(options));
    const store = new CredentialStore({ env: process.env });
    const rows = (await store.status()).filter((row) => only === undefined || row.provider === only);
    const width = Math.max(...rows.map((row) => row.provider.length)) + 2;
    for (const row of rows) {
      const where =
        row.source === 'none'
          ? `none (set ${credentialEnvVar[row.provider]} or run \`keel auth login ${row.provider}\`)`
          : row.detail
            ? `${row.source} ${row.detail}`
            : row.source;
      process.stdout.write(`${row.provider.padEnd(width)}${where}\n`);
    }
    return ExitCode.ok;
  });
}
