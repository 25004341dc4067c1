#!/usr/bin/env node
// Keel's launcher (copied to dist/keel.js by the build). It runs the bundled CLI, dist/keel.cjs, through V8's
// code cache (dist/keel.cache, made at build time), so start-up skips parsing and compiling most of the code.
// It is CommonJS (dist/package.json says so): Node starts an ES module entry through its ESM loader, about 10 ms
// more before the first line runs. Node 20 loses the dynamic-import callback of scripts run from a code cache: the
// bundle loads packages kept outside it with require(), never import().
// `keel --version` and `keel --help` are answered here, from the version and the help text the build wrote in, without
// reading the bundle or its cache.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { constants, Script } = require('node:vm');

const VERSION = '__KEEL_VERSION__';
const only = process.argv.length === 3 ? process.argv[2] : undefined;
// The help was rendered 80 columns wide: a narrower terminal gets it from the CLI, wrapped to its width.
const helpFits = !process.stdout.isTTY || (process.stdout.columns ?? 80) >= 80;
if (only === '--version' || only === '-V') process.stdout.write(`${VERSION}\n`);
else if ((only === '--help' || only === '-h') && helpFits) {
  let help;
  try {
    help = readFileSync(join(__dirname, 'help.txt'));
  } catch {
    // No help.txt (the build renders it with this): the CLI prints the help.
  }
  if (help) process.stdout.write(help);
  else runCli();
}
// `keel sessions list` answers from its own small bundle, which runs the CLI for any other command line.
else if (process.argv.includes('sessions') && process.argv.includes('list'))
  require('./sessions-list.cjs').run(process.argv, runCli);
else runCli();

function runCli() {
  const file = join(__dirname, 'keel.cjs');
  const cacheFile = join(__dirname, 'keel.cache');
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache: compile from source, only slower.
  }
  // The build keeps the bundle ASCII, so latin1 reads it exactly and skips UTF-8 decoding of 1.4 MB. The file is
  // the module's function expression already (the build wraps it), compiled as it is read.
  const script = new Script(readFileSync(file, 'latin1'), {
    filename: file,
    cachedData,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  // The build runs one warm-up command with this set, so the cache also holds the functions it compiled.
  const writeCache = process.env.KEEL_BUILD_CODE_CACHE;
  if (writeCache) process.on('exit', () => writeFileSync(writeCache, script.createCachedData()));
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, __dirname);
}
