// `keel doctor`: what a run needs, checked one line at a time — Node, the sandbox, git, ripgrep, the provider
// (credential, address, model), each MCP server, and Keel's own directories — each failure with its fix. Exit 1
// when something a run needs is broken; the rest (sandbox, git, ripgrep, MCP) are warnings.

import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { cacheDir, dataDir, stateDir, userConfigPath } from '../config/paths.js';
import { ExitCode, KeelError } from '../core/errors.js';
import { probeBubblewrap, SANDBOX_HINT } from '../exec/sandbox-choice.js';
import {
  CredentialStore,
  credentialEnvVar,
  credentialProviders,
  credentialsPath,
  isCredentialProvider,
} from '../providers/credentials.js';
import { listModels } from '../providers/index.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { sanitize } from '../ui/sanitize.js';
import { streamStyle } from '../ui/style.js';
import { terminalColumns, wrapFor } from '../ui/wrap.js';
import type { GlobalOptions } from './global-options.js';
import { listServers } from './mcp-command.js';
import { reportFailure } from './report.js';
import { loadConfigFor } from './run-options.js';

export interface Check {
  name: string;
  ok: boolean;
  /** A run cannot work without it: its failure makes `keel doctor` exit 1. */
  required: boolean;
  detail: string;
  fix?: string;
}

const MIN_NODE = 20;
const PROVIDER_TIMEOUT_MS = 5000;

const pass = (name: string, detail: string, required = false): Check => ({
  name,
  ok: true,
  required,
  detail,
});
const failed = (name: string, detail: string, fix: string, required = false): Check => ({
  name,
  ok: false,
  required,
  detail,
  fix,
});

function version(program: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(program, args, { timeout: 5000 }, (error, stdout) =>
      resolve(error ? undefined : stdout.split('\n')[0]?.trim()),
    );
  });
}

function nodeCheck(): Check {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= MIN_NODE
    ? pass('node', `Node.js ${process.versions.node}`, true)
    : failed('node', `Node.js ${process.versions.node}`, `install Node.js ${MIN_NODE} or later`, true);
}

async function sandboxCheck(env: NodeJS.ProcessEnv): Promise<Check> {
  const why = await probeBubblewrap(false, env, true);
  return why === undefined
    ? pass('sandbox', 'bubblewrap runs commands in their own namespaces (probe ran)')
    : failed('sandbox', why, SANDBOX_HINT.replace(/, or run without --sandbox$/, ''));
}

async function gitCheck(): Promise<Check> {
  const found = await version('git', ['--version']);
  return found
    ? pass('git', found)
    : failed(
        'git',
        'git is not on PATH: checkpoints copy files instead',
        'install git (apt-get install git)',
      );
}

async function ripgrepCheck(): Promise<Check> {
  try {
    const { bundledRgPath } = await import('../tools/ripgrep.js');
    const found = await version(await bundledRgPath(), ['--version']);
    if (found) return pass('ripgrep', found);
  } catch {
    // Reported below.
  }
  return failed(
    'ripgrep',
    'the bundled rg does not run: grep and glob walk the tree instead (slower)',
    'npm rebuild @vscode/ripgrep',
  );
}

