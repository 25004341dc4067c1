// Provider credentials: looked up env var > session memory > OS keyring > credentials file; stored and removed.
// Values never leave this module except to the provider that asked for them.
import { randomBytes } from 'node:crypto';
import { access, chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import * as z from 'zod';
import { ConfigError } from '../core/errors.js';
import { once } from '../core/once.js';
import { learnSecret } from '../safety/redact.js';
import { type Keyring, systemKeyring } from './keyring.js';

/** The environment variable that holds each provider's credential (and overrides any stored one). */
export const credentialEnvVar = {
  copilot: 'GITHUB_TOKEN',
  gemini: 'GEMINI_API_KEY',
  openrouter: 'OPENROUTER_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  // Web search endpoints (web.search), stored and looked up like the providers' keys.
  brave: 'BRAVE_API_KEY',
  tavily: 'TAVILY_API_KEY',
} as const;
export type CredentialProvider = keyof typeof credentialEnvVar;
export const credentialProviders = Object.keys(credentialEnvVar) as CredentialProvider[];

export function isCredentialProvider(name: string): name is CredentialProvider {
  return Object.hasOwn(credentialEnvVar, name);
}

/** Where a credential comes from. `session`: given with --no-store, held in this process only. */
export type CredentialSource = 'env' | 'session' | 'keyring' | 'file';

export interface CredentialStatus {
  provider: CredentialProvider;
  source: CredentialSource | 'none';
  /** The variable (env) or file (file) it comes from. */
  detail?: string;
}

export interface StoreResult {
  source: CredentialSource;
  /** Said once: when the keyring is unavailable and the file is created to hold the credential instead. */
  notice?: string;
}

export interface CredentialStoreOptions {
  env: NodeJS.ProcessEnv;
  /** The OS keyring; null for none. Default: the system keyring when usable. */
  keyring?: Keyring | null;
}

/** `$XDG_CONFIG_HOME/keel/credentials.yaml`, defaulting to `~/.config/keel/credentials.yaml`. */
export function credentialsPath(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'keel', 'credentials.yaml');
}

const fileSchema = once(() => z.record(z.string(), z.string()));

/** A credential read from a store, told to the redactors first. */
function learned(found: { value: string; source: CredentialSource }): {
  value: string;
  source: CredentialSource;
} {
  learnSecret(found.value);
  return found;
}

export class CredentialStore {
  readonly file: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly keyring: Keyring | undefined;
  private readonly session = new Map<CredentialProvider, string>();

  constructor(options: CredentialStoreOptions) {
    this.env = options.env;
    this.file = credentialsPath(options.env);
    this.keyring = options.keyring === null ? undefined : (options.keyring ?? systemKeyring(options.env));
  }

  /** The credential and where it came from, or undefined when there is none. */
  async lookup(
    provider: CredentialProvider,
  ): Promise<{ value: string; source: CredentialSource } | undefined> {
    const fromEnv = this.env[credentialEnvVar[provider]]?.trim();
    if (fromEnv) return { value: fromEnv, source: 'env' };
    // Not from the environment: the redactors do not know these values unless told.
    const fromSession = this.session.get(provider);
    if (fromSession) return learned({ value: fromSession, source: 'session' });
    const fromKeyring = this.keyringGet(provider);
    if (fromKeyring) return learned({ value: fromKeyring, source: 'keyring' });
    const fromFile = (await this.readFile())[provider];
    if (fromFile) return learned({ value: fromFile, source: 'file' });
    return undefined;
  }

  async store(
    provider: CredentialProvider,
    secret: string,
    options: { noStore?: boolean } = {},
  ): Promise<StoreResult> {
    if (options.noStore) {
      this.session.set(provider, secret);
      return { source: 'session' };
    }
    if (this.keyring) {
      try {
        this.keyring.set(provider, secret);
        // A stale copy in the file would be shadowed anyway; removing it keeps one copy of the secret.
        await this.removeFromFile(provider);
        return { source: 'keyring' };
      } catch {
        // The keyring is there but refused (locked, no daemon): fall through to the file. A half-done write (the
        // Linux binding caches in the kernel keyring before its Secret Service call fails) must not stay behind.
        try {
          this.keyring.delete(provider);
        } catch {
          // Nothing was left.
        }
      }
    }
    const entries = await this.readFile();
    const created = await access(this.file).then(
      () => false,
      () => true,
    );
    entries[provider] = secret;
    await this.writeFile(entries);
    // Every later login goes to the same file: saying so each time would be noise.
    if (!created) return { source: 'file' };
    return {
      source: 'file',
      notice: `no OS keyring available; storing credentials in ${this.file} (mode 0600)`,
    };
  }

