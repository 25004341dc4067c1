// The denylist of acts as data: which places are the system and the home directory's persistence points (secrets: secret-files.ts),
// which programs power off or format, which git settings and variables run programs. command-acts.ts reads these.

/**
 * Directories whose recursive delete, chmod, chown or move breaks the system; an ancestor of one (`/usr` of
 * `/usr/bin`) counts too. The home directory and `/` are added by the checker.
 */
export const SYSTEM_DIRECTORIES: readonly string[] = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/home',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/media',
  '/mnt',
  '/opt',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/snap',
  '/srv',
  '/sys',
  '/tmp',
  '/usr',
  '/var',
];

/** Places that run code later (at shell start, on a schedule, on a git event, in another agent): never written. */
export const PERSISTENCE_POINTS = {
  /** Relative to the home directory; a directory covers everything below it. */
  home: [
    '.bashrc',
    '.bash_profile',
    '.bash_login',
    '.bash_logout',
    '.bash_aliases',
    '.profile',
    '.zshrc',
    '.zshenv',
    '.zprofile',
    '.zlogin',
    '.zlogout',
    '.kshrc',
    '.mkshrc',
    '.pam_environment',
    '.xprofile',
    '.xinitrc',
    '.gitconfig',
    '.config/git',
    '.config/fish',
    '.config/autostart',
    '.config/systemd',
    '.config/environment.d',
    '.claude',
    '.claude.json',
    '.codex',
    '.gemini',
    '.cursor',
    '.config/keel',
  ],
  /** Absolute. */
  system: [
    '/etc/profile',
    '/etc/profile.d',
    '/etc/bash.bashrc',
    '/etc/bashrc',
    '/etc/zsh',
    '/etc/environment',
    '/etc/crontab',
    '/etc/cron.d',
    '/etc/cron.hourly',
    '/etc/cron.daily',
    '/etc/cron.weekly',
    '/etc/cron.monthly',
    '/var/spool/cron',
    '/etc/systemd',
    '/etc/init.d',
    '/etc/rc.local',
    '/etc/ld.so.preload',
    '/etc/sudoers',
    '/etc/sudoers.d',
  ],
  /**
   * Anywhere, the workspace included: a repository's `.git/hooks/...`, the files git reads its settings from
   * (`.git/config`, `config.worktree`, `commondir`, a linked worktree's in `.git/worktrees/<name>/`), a submodule's
   * (`.git/modules/<name>/config`, `hooks/`: `git status` runs git there), and other
   * agents' project settings (`.claude/settings.json` runs hooks).
   */
  anywhere: [
    /(^|\/)\.git\/(modules\/.+\/)?hooks(\/|$)/,
    /(^|\/)\.git\/(worktrees\/[^/]+\/|modules\/.+\/)?(config|config\.worktree|commondir)$/,
    /(^|\/)\.(claude|gemini|codex|cursor)(\/|$)/,
  ] as readonly RegExp[],
} as const;

/** Devices that are not disks: reading and writing them is harmless. */
export const HARMLESS_DEVICES: readonly RegExp[] = [
  /^\/dev\/(null|zero|full|random|urandom|tty|stdin|stdout|stderr)$/,
  /^\/dev\/fd\/\d+$/,
  /^\/proc\/self\/fd\/\d+$/,
];

/** Where a write reaches the kernel or hardware rather than a file: disks, `/proc`, `/sys`. */
export const DEVICE_ROOTS: readonly string[] = ['/dev', '/proc', '/sys'];

/** Programs refused in every mode whatever their arguments, with why. */
export const DENIED_PROGRAMS: Readonly<Record<string, string>> = {
  sudo: 'privilege escalation',
  su: 'privilege escalation',
  doas: 'privilege escalation',
  pkexec: 'privilege escalation',
  eval: 'eval runs text as a command',
  exec: 'exec replaces the shell',
  wipefs: 'wipes file system signatures',
  mkswap: 'formats a device as swap',
  shutdown: 'powers the machine off',
  reboot: 'reboots the machine',
  poweroff: 'powers the machine off',
  halt: 'halts the machine',
  telinit: 'changes the run level',
  killall5: 'signals every process',
};

/** Program-name prefixes refused in every mode (mkfs, mkfs.ext4, ...). */
export const DENIED_PROGRAM_PREFIXES: Readonly<Record<string, string>> = {
  mkfs: 'formats a file system',
};

/** Programs refused for some arguments (tested against the arguments joined by spaces): power verbs, crontab. */
export const DENIED_ARGUMENTS: Readonly<Record<string, { args: RegExp; why: string }>> = {
  systemctl: {
    args: /(^|\s)(poweroff|reboot|halt|suspend|hibernate|hybrid-sleep|suspend-then-hibernate|kexec|emergency|rescue|isolate|soft-reboot)(\s|$)/,
    why: 'powers off, suspends or changes the state of the machine',
  },
  loginctl: {
    args: /(^|\s)(poweroff|reboot|halt|suspend|hibernate|kill-user|terminate-user|kill-session|terminate-session)(\s|$)/,
    why: 'powers off the machine or ends sessions',
  },
  init: { args: /^./, why: 'changes the run level' },
  crontab: {
    args: /^(?!(-u \S+ )?-l$)/,
    why: 'installs or removes scheduled commands (only `crontab -l` is allowed)',
  },
};

/** Shells: their `-c` script is parsed and judged like the command itself. */
export const SHELLS: readonly string[] = [
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
];

