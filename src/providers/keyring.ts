// The OS keyring (macOS Keychain, Windows Credential Manager, Secret Service) through @napi-rs/keyring, when usable.
import { createRequire } from 'node:module';

/** The few keyring operations credentials need; synchronous, as the native binding is. */
export interface Keyring {
  get(account: string): string | undefined;
  set(account: string, secret: string): void;
  /** True when something was deleted. */
  delete(account: string): boolean;
}

export const keyringService = 'keel';

interface KeyringEntry {
  getPassword(): string | null;
  setPassword(password: string): void;
  deleteCredential(): boolean;
}
interface KeyringModule {
  Entry: new (service: string, account: string) => KeyringEntry;
}

/**
 * The system keyring, or undefined where none is usable. KEEL_KEYRING=off turns it off (tests, shared machines).
 * On Linux the binding falls back to the kernel's session keyring when no Secret Service answers on D-Bus; that
 * store vanishes with the login session, so without a session bus Keel treats the keyring as unavailable.
 */
export function systemKeyring(env: NodeJS.ProcessEnv): Keyring | undefined {
  if (env.KEEL_KEYRING?.trim().toLowerCase() === 'off') return undefined;
  if (process.platform === 'linux' && !env.DBUS_SESSION_BUS_ADDRESS) return undefined;
  let binding: KeyringModule;
  try {
    // require, not import(): the bundle runs from a V8 code cache, where Node 20 drops import() of external packages.
    binding = createRequire(import.meta.url)('@napi-rs/keyring') as KeyringModule;
  } catch {
    return undefined;
  }
  const entry = (account: string) => new binding.Entry(keyringService, account);
  return {
    get: (account) => entry(account).getPassword() ?? undefined,
    set: (account, secret) => entry(account).setPassword(secret),
    delete: (account) => entry(account).deleteCredential(),
  };
}