  /** Removes the stored credential (keyring, file, session); returns where it was found. */
  async remove(provider: CredentialProvider): Promise<CredentialSource[]> {
    const removed: CredentialSource[] = [];
    if (this.session.delete(provider)) removed.push('session');
    try {
      if (this.keyring?.delete(provider)) removed.push('keyring');
    } catch {
      // Nothing stored there, or no keyring after all.
    }
    if (await this.removeFromFile(provider)) removed.push('file');
    return removed;
  }

  /** Which providers have a credential and from where; never the value. */
  async status(): Promise<CredentialStatus[]> {
    const result: CredentialStatus[] = [];
    for (const provider of credentialProviders) {
      const found = await this.lookup(provider);
      const source = found?.source ?? 'none';
      const detail =
        source === 'env' ? credentialEnvVar[provider] : source === 'file' ? this.file : undefined;
      result.push({ provider, source, ...(detail ? { detail } : {}) });
    }
    return result;
  }

  private keyringGet(provider: CredentialProvider): string | undefined {
    try {
      return this.keyring?.get(provider) || undefined;
    } catch {
      return undefined;
    }
  }

  private async readFile(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new ConfigError(`cannot read credentials file ${this.file}`, {
        hint: 'check its permissions (it should be yours, mode 0600)',
        cause: error,
      });
    }
    const { parse } = await import('yaml');
    let value: unknown;
    try {
      value = parse(text) ?? {};
    } catch {
      value = undefined;
    }
    // Errors name the file, never its content, and carry no cause: a parser's message would quote secrets.
    const parsed = fileSchema().safeParse(value);
    if (!parsed.success) {
      throw new ConfigError(`credentials file ${this.file} is not a map of provider: secret`, {
        hint: 'fix it, or delete it and log in again with `keel auth login <provider>`',
      });
    }
    return parsed.data;
  }

  /** Written to a private temp file and renamed over, so a crash never leaves a half-written or readable file. */
  private async writeFile(entries: Record<string, string>): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    const { stringify } = await import('yaml');
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(stringify(entries));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await chmod(temp, 0o600); // the umask may have narrowed it further, never widened; make it exact
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  private async removeFromFile(provider: CredentialProvider): Promise<boolean> {
    const entries = await this.readFile();
    if (!(provider in entries)) return false;
    delete entries[provider];
    if (Object.keys(entries).length === 0) await rm(this.file, { force: true });
    else await this.writeFile(entries);
    return true;
  }
}

/** The credential for a provider (env var > session > keyring > file), or undefined. */
export async function resolveCredential(
  provider: string,
  env: NodeJS.ProcessEnv,
  options: { store?: CredentialStore; keyring?: Keyring | null } = {},
): Promise<string | undefined> {
  if (!isCredentialProvider(provider)) return undefined;
  const store = options.store ?? new CredentialStore({ env, keyring: options.keyring });
  return (await store.lookup(provider))?.value;
}

/** Model providers whose credential is an API key a person pastes (Copilot's comes from GitHub's login). */
const apiKeyProviders: ReadonlySet<string> = new Set(['anthropic', 'openai', 'gemini', 'openrouter']);

/** A model provider taking an API key that has none anywhere (environment, keyring, credentials file), or undefined. */
export async function missingApiKey(
  provider: string,
  env: NodeJS.ProcessEnv,
): Promise<CredentialProvider | undefined> {
  if (!apiKeyProviders.has(provider) || !isCredentialProvider(provider)) return undefined;
  return (await resolveCredential(provider, env)) ? undefined : provider;
}
