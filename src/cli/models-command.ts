// `keel models [provider]`: the provider's models with context window, output limit, tools, streaming and price.
import { type ProviderName, providerNames } from '../config/provider-schema.js';
import { ExitCode, UsageError } from '../core/errors.js';
import { groupDigits } from '../core/text.js';
import type { ModelCapabilities } from '../providers/capabilities.js';
import { listModels, tableListWithoutKey } from '../providers/index.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { sanitize } from '../ui/sanitize.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure, reportWarnings } from './report.js';
import { loadConfigFor } from './run-options.js';
import { interruptSignal } from './signals.js';

function asProvider(name: string): ProviderName {
  if ((providerNames as readonly string[]).includes(name)) return name as ProviderName;
  throw new UsageError(`unknown provider "${name}"`, { hint: `providers: ${providerNames.join(', ')}` });
}

export async function modelsCommand(
  name: string | undefined,
  options: GlobalOptions,
  out: CommandOutput = processOutput,
): Promise<number> {
  const json = options.output !== 'text';
  try {
    const provider = name === undefined ? undefined : asProvider(name);
    const { config, warnings } = await loadConfigFor({ ...options, provider: provider ?? options.provider });
    reportWarnings(warnings, out);
    const selected = config.provider.type;
    // Ollama lists `qwen3:latest` for the configured `qwen3`.
    const configured = selected === 'replay' ? undefined : config.provider[selected].model;
    // A hosted provider without a key: Keel's own table, said so on stderr, rather than a failure.
    const fallback = await tableListWithoutKey(config.provider, process.env);
    if (fallback) out.notice(`${fallback.note}\n`);
    const models = fallback?.models ?? (await fetchList(config.provider));
    models.sort((a, b) => a.id.localeCompare(b.id));
    const marked =
      models.find((m) => m.id === configured) ?? models.find((m) => m.id === `${configured}:latest`);
    if (json) {
      const rows = models.map((m) => ({ ...m, configured: m === marked }));
      out.print(`${JSON.stringify(rows, null, 2)}\n`);
    } else {
      out.print(formatTable(models, marked?.id));
    }
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json, out });
  }
}

async function fetchList(provider: Parameters<typeof listModels>[0]) {
  const interrupt = interruptSignal();
  return listModels(provider, { env: process.env, signal: interrupt.signal }).finally(() =>
    interrupt.dispose(),
  );
}

const yesNo = (value: boolean | undefined) => (value === undefined ? '-' : value ? 'yes' : 'no');
const count = (value: number | undefined) => (value === undefined ? '-' : groupDigits(value));
const usd = (value: number) => `$${value < 0.01 && value > 0 ? value.toPrecision(2) : value.toFixed(2)}`;

/** One row per model; `*` marks the configured one. Price: USD per million input / output tokens. */
export function formatTable(models: ModelCapabilities[], configured: string | undefined): string {
  const header = ['MODEL', 'CONTEXT', 'MAX OUT', 'TOOLS', 'STREAM', 'PRICE IN/OUT PER 1M'];
  const rows = models.map((m) => [
    // Model ids come from the provider's server.
    `${m.id === configured ? '* ' : '  '}${sanitize(m.id)}`,
    count(m.contextWindow),
    count(m.maxOutput),
    yesNo(m.tools),
    yesNo(m.streaming),
    m.price ? `${usd(m.price.inputPerMTok)}/${usd(m.price.outputPerMTok)}` : '-',
  ]);
  const all = [['  MODEL', ...header.slice(1)], ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const lines = all.map((row) =>
    row
      .map((cell, i) =>
        i === 0 || i === row.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!),
      )
      .join('  ')
      .trimEnd(),
  );
  if (models.length === 0) lines.push('  (no models)');
  return `${lines.join('\n')}\n`;
}
