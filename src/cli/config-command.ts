// `keel config show`, `keel config get`, `keel config init` and `keel config set`.
import { resolve } from 'node:path';
import { configGroups, isSecretKey, keyAt, unknownKey } from '../config/keys.js';
import { findLeaf } from '../config/layer.js';
import { projectConfigPath, userConfigPath } from '../config/paths.js';
import { maskSecrets } from '../config/secrets.js';
import { configJson, formatConfig, formatEntryValue, formatValue, valueAt } from '../config/show.js';
import { writeStarterConfig } from '../config/starter.js';
import { ConfigError, ExitCode, UsageError } from '../core/errors.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { jsonLine } from '../ui/json-output.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure, reportWarnings } from './report.js';
import { loadConfigFor } from './run-options.js';

/** `out`: where the text goes (default stdout and stderr; a test's capture). */
export async function configShowCommand(
  options: GlobalOptions,
  out: CommandOutput = processOutput,
): Promise<number> {
  try {
    const loaded = await loadConfigFor(options);
    reportWarnings(loaded.warnings, out);
    out.print(
      options.output === 'text' || options.output === undefined
        ? formatConfig(loaded)
        : jsonLine(configJson(loaded)),
    );
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, {
      debug: options.debug,
      out,
      json: options.output !== 'text' && options.output !== undefined,
    });
  }
}

/**
 * `keel config get <key>`: a leaf's value alone (nothing for one not set, a secret masked), a group's keys as
 * `keel config show` prints them, each with where its value came from; a key in or under a named entry
 * (`mcp.servers.fs`, `mcp.servers.fs.env.HOME`) as its value, secrets masked.
 */
export async function configGetCommand(
  key: string,
  options: GlobalOptions,
  out: CommandOutput = processOutput,
): Promise<number> {
  try {
    const leaf = findLeaf(key);
    const group = !leaf && configGroups().some((g) => g.key === key);
    const at = keyAt(key);
    if (!leaf && !group && !at) throw unknownKey(key);
    const loaded = await loadConfigFor(options);
    reportWarnings(loaded.warnings, out);
    if (leaf) out.print(formatValue(loaded, key, leaf.secret));
    else if (group) out.print(formatConfig(loaded, key));
    else {
      // A key of a named entry (mcp.servers.<name>.enabled) the config has no such entry for: say so, not nothing.
      const missing = at?.entries.find((entry) => valueAt(loaded.config, entry) === undefined);
      if (missing)
        throw new ConfigError(`the config has no \`${missing.join('.')}\``, {
          hint: 'keel config show lists what is set',
        });
      out.print(formatEntryValue(loaded, key));
    }
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, out });
  }
}

export async function configInitCommand(
  options: GlobalOptions & { project?: boolean; force?: boolean },
  out: CommandOutput = processOutput,
): Promise<number> {
  try {
    const path = options.project
      ? projectConfigPath(await resolveWorkspaceDir(options.cwd))
      : options.config !== undefined
        ? resolve(options.config)
        : userConfigPath(process.env);
    await writeStarterConfig(path, { force: options.force });
    out.print(`wrote ${path}\n`);
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, out });
  }
}

/** `keel config set provider.type openai`: one key in the user file (or --project's), comments kept. */
export async function configSetCommand(
  key: string,
  value: string,
  options: GlobalOptions & { project?: boolean },
): Promise<number> {
  try {
    if (isSecretKey(key)) {
      throw new UsageError(`\`${key}\` is a secret and is not written to config files by keel config set`, {
        hint: "store credentials with keel auth login <provider>, or set the provider's environment variable",
      });
    }
    const path = options.project
      ? projectConfigPath(await resolveWorkspaceDir(options.cwd))
      : options.config !== undefined
        ? resolve(options.config)
        : userConfigPath(process.env);
    const [{ parse }, { setConfigValues }] = await Promise.all([import('yaml'), import('../config/edit.js')]);
    // `3` is a number and `true` a boolean, as in the file; anything YAML cannot read stays the text given.
    let parsed: unknown = value;
    try {
      parsed = parse(value) ?? value;
    } catch {}
    // A credential in a server's env or headers (`env.GITHUB_TOKEN`, `headers.Authorization`) would sit in the file
    // as plain text: a `${VAR}` reference to it may be written.
    if (JSON.stringify(maskSecrets(parsed, '', key.split('.').at(-1))) !== JSON.stringify(parsed)) {
      throw new UsageError(
        `\`${key}\` would write a secret into ${path}; keel config set does not write secrets`,
        {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
          hint: 'write a reference to an environment variable instead (`${NAME}`, quoted for the shell) and set that variable',
        },
      );
    }
    await setConfigValues(path, { [key]: parsed });
    process.stdout.write(`set ${key} in ${path}\n`);
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug });
  }
}
