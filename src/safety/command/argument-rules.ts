// Which arguments of a program are paths, as data: the options whose value is a file it writes (`sort -o`,
// `cp -t`), a path it reads (`grep -f`, `rg --ignore-file`), a file after `@` (`curl -d @file`) or text (`git
// commit -m`), how its parser reads them (options.ts), and the leading operands that are text (grep's pattern).
// Everything else that looks like a path is checked as one.

import type { OptionSyntax } from './options.js';

export interface ArgumentRules {
  /** Options whose value is text, never a path (`git commit -m`, grep's `-e`, `cut -d /`). */
  text?: readonly string[];
  /** Options whose value is a file the program writes, or a directory it writes into (`sort -o`, `cp -t`). */
  writes?: readonly string[];
  /** Options whose value is a path the program reads or works in, checked as a path when it looks like one. */
  paths?: readonly string[];
  /**
   * Options whose value names a file after `@` or `=<` (`curl -d @file`, `-F f=@file`, `--data-urlencode n@file`);
   * a value with neither is checked as a path when it looks like one (`gh issue create -F body.md`).
   */
  atFiles?: readonly string[];
  /** Options with an optional value, attached only (`sed -i.bak`). */
  optional?: readonly string[];
  /** How the program reads its options (options.ts); default: getopt clusters. */
  style?: OptionSyntax['style'];
  oldStyle?: boolean;
  /** The first operands that are text (grep's pattern), unless one of `patternOptions` gives it. */
  leading?: number;
  patternOptions?: readonly string[];
  /** No argument is a path (echo). */
  none?: boolean;
  /** Options before a subcommand (`git -C dir`); the rules above then apply after it, with the subcommand's own. */
  globals?: ArgumentRules;
  subcommands?: Readonly<Record<string, ArgumentRules>>;
}

/** A list of options written as one string: `list('-o --output')`. */
const list = (spaced: string): readonly string[] => spaced.trim().split(/\s+/);

const NONE: ArgumentRules = { none: true };

const COPY: ArgumentRules = { writes: ['-t', '--target-directory'], text: ['-S', '--suffix'] };

const GREP: ArgumentRules = {
  paths: list('-f --file --exclude-from'),
  text: list(`
    -e --regexp -m --max-count -A --after-context -B --before-context -C --context --label --include
    --exclude --exclude-dir -d --directories -D --devices --binary-files --group-separator
  `),
  leading: 1,
  patternOptions: list('-e --regexp -f --file'),
};

const RG: ArgumentRules = {
  // --pre and --hostname-bin name programs rg runs: checked as paths like any other.
  paths: list('-f --file --ignore-file --pre --hostname-bin'),
  text: list(`
    -e --regexp -g --glob --iglob -t --type -T --type-not --type-add --type-clear -m --max-count -A
    --after-context -B --before-context -C --context -M --max-columns -j --threads -d --max-depth -E
    --encoding -r --replace --colors --color --sort --sortr --pre-glob --path-separator
    --context-separator --field-match-separator --field-context-separator --max-filesize --engine
  `),
  leading: 1,
  patternOptions: list('-e --regexp -f --file'),
};

const SED: ArgumentRules = {
  paths: ['-f', '--file'],
  text: list('-e --expression -l --line-length'),
  optional: ['-i', '--in-place'],
  leading: 1,
  patternOptions: list('-e --expression -f --file'),
};

const AWK: ArgumentRules = {
  paths: list('-f --file -i --include -l --load -E --exec'),
  text: list('-v --assign -F --field-separator -W -e --source'),
  leading: 1,
  patternOptions: list('-f --file -E --exec -e --source'),
};

/** C compilers and linkers: every option a word of its own, `-o x` or `-ox`. */
const COMPILER: ArgumentRules = {
  style: 'prefix',
  writes: list('-o -MF -aux-info'),
  paths: list('-I -L -B -T -isystem -iquote -idirafter -include -imacros -isysroot --sysroot -specs'),
  text: list('-D -U -x -l -MT -MQ -Xlinker -Xassembler -Xpreprocessor -e'),
};

const TAR: ArgumentRules = {
  oldStyle: true,
  // The archive (-f) is written when creating; -C is where members are read or extracted (program-acts.ts).
  paths: list(`
    -f --file -C --directory -T --files-from -X --exclude-from -I --use-compress-program -F
    --info-script --new-volume-script
  `),
  writes: list('-g --listed-incremental --index-file'),
  text: list(`
    -b --blocking-factor -V --label -N --newer --after-date --mtime --owner --group --mode --transform
    --xform --exclude --format -H -K --starting-file -L --tape-length --strip-components
  `),
};