/** The provider a run would use: its credential and where it is, its address answering, its model listed. */
async function providerChecks(loaded: LoadedConfig, env: NodeJS.ProcessEnv): Promise<Check[]> {
  const { provider } = loaded.config;
  const type = provider.type;
  if (type === 'replay') return [pass('provider', 'replay: answers come from a cassette, no network')];
  const checks: Check[] = [];
  const store = new CredentialStore({ env });
  if (isCredentialProvider(type)) {
    const found = await store.lookup(type);
    if (!found) {
      checks.push(
        failed(
          `provider ${type}`,
          'no credential found',
          type === 'copilot'
            ? 'keel auth login copilot'
            : `keel auth login ${type} (or set ${credentialEnvVar[type]})`,
          true,
        ),
      );
      return checks;
    }
    const where =
      found.source === 'env'
        ? credentialEnvVar[type]
        : found.source === 'file'
          ? credentialsPath(env)
          : found.source;
    checks.push(pass(`provider ${type}`, `credential found (${where})`, true));
  }
  const model = provider[type].model;
  try {
    const models = await listModels(provider, { env, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
    const known = models.some((m) => m.id === model || m.id === `${model}:latest`);
    checks.push(
      known
        ? pass(`model ${model}`, `${type} answers and lists it`, true)
        : failed(
            `model ${model}`,
            `${type} answers but does not list it`,
            `keel models ${type} lists the models; set one with --model or provider.${type}.model`,
            true,
          ),
    );
  } catch (error) {
    const message =
      error instanceof KeelError ? error.message : error instanceof Error ? error.message : String(error);
    const hint =
      error instanceof KeelError && error.hint
        ? error.hint
        : 'check the provider address with keel config show';
    checks.push(failed(`provider ${type}`, message, hint, true));
  }
  // Other providers with a stored credential: said where it is, without asking them (no network). The search
  // endpoints' keys are web_search's (webSearchCheck), not a model provider's.
  for (const other of credentialProviders) {
    if (other === type || isSearchKey(other)) continue;
    const found = await store.lookup(other);
    if (found) checks.push(pass(`provider ${other}`, `credential found (${found.source}), not selected`));
  }
  return checks;
}

const isSearchKey = (name: string): name is 'brave' | 'tavily' => name === 'brave' || name === 'tavily';

/** web_search's endpoint (web.search): the key it needs found, and where. Nothing configured: no line. */
async function webSearchCheck(loaded: LoadedConfig, env: NodeJS.ProcessEnv): Promise<Check[]> {
  const search = loaded.config.web.search;
  if (!search) return [];
  const name = `web search ${search.provider}`;
  if (!isSearchKey(search.provider)) return [pass(name, `${search.url ?? ''} (no key needed)`)];
  if (search.api_key) return [pass(name, 'key found (web.search.api_key)')];
  const found = await new CredentialStore({ env }).lookup(search.provider);
  if (!found)
    return [
      failed(
        name,
        'no API key found: web_search fails',
        `keel auth login ${search.provider} (or set ${credentialEnvVar[search.provider]})`,
      ),
    ];
  const where =
    found.source === 'env'
      ? credentialEnvVar[search.provider]
      : found.source === 'file'
        ? credentialsPath(env)
        : found.source;
  return [pass(name, `key found (${where})`)];
}

async function mcpChecks(loaded: LoadedConfig, cwd: string | undefined): Promise<Check[]> {
  const servers = loaded.config.mcp.servers;
  if (Object.keys(servers).length === 0) return [];
  const states = await listServers(servers, await resolveWorkspaceDir(cwd));
  return states.map((s) =>
    s.status === 'ready'
      ? pass(`mcp ${s.name}`, `started, ${s.tools.length} tools`)
      : failed(
          `mcp ${s.name}`,
          `${s.status}${s.error ? `: ${s.error}` : ''}`,
          `keel mcp list shows it; fix its command or remove it with keel mcp remove ${s.name}`,
        ),
  );
}

/** A directory Keel writes: absent is fine (made 0700 on first use); present, it must be writable and private. */
async function dirCheck(name: string, dir: string, required: boolean): Promise<Check> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) return pass(name, `${dir} (created on first use)`, required);
  if (!info.isDirectory())
    return failed(name, `${dir} is not a directory`, `remove or rename ${dir}`, required);
  try {
    await access(dir, constants.W_OK);
  } catch {
    return failed(
      name,
      `${dir} is not writable`,
      `chown $(id -u) ${dir}, or point XDG_* elsewhere`,
      required,
    );
  }
  const mode = info.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    return failed(name, `${dir} is readable by others (${mode.toString(8)})`, `chmod 700 ${dir}`, required);
  }
  return pass(name, `${dir} (writable, 0700)`, required);
}

export async function collectChecks(options: GlobalOptions, env: NodeJS.ProcessEnv): Promise<Check[]> {
  const loaded = await loadConfigFor(options);
  const configDir = dirname(userConfigPath(env));
  const groups = await Promise.all([
    Promise.resolve([nodeCheck()]),
    sandboxCheck(env).then((c) => [c]),
    gitCheck().then((c) => [c]),
    ripgrepCheck().then((c) => [c]),
    providerChecks(loaded, env),
    webSearchCheck(loaded, env),
    mcpChecks(loaded, options.cwd),
    Promise.all([
      dirCheck('config dir', configDir, false),
      dirCheck('state dir', stateDir(env), true),
      dirCheck('data dir', dataDir(env), true),
      dirCheck('cache dir', cacheDir(env), false),
    ]),
  ]);
  return groups.flat();
}

export async function doctorCommand(
  options: GlobalOptions,
  out: CommandOutput = processOutput,
): Promise<number> {
  const json = options.output !== 'text';
  try {
    const checks = await collectChecks(options, process.env);
    const broken = checks.some((c) => !c.ok && c.required);
    if (json) {
      out.print(`${JSON.stringify({ ok: !broken, checks }, null, 2)}\n`);
    } else {
      const style = streamStyle(process.stdout, process.env);
      const columns = terminalColumns(process.stdout);
      for (const c of checks) {
        const mark = c.ok ? style.green('✓') : c.required ? style.red('✗') : style.yellow('!');
        const check = wrapFor(`${mark} ${c.name}: ${sanitize(c.detail)}`, columns, '  ');
        const fix = c.fix ? `\n${wrapFor(`    fix: ${c.fix}`, columns, '         ')}` : '';
        out.print(`${check}${fix}\n`);
      }
      out.print(broken ? 'something a run needs is broken (✗ above)\n' : 'ready to run\n');
    }
    return broken ? ExitCode.failed : ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json, out });
  }
}