/** Interpreters (version suffixes stripped: python3.12 → python) and the options that take inline code. */
export const INTERPRETERS: Readonly<Record<string, readonly string[]>> = {
  python: ['-c'],
  pypy: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  bun: ['-e', '--eval', '-p', '--print'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
  luajit: ['-e'],
  Rscript: ['-e'],
  osascript: ['-e'],
  pwsh: ['-c', '-Command'],
};

/**
 * Options whose value a program runs as a shell command line (`script -c 'rm -rf ~'`, `git fetch
 * --upload-pack='rm -rf ~' .`): the value is judged like the command itself.
 */
export const SHELL_COMMAND_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  script: ['-c', '--command'],
  npx: ['-c', '--call'],
  npm: ['-c', '--call'],
  su: ['-c', '--command'],
  runuser: ['-c', '--command'],
  git: ['--upload-pack', '--receive-pack', '--exec', '--extcmd'],
};

/** git subcommands where `-x` is a command to run (elsewhere it is a flag: `git clean -x`, `git cherry-pick -x`). */
export const GIT_X_RUNS: readonly string[] = ['rebase', 'difftool'];

/** git subcommands whose operands are a command git runs: `git submodule foreach CMD`, `git bisect run CMD ARGS`. */
export const GIT_COMMAND_OPERANDS: readonly (readonly string[])[] = [
  ['submodule', 'foreach'],
  ['bisect', 'run'],
];

/** Programs that read the commands they schedule from standard input (`at now <<< 'rm -rf ~'`). */
export const STDIN_SCHEDULERS: readonly string[] = ['at', 'batch'];

/** Inline code that forks in a loop: a fork bomb in any language (`perl -e 'fork while 1'`, `os.fork()` in a loop). */
export const FORK_IN_LOOP = { fork: /\bfork\b/, loop: /\b(while|for|loop|until|repeat)\b|\bdo\b/ } as const;

/** Download tools: together with a shell in the same command line they are download-and-execute. */
export const DOWNLOADERS: readonly string[] = ['curl', 'wget', 'fetch', 'aria2c'];

/** Git settings whose value is a program git runs (`-c core.pager=...`, `git config alias.x '!...'`). */
export const GIT_EXEC_SETTINGS: readonly RegExp[] = [
  /^core\.(pager|sshcommand|fsmonitor|hookspath|editor|askpass|gitproxy|alternaterefscommand)$/i,
  /^(sequence\.editor|diff\.external|web\.browser|init\.templatedir|uploadpack\.packobjectshook)$/i,
  /^(diff|difftool|mergetool|merge|filter|browser|man)\..+\.(textconv|command|cmd|driver|clean|smudge|process|path)$/i,
  /^pager\./i,
  /^(credential|gpg)(\..+)?\.(helper|program)$/i,
  /^remote\..+\.(uploadpack|receivepack|vcs)$/i,
  /^protocol\.(ext\.)?allow$/i,
  /^sendemail\.(smtpserver|tocmd|cccmd)$/i,
  /^submodule\..+\.update$/i,
];

/**
 * Git settings that make git read settings or files from elsewhere, where a program can be set: included files,
 * `extensions.worktreeConfig` (then `.git/config.worktree` is read, and can hold `core.fsmonitor`), and
 * `core.worktree` (git then works on, and shows, another folder).
 */
export const GIT_REDIRECT_SETTINGS: readonly RegExp[] = [
  /^include(if\..+)?\.path$/i,
  /^extensions\.worktreeconfig$/i,
  /^core\.worktree$/i,
];

/** Git settings that run a program only when their value starts with `!` (aliases). */
export const GIT_SHELL_ALIAS = /^alias\./i;

/** Variables that make the next program run other code (git's program settings, preloads, shell start-up files). */
export const EXEC_VARIABLES: readonly RegExp[] = [
  /^GIT_(SSH|SSH_COMMAND|EDITOR|SEQUENCE_EDITOR|EXTERNAL_DIFF|ASKPASS|PROXY_COMMAND|EXEC_PATH|TEMPLATE_DIR)$/,
  /^GIT_CONFIG(_PARAMETERS|_COUNT|_KEY_\d+|_VALUE_\d+|_GLOBAL|_SYSTEM)?$/,
  /^(LD_PRELOAD|LD_AUDIT|BASH_ENV|ENV|PROMPT_COMMAND|PERL5OPT|NODE_OPTIONS|PYTHONSTARTUP)$/,
];

/** Variables whose value is a path git works in or writes (`GIT_DIR=../x git init`): checked by the path rule. */
export const PATH_VARIABLES =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|COMMON_DIR|ALTERNATE_OBJECT_DIRECTORIES)$/;

/** Pager variables run their value too, but these values are plain pagers. */
export const PAGER_VARIABLES = {
  names: /^(GIT_PAGER|PAGER|MANPAGER)$/,
  harmless: /^(cat|less|more|true)?(\s+-\S+)*$/,
};

/** chmod modes that make everything writable by everyone; recursive, refused anywhere. */
export const CHMOD_OPEN_MODES: readonly string[] = [
  '777',
  '0777',
  'a+rwx',
  'ugo+rwx',
  'o+w',
  'a+w',
  '666',
  '0666',
];

/** `dd if=` sources that overwrite a target with zeros or noise. */
export const DD_WIPE_SOURCES: readonly string[] = ['/dev/zero', '/dev/random', '/dev/urandom'];

/** Container runners whose `run`/`create` may break out: `--privileged`, host namespaces, mounting `/`. */
export const CONTAINER_RUNNERS: readonly string[] = ['docker', 'podman', 'nerdctl'];
export const CONTAINER_ESCAPE_FLAGS: readonly RegExp[] = [
  /^--privileged(=true)?$/,
  /^--(pid|ipc|userns|uts)=host$/,
  /^--cap-add=(all|sys_admin)$/i,
  /^--security-opt=.*unconfined/,
];
/** Host sockets that give root when mounted into a container. */
export const CONTAINER_SOCKETS: readonly string[] = [
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/run/podman',
];
