// The watchdog: one tiny process per command runner, started with its first command, holding the read end of a
// pipe from Keel. When Keel ends in any way (kill -9 included) the kernel closes the pipe; the watchdog sees EOF
// at once and kills the process groups of the commands still running and every process carrying one of the run's
// markers. Without a sandbox nothing else would end them.
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { MARKER_VAR } from './process-tree.js';

/**
 * Runs as `sh -c SCRIPT keel-watchdog <marker prefix> <descriptor link pattern>`: a shell costs a millisecond and
 * no memory to speak of. Lines on stdin: `+ <group>` (a command started), `- <group>` (it ended). On EOF: SIGKILL to
 * each group left, then rounds of one grep over /proc for the variable (NUL-separated environments, `-z`) and one
 * find for the descriptor, until neither finds any.
 */
const SCRIPT = `
groups=
while read -r op group; do
  case $op in
    +) groups="$groups $group" ;;
    -) kept=; for g in $groups; do [ "$g" = "$group" ] || kept="$kept $g"; done; groups=$kept ;;
  esac
done
round=0
while [ $round -lt 20 ]; do
  for g in $groups; do kill -9 -"$g" 2>/dev/null; done
  pids=$({ grep -l -a -z "^${MARKER_VAR}=$1" /proc/[0-9]*/environ; [ -z "$2" ] || find /proc/[0-9]*/fd -lname "$2"; } 2>/dev/null |
    sed -n 's#^/proc/\\([0-9]*\\)/.*$#\\1#p')
  [ -z "$pids" ] && break
  kill -9 $pids 2>/dev/null
  sleep 0.05
  round=$((round + 1))
done
`;

export interface Watchdog {
  /** A command's process group started. */
  watch(group: number): void;
  /** It ended: its group id may be reused by someone else's process, so it is not killed any more. */
  unwatch(group: number): void;
}

/**
 * Starts the watchdog for the commands marked `<markerPrefix>…`, and holding a descriptor that links to
 * `<fdLink>…` (`markerLink`); undefined when it cannot start.
 */
export function startWatchdog(markerPrefix: string, fdLink?: string): Watchdog | undefined {
  // find's -lname takes a pattern: the link's own characters are escaped.
  const pattern = fdLink === undefined ? '' : `${fdLink.replace(/[[\]*?\\]/g, '\\$&')}*`;
  let child: ReturnType<typeof spawn>;
  try {
    // Its own session: a Ctrl-C to Keel's terminal group does not end it before Keel's own cleanup has run.
    child = spawn('/bin/sh', ['-c', SCRIPT, 'keel-watchdog', markerPrefix, pattern], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      // No marker of its own, so its sweep never finds itself.
      env: { PATH: process.env.PATH || '/usr/bin:/bin' },
    });
  } catch {
    return undefined;
  }
  const stdin = child.stdin as Socket | null;
  if (!stdin) return undefined;
  // Neither the watchdog nor its pipe keeps Keel alive; a watchdog that died only costs this protection.
  child.on('error', () => {});
  stdin.on('error', () => {});
  child.unref();
  stdin.unref();
  const send = (line: string) => {
    if (!stdin.destroyed) stdin.write(`${line}\n`);
  };
  return {
    watch: (group) => send(`+ ${group}`),
    unwatch: (group) => send(`- ${group}`),
  };
}
