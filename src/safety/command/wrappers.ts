// Programs that run another command given as their arguments (env, timeout, xargs, systemd-run ...), as data, and
// where in their argv the command they run starts.

/** Programs that run another command given as their arguments: unwrapped before denylist matching. */
export interface Wrapper {
  /** Options that take a separate value (`-n 5`). */
  valueFlags: readonly string[];
  /** Positional arguments before the wrapped command (timeout's duration). */
  positionals: number;
  /** Leading VAR=value words are skipped (env). */
  assignments?: boolean;
}

/**
 * Where the wrapped command starts in `argv` (the wrapper at 0): after the wrapper's options (and their values),
 * `--`, leading assignments (env) and its positionals (timeout's duration).
 */
export function wrappedStart(argv: readonly string[], wrapper: Wrapper): number {
  let i = 1;
  while (i < argv.length) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      i++;
      break;
    }
    if (wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) i++;
    else if (arg.startsWith('-') && arg !== '-') i += wrapper.valueFlags.includes(arg) ? 2 : 1;
    else break;
  }
  return i + wrapper.positionals;
}

export const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  env: {
    valueFlags: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'],
    positionals: 0,
    assignments: true,
  },
  timeout: { valueFlags: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  nice: { valueFlags: ['-n', '--adjustment'], positionals: 0 },
  ionice: { valueFlags: ['-c', '-n', '-p', '--class', '--classdata'], positionals: 0 },
  nohup: { valueFlags: [], positionals: 0 },
  setsid: { valueFlags: [], positionals: 0 },
  stdbuf: { valueFlags: ['-i', '-o', '-e'], positionals: 0 },
  command: { valueFlags: [], positionals: 0 },
  builtin: { valueFlags: [], positionals: 0 },
  time: { valueFlags: ['-f', '-o'], positionals: 0 },
  busybox: { valueFlags: [], positionals: 0 },
  exec: { valueFlags: ['-a'], positionals: 0 },
  sudo: {
    valueFlags: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U'],
    positionals: 0,
    assignments: true,
  },
  doas: { valueFlags: ['-u', '-C'], positionals: 0 },
  // Runners that start their command elsewhere or later (systemd, a lock, a CPU set): what they run is judged.
  'systemd-run': {
    valueFlags: [
      ...['-u', '--unit', '-p', '--property', '-E', '--setenv', '-M', '--machine', '-H', '--host'],
      ...['--description', '--slice', '--uid', '--gid', '--nice', '--working-directory', '--timer-property'],
      ...[
        '--on-active',
        '--on-boot',
        '--on-startup',
        '--on-unit-active',
        '--on-unit-inactive',
        '--on-calendar',
      ],
    ],
    positionals: 0,
  },
  flock: { valueFlags: ['-w', '--timeout', '-E', '--conflict-exit-code'], positionals: 1 },
  taskset: { valueFlags: [], positionals: 1 },
  chrt: { valueFlags: [], positionals: 1 },
  prlimit: { valueFlags: ['-p', '--pid'], positionals: 0 },
  unshare: { valueFlags: ['-S', '--setuid', '-G', '--setgid', '-R', '--root', '-w', '--wd'], positionals: 0 },
  fakeroot: { valueFlags: ['-l', '--lib', '--faked', '-s', '-i'], positionals: 0 },
  unbuffer: { valueFlags: [], positionals: 0 },
  chronic: { valueFlags: [], positionals: 0 },
  watch: { valueFlags: ['-n', '--interval', '-q', '--equexit'], positionals: 0 },
  xargs: {
    valueFlags: [
      '-I',
      '-i',
      '-n',
      '-P',
      '-d',
      '-L',
      '-l',
      '-s',
      '-a',
      '-E',
      '-e',
      '--arg-file',
      '--delimiter',
    ],
    positionals: 0,
  },
};
