// The bubblewrap probe's answer kept between runs (in the cache directory), so a run's start does not spawn bwrap:
// spawning from a loaded Node process costs tens of milliseconds before the first model request. The answer is
// reused only while everything it depends on is unchanged: the bwrap file found on PATH, the network setting, the
// boot, the user, the namespace and security settings of the kernel, and this process's namespaces, capabilities
// and seccomp state. A stale answer fails closed either way: "works" when it no longer does makes sandboxed commands
// fail, "broken" when it works keeps the older default mode.
import { accessSync, constants, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { cacheDir } from '../config/paths.js';
import { replaceFile } from '../core/replace-file.js';
import { sha256Hex } from '../core/sha256.js';

/** The probe's answer: why bwrap cannot run, or undefined when it can. */
export type ProbeAnswer = string | undefined;

export const MISSING = 'bubblewrap (bwrap) is not installed or not on PATH';

/** The executable `bwrap` that a spawn with this PATH would run, or undefined when there is none. */
export function findOnPath(program: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here: the next directory.
    }
  }
  return undefined;
}

const read = (file: string): string => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '-';
  }
};
const link = (file: string): string => {
  try {
    return readlinkSync(file);
  } catch {
    return '-';
  }
};

/** What the probe's answer depends on, hashed; undefined where it cannot be told (no /proc: always probe). */
export function probeKey(bwrap: string, network: boolean): string | undefined {
  const boot = read('/proc/sys/kernel/random/boot_id');
  if (boot === '-') return undefined;
  let file: string;
  try {
    const real = realpathSync(bwrap);
    const stat = statSync(real);
    file = `${real}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.mode}:${stat.uid}`;
  } catch {
    return undefined;
  }
  const status = read('/proc/self/status')
    .split('\n')
    .filter((line) => /^(Uid|Gid|NoNewPrivs|Seccomp|CapEff|CapBnd|CapPrm):/.test(line))
    .join('|');
  const parts = [
    file,
    String(network),
    boot,
    status,
    link('/proc/self/ns/user'),
    link('/proc/self/ns/mnt'),
    link('/proc/self/ns/net'),
    read('/proc/sys/kernel/unprivileged_userns_clone'),
    read('/proc/sys/user/max_user_namespaces'),
    read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns'),
    read('/proc/sys/kernel/osrelease'),
  ];
  return sha256Hex(parts.join('\n'));
}

const cacheFile = (env: NodeJS.ProcessEnv): string => join(cacheDir(env), 'sandbox-probe.json');

/** The kept answer for `key`, or undefined when there is none (null: kept as "works"). */
export function keptAnswer(env: NodeJS.ProcessEnv, key: string): { answer: ProbeAnswer } | undefined {
  try {
    const kept = JSON.parse(readFileSync(cacheFile(env), 'utf8')) as Record<string, unknown>;
    const value = kept[key];
    if (value === null) return { answer: undefined };
    if (typeof value === 'string') return { answer: value };
  } catch {
    // No cache yet, or an unreadable one: probe.
  }
  return undefined;
}

/** Keeps `answer` for `key` (with the other network setting's answer, if any); never throws. */
export async function keepAnswer(env: NodeJS.ProcessEnv, key: string, answer: ProbeAnswer): Promise<void> {
  const file = cacheFile(env);
  try {
    let kept: Record<string, unknown> = {};
    try {
      kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      // A new cache.
    }
    // Only the latest few keys: an old boot's answers are never read again.
    const entries = Object.entries(kept)
      .filter(([k]) => k !== key)
      .slice(-3);
    const next = Object.fromEntries([...entries, [key, answer ?? null]]);
    await replaceFile(file, JSON.stringify(next), { dirMode: 0o700 });
  } catch {
    // A read-only cache directory: the next run probes again.
  }
}