const GIT: ArgumentRules = {
  globals: {
    paths: list('-C --git-dir --work-tree --exec-path'),
    text: list('-c --config-env --namespace --super-prefix --attr-source --list-cmds'),
  },
  text: list('-m --message --grep --author --committer -S -G --format --pretty'),
  writes: ['--output'],
  subcommands: {
    archive: { writes: ['-o', '--output'], text: list('--prefix --format --remote') },
    'format-patch': { writes: ['-o', '--output-directory'], text: ['--subject-prefix', '--suffix'] },
    commit: {
      paths: list('-F --file -t --template --pathspec-from-file'),
      text: list('-C --reuse-message -c --reedit-message --fixup --squash --date --trailer'),
      optional: list('-S --gpg-sign -u --untracked-files'),
    },
    tag: { paths: ['-F', '--file'], text: ['-u', '--local-user'] },
    notes: { paths: ['-F', '--file'], text: list('-C --reuse-message -c --reedit-message --ref') },
    merge: { paths: ['-F', '--file'], text: list('-s --strategy -X --strategy-option --into-name') },
    // What `git config` writes is judged by its keys (program-acts.ts); the file must stay inside.
    config: {
      paths: ['-f', '--file'],
      text: list('--blob --type --default --comment --value'),
    },
    blame: { paths: list('--contents -S --ignore-revs-file'), text: list('-L --ignore-rev --date') },
    clone: {
      writes: ['--separate-git-dir'],
      paths: list('--reference --reference-if-able --template'),
      text: list('-b --branch -o --origin --depth -c --config --filter -j --jobs'),
    },
    init: {
      writes: ['--separate-git-dir'],
      paths: ['--template'],
      text: list('-b --initial-branch --object-format --ref-format'),
    },
    'ls-files': { paths: ['-X', '--exclude-from'], text: list('-x --exclude --format') },
    'fast-export': { writes: ['--export-marks'], paths: ['--import-marks', '--import-marks-if-exists'] },
    'fast-import': { writes: ['--export-marks'], paths: ['--import-marks', '--import-marks-if-exists'] },
    apply: {
      writes: ['--build-fake-ancestor'],
      text: list('--directory --exclude --include -p -C --whitespace'),
    },
    am: { text: list('--directory --exclude --include -p -C --whitespace') },
    add: { paths: ['--pathspec-from-file'] },
    rm: { paths: ['--pathspec-from-file'] },
    reset: { paths: ['--pathspec-from-file'] },
    restore: { paths: ['--pathspec-from-file'] },
    checkout: { paths: ['--pathspec-from-file'] },
    stash: { paths: ['--pathspec-from-file'] },
  },
};

const CURL: ArgumentRules = {
  writes: list(`
    -o --output --output-dir -c --cookie-jar -D --dump-header --trace --trace-ascii --stderr --libcurl
    --etag-save --hsts --alt-svc
  `),
  paths: list(`
    -K --config -T --upload-file --netrc-file -E --cert --key --cacert --capath --crlfile --etag-compare
    -b --cookie
  `),
  atFiles: list(`
    -d --data --data-ascii --data-binary --data-urlencode --json -F --form -H --header -w --write-out
    --variable
  `),
  text: list(`
    --data-raw --form-string -A --user-agent -u --user -X --request -e --referer -x --proxy -U
    --proxy-user -m --max-time --connect-timeout -r --range -C --continue-at --retry --limit-rate
    --resolve --connect-to --url
  `),
};

const WGET: ArgumentRules = {
  writes: list(`
    -O --output-document -o --output-file -a --append-output -P --directory-prefix --save-cookies
    --warc-file
  `),
  paths: list(`
    -i --input-file --post-file --body-file --load-cookies --certificate --private-key --ca-certificate
    --ca-directory --config
  `),
  text: list(`
    -e --execute -U --user-agent -t --tries -T --timeout -w --wait -Q --quota -l --level -A --accept -R
    --reject -D --domains --header --user --password --post-data --body-data --method --referer
  `),
};

