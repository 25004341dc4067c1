#!/bin/sh
":" //; # `keel`, the command (copied to dist/keel by the build): starts Node on dist/keel.js beside it.
":" //; # NODE_EXTRA_CA_CERTS: Node 20 reads that file and parses it, with every root certificate of its own, before
":" //; # it runs a line of JavaScript (about 40 ms of a 60 ms start here), even for a run that never opens a TLS
":" //; # connection (a local Ollama). So Node gets the value under another name: Keel puts it back for every process
":" //; # it starts and adds those certificates to its own TLS connections when it first makes one (src/cli/extra-ca.ts).
":" //; # The file is both a shell script and JavaScript: each line of shell hides behind `":" //` (a no-op to the shell,
":" //; # a string and a comment to JavaScript), so `node dist/keel` runs too, through the JavaScript at the end.
":" //; if [ -n "${NODE_EXTRA_CA_CERTS+set}" ]; then
":" //;   KEEL_NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS; export KEEL_NODE_EXTRA_CA_CERTS; unset NODE_EXTRA_CA_CERTS
":" //; fi
":" //; # npm links the command to this file: keel.js is found beside the file itself, not beside the link. Each link
":" //; # is followed with plain readlink (macOS and the BSDs have no readlink -f); a file that is no link costs no process.
":" //; self=$0
":" //; case $self in */*) ;; *) self=./$self ;; esac
":" //; while [ -h "$self" ]; do
":" //;   target=$(readlink -- "$self") || break
":" //;   case $target in /*) self=$target ;; *) self=${self%/*}/$target ;; esac
":" //; done
":" //; command -v node >/dev/null 2>&1 || {
":" //;   echo 'keel: node was not found on PATH: Keel needs Node.js 20 or later (https://nodejs.org)' >&2; exit 127
":" //; }
":" //; exec node "${self%/*}/keel.js" "$@"
":" //; # The shell never reads past here; to a syntax check the JavaScript below is a here-document, ended by `0`.
":" //; exit 127 <<'0'
// Run as JavaScript (`node dist/keel`): the launcher beside it, as `node dist/keel.js` would.
require('./keel.js');
0
