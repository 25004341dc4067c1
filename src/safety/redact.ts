// Removes secrets from text before Keel writes it anywhere lasting (the audit log, session files, cassettes, JSON
// output): known token shapes, credentials in headers, flags and URLs, and the values of secret-looking variables
// in Keel's environment and config.

import type { LoadedConfig } from '../config/load.js';
import { configSecrets } from '../config/secrets.js';

export const REDACTED = '[REDACTED]';

/** Variables whose values are secrets; their values are redacted wherever they appear. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|_PASS$|_PWD$/i;
/** Shorter values (`KEEL_KEYRING=off`) are too common as plain words to replace everywhere. */
const MIN_SECRET_VALUE = 8;

/** Replacements in order, as data: each pattern's first group (if any) is kept, the rest becomes [REDACTED]. */
const RULES: { name: string; pattern: RegExp }[] = [
  // Prefixed tokens keep their prefix, so the reader knows what kind of secret was there.
  { name: 'openai/anthropic key', pattern: /\b(sk-)[A-Za-z0-9_-]{8,}/g },
  { name: 'github token', pattern: /\b(gh[pousr]_)[A-Za-z0-9]{16,}/g },
  { name: 'github fine-grained token', pattern: /\b(github_pat_)[A-Za-z0-9_]{16,}/g },
  { name: 'slack token', pattern: /\b(xox[abposr]-)[A-Za-z0-9-]{8,}/g },
  { name: 'aws access key id', pattern: /\b((?:AKIA|ASIA))[0-9A-Z]{16}\b/g },
  { name: 'google api key', pattern: /\b(AIza)[0-9A-Za-z_-]{30,}/g },
  { name: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g },
  {
    name: 'private key block',
    pattern: /(-----BEGIN [A-Z ]*PRIVATE KEY-----)[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  },
  // Header values up to the end of the quoted argument or line: `-H "Authorization: Bearer x"`.
  {
    name: 'credential header',
    pattern:
      /\b((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|x-goog-api-key|private-token|cookie)(\s*:\s*)[^"'\n]+/gi,
  },
  // `https://user:pass@host`: the user stays, the password goes.
  { name: 'url credentials', pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:)[^\s/@]+(?=@)/gi },
  // `--password=x`, `--password x`, `--token x`, `--api-key x`.
  {
    name: 'secret flag',
    pattern:
      /(--(?:password|passwd|pass|token|api-key|apikey|access-token|auth-token|secret|client-secret)(?:=|\s+))(?!-)[^\s"']+/gi,
  },
  // `password=x`, `api_key: x`, `?access_token=x&`: any value of a password or secret, long ones of a token or key.
  {
    name: 'secret assignment',
    pattern: /\b([\w-]*(?:password|passwd|secret)[\w-]*\s*[=:]\s*)(?!\[REDACTED\])[^\s"'&;,]+/gi,
  },
  // `DB_PASS=x`, `MYSQL_PWD=x`, `SMTP_PASSPHRASE=x`: names that end in a short spelling of password.
  {
    name: 'password variable',
    pattern: /\b(\w+_(?:pass|pwd|passphrase)\s*=\s*)(?!\[REDACTED\])[^\s"'&;,]+/gi,
  },
  {
    name: 'token assignment',
    pattern: /\b([\w-]*(?:token|key)\s*[=:]\s*)(?!\[REDACTED\])[A-Za-z0-9+/_.~-]{16,}={0,2}/gi,
  },
];

/** MySQL clients take the password glued to -p (`mysql -uroot -psecret`); elsewhere -p means other things. */
const MYSQL_COMMAND =
  /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb[\w-]*)\b[^;&|\n]*/g;

function redactMysqlPassword(text: string): string {
  return text.replace(MYSQL_COMMAND, (command) =>
    command.replace(/(^|\s)(-p)(?!\[REDACTED\])(?:"[^"]*"|'[^']*'|\S+)/g, `$1$2${REDACTED}`),
  );
}

export type Redactor = (text: string) => string;

/**
 * Secrets Keel came to hold while it runs, not from its environment or config: an API key read from the OS keyring
 * or the credentials file, a token a provider exchanged one for. Every redactor of the process replaces them, also
 * those made before the secret was read (a run's redactor is made before its provider starts).
 */
const learned = new Set<string>();
let learnedSorted: string[] = [];

export function learnSecret(value: string | undefined): void {
  const secret = value?.trim();
  if (!secret || secret.length < MIN_SECRET_VALUE || learned.has(secret)) return;
  learned.add(secret);
  learnedSorted = [...learned].sort((a, b) => b.length - a.length);
}

/**
 * A redactor for `env` (Keel's own environment): the values of its secret-looking variables and `extra` (the
 * config's secrets), longest first so a value containing another is replaced whole, then the shapes above.
 */
export function createRedactor(env: NodeJS.ProcessEnv, extra: readonly string[] = []): Redactor {
  const fromEnv = Object.entries(env)
    .filter(
      ([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= MIN_SECRET_VALUE,
    )
    .map(([, value]) => value as string);
  const values = [...new Set([...fromEnv, ...extra.filter((v) => v.length >= MIN_SECRET_VALUE)])].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => {
    let result = text;
    for (const value of values) result = result.split(value).join(REDACTED);
    for (const value of learnedSorted) result = result.split(value).join(REDACTED);
    for (const { pattern } of RULES) {
      result = result.replace(pattern, (_match, kept: unknown, more: unknown) => {
        if (typeof kept !== 'string') return REDACTED;
        // The header rule keeps its separator too.
        return `${kept}${typeof more === 'string' ? more : ''}${REDACTED}`;
      });
    }
    return redactMysqlPassword(result);
  };
}

/** The run's redactor: Keel's environment and every secret value written in its config files. */
export function runRedactor(env: NodeJS.ProcessEnv, loaded: LoadedConfig): Redactor {
  return createRedactor(env, [...configSecrets(loaded.config), ...(loaded.secrets ?? [])]);
}

/** Every string in `value` redacted: the JSON stays valid, whatever a secret sat next to. */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, redact)])) as T;
  }
  return value;
}

/** A JSON text (a tool call's arguments) redacted string by string, so it still parses; other text as text. */
export function redactJsonText(text: string, redact: Redactor): string {
  try {
    return JSON.stringify(redactDeep(JSON.parse(text) as unknown, redact));
  } catch {
    return redact(text);
  }
}