/** Per program (the base name; a compiler's version suffix is dropped: gcc-12 → gcc). */
export const ARGUMENT_RULES: Readonly<Record<string, ArgumentRules>> = {
  echo: NONE,
  printf: NONE,
  test: NONE,
  '[': NONE,
  '[[': NONE,
  expr: NONE,
  seq: NONE,
  tr: NONE,
  true: NONE,
  false: NONE,
  sleep: NONE,
  wait: NONE,
  exit: NONE,
  return: NONE,
  shift: NONE,
  cp: COPY,
  mv: COPY,
  ln: COPY,
  install: { ...COPY, text: list('-S --suffix -m --mode -o --owner -g --group') },
  sort: {
    writes: list('-o --output -T --temporary-directory'),
    paths: list('--files0-from --random-source --compress-program'),
    text: list('-k --key -t --field-separator -S --buffer-size --parallel --batch-size'),
  },
  uniq: { text: list('-f --skip-fields -s --skip-chars -w --check-chars') },
  cut: {
    text: list('-d --delimiter -f --fields -b --bytes -c --characters --output-delimiter'),
  },
  paste: { text: ['-d', '--delimiters'] },
  truncate: { paths: ['-r', '--reference'], text: ['-s', '--size'] },
  touch: { paths: ['-r', '--reference'], text: list('-d --date -t') },
  shred: { paths: ['--random-source'], text: list('-n --iterations -s --size') },
  split: {
    paths: ['--filter'],
    text: list('-a --suffix-length -b --bytes -C --line-bytes -l --lines -n --number -t'),
  },
  csplit: { writes: ['-f', '--prefix'], text: list('-b --suffix-format -n --digits') },
  mktemp: { writes: ['-p', '--tmpdir'], optional: ['--tmpdir'], text: ['--suffix'] },
  tree: { writes: ['-o'], paths: ['--fromfile'], text: list('-P -I -L -H -T --charset') },
  base64: { writes: ['-o', '--output'] },
  diff: {
    paths: list('--from-file --to-file -X --exclude-from'),
    text: list('-x --exclude -I --ignore-matching-lines --label -F --show-function-line'),
  },
  patch: {
    writes: list('-o --output -r --reject-file'),
    paths: list('-i --input -d --directory'),
    text: list('-p --strip -F --fuzz -B --prefix -Y --basename-prefix -z --suffix'),
  },
  make: {
    paths: list('-C --directory -f --file --makefile -I --include-dir'),
    text: list('-o --old-file --assume-old -W --what-if --new-file --assume-new --eval'),
  },
  cmake: {
    style: 'prefix',
    writes: ['-B'],
    paths: list('-S -C -P --toolchain --install-prefix'),
    text: list('-D -U -G -T -A'),
  },
  tar: TAR,
  bsdtar: TAR,
  unzip: { writes: ['-d'], text: ['-P'] },
  zip: { writes: list('-O --output-file -b --temp-path'), text: ['-P', '--password'] },
  cpio: {
    paths: list('-D --directory -F --file -O -I -E --pattern-file'),
    text: list('-H --format -M --message -R --owner'),
  },
  zstd: { writes: list('-o --output-dir-flat --output-dir-mirror'), paths: ['-D'] },
  gpg: { writes: ['-o', '--output'], paths: ['--homedir'] },
  strip: { writes: ['-o'] },
  rsync: {
    writes: list('--log-file --write-batch --only-write-batch --backup-dir --partial-dir -T --temp-dir'),
    paths: list(`
      -e --rsh --exclude-from --include-from --files-from --password-file --read-batch --compare-dest
      --copy-dest --link-dest
    `),
    text: list('--exclude --include -f --filter --chmod --chown --suffix -M --remote-option'),
  },
  find: {
    style: 'word',
    writes: list('-fprint -fprint0 -fprintf -fls'),
    paths: list('-newer -anewer -cnewer -samefile -files0-from'),
    text: list('-name -iname -path -ipath -regex -iregex -wholename -iwholename -printf'),
  },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: RG,
  ag: { text: ['-G', '--file-search-regex'], leading: 1 },
  sed: SED,
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  nawk: AWK,
  jq: {
    paths: list('-f --from-file -L'),
    text: ['--arg', '--argjson'],
    leading: 1,
    patternOptions: ['-f', '--from-file'],
  },
  git: GIT,
  gh: {
    paths: ['--body-file', '--input'],
    atFiles: ['-F', '--field'],
    text: list('-b --body -t --title -m --message -R --repo'),
  },
  curl: CURL,
  wget: WGET,
  cc: COMPILER,
  'c++': COMPILER,
  gcc: COMPILER,
  'g++': COMPILER,
  clang: COMPILER,
  'clang++': COMPILER,
  tcc: COMPILER,
  ld: COMPILER,
  as: { writes: ['-o'], paths: ['-I'] },
  rustc: { writes: ['-o', '--out-dir'], paths: ['-L'], text: list('--crate-name --crate-type --edition') },
  go: {
    style: 'prefix',
    writes: list('-o -coverprofile -cpuprofile -memprofile -blockprofile -mutexprofile -trace -outputdir'),
    paths: list('-C -modfile -overlay -pgo'),
    text: list('-ldflags -gcflags -asmflags -tags -run -bench -count -timeout -mod -p'),
  },
};

/** The rules of a program, by its base name: `gcc-12` and `clang-17` are read as gcc and clang. */
export function argumentRulesOf(program: string): ArgumentRules | undefined {
  const own = (name: string) => (Object.hasOwn(ARGUMENT_RULES, name) ? ARGUMENT_RULES[name] : undefined);
  return own(program) ?? own(program.replace(/-\d+(\.\d+)*$/, ''));
}
