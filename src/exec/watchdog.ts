// The watchdog: one tiny process per command runner, started with its first command, holding the read end of a
// pipe from Keel. When Keel ends in any way (kill -9 included) the kernel closes the pipe; the watchdog sees EOF
// at once and kills the process groups of the commands still running and every process carrying the run's
// marker. Without a sandbox nothing else would end them.
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { MARKER_VAR } from './process-tree.js';

/**
 * Runs as `node -e SCRIPT <marker prefix>`. Lines on stdin: `+ <group>` (a command started), `- <group>` (it
 * ended). On EOF: SIGKILL to each group left, then rounds over /proc for the marker until none is found.
 */
const SCRIPT = `
const fs = require('fs');
const needle = Buffer.from(${JSON.stringify(`${MARKER_VAR}=`)} + process.argv[1]);
const groups = new Set();
let pending = '';
const kill = (target) => { try { process.kill(target, 'SIGKILL'); return true; } catch { return false; } };
function marked(environ) {
  for (let at = environ.indexOf(needle); at !== -1; at = environ.indexOf(needle, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true;
  }
  return false;
}
function sweep() {
  for (let round = 0; round < 20; round++) {
    for (const group of groups) kill(-group);
    let found = 0;
    let entries = [];
    try { entries = fs.readdirSync('/proc'); } catch {}
    for (const entry of entries) {
      if (!/^\\d+$/.test(entry) || Number(entry) === process.pid) continue;
      let environ;
      try { environ = fs.readFileSync('/proc/' + entry + '/environ'); } catch { continue; }
      if (marked(environ) && kill(Number(entry))) found++;
    }
    if (found === 0) break;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
  process.exit(0);
}
process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (let nl = pending.indexOf('\\n'); nl !== -1; nl = pending.indexOf('\\n')) {
    const [op, group] = pending.slice(0, nl).split(' ');
    pending = pending.slice(nl + 1);
    if (op === '+') groups.add(Number(group));
    else groups.delete(Number(group));
  }
});
process.stdin.on('end', sweep);
process.stdin.on('error', sweep);
`;

export interface Watchdog {
  /** A command's process group started. */
  watch(group: number): void;
  /** It ended: its group id may be reused by someone else's process, so it is not killed any more. */
  unwatch(group: number): void;
}

/** Starts the watchdog for the commands marked `<markerPrefix>…`; undefined when it cannot start. */
export function startWatchdog(markerPrefix: string): Watchdog | undefined {
  let child: ReturnType<typeof spawn>;
  try {
    // Its own session: a Ctrl-C to Keel's terminal group does not end it before Keel's own cleanup has run.
    child = spawn(process.execPath, ['-e', SCRIPT, markerPrefix], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { PATH: process.env.PATH ?? '' },
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
