// What `/model <name>` checks before the chat switches: the provider's API key (at a terminal asked for and stored as
// `keel auth login` does; else the command that stores it named) and the model's name, against the provider's own
// list where one request gets a list naming every model it takes (providers/model-names.ts). Loaded at /model only.
import { credentialEnvVar, missingApiKey } from '../providers/credentials.js';
import { checkModelName, listedModelNames } from '../providers/model-names.js';
import type { Run } from '../runtime/assemble.js';
import type { ChatScreen } from '../ui/chat-screen.js';
import { sanitize } from '../ui/sanitize.js';
import { logInForKey } from './auth-command.js';
import { modelSwitch } from './chat-commands.js';
import { type ChatOptions, switchedOptions } from './chat-start.js';
import { modelName } from './chat-usage.js';
import { loadConfigFor } from './run-options.js';

/** How long /model waits for the provider's model list before it switches unchecked. */
const LIST_MS = 3000;

/** What the check needs of the chat. */
export interface ModelCheckIo {
  /** Where it says why it stays, and the terminal it hands to the key's hidden prompt. */
  screen: Pick<ChatScreen, 'print' | 'notice' | 'reader'>;
  /** A person at a terminal, who can be asked for a key. */
  interactive: boolean;
  /** Shows the spinner while `work` runs; Ctrl-C aborts its signal. */
  busy<T>(label: string, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/**
 * Whether `/model <arg>` may switch from the chat's `run`: undefined to stay (why already said), else what to add
 * to the line naming the new model ('' for nothing).
 */
export async function checkModelSwitch(
  arg: string,
  options: ChatOptions,
  run: Run,
  io: ModelCheckIo,
): Promise<string | undefined> {
  const { screen } = io;
  const current = { provider: run.model.provider, name: modelName(run) };
  const provider = (await loadConfigFor(switchedOptions(options, arg, current.provider))).config.provider;
  const stays = `the chat stays on ${current.name}`;
  const keyless = await missingApiKey(provider.type, process.env);
  if (keyless) {
    if (!io.interactive) {
      screen.notice(
        `no API key for ${keyless}: run keel auth login ${keyless} (or set ${credentialEnvVar[keyless]}), then /model ${arg} again; ${stays}\n`,
      );
      return undefined;
    }
    if (!(await screen.reader.handOver(() => logInForKey(keyless, screen)))) {
      screen.notice(`no key stored; ${stays}\n`);
      return undefined;
    }
  }
  // A bare provider name takes its configured model, as a start with --provider does: not checked.
  if (modelSwitch(arg, current.provider).model === undefined) return '';
  const model = provider.type === 'replay' ? '' : provider[provider.type].model;
  const unchecked = (why: string) => ` (the name is not checked: ${why})`;
  let stopped = false;
  let listed: Awaited<ReturnType<typeof listedModelNames>>;
  try {
    listed = await io.busy('checking the model name', (signal) => {
      signal.addEventListener('abort', () => (stopped = true), { once: true });
      const wait = AbortSignal.any([signal, AbortSignal.timeout(LIST_MS)]);
      return listedModelNames(provider, { env: process.env, signal: wait });
    });
  } catch (error) {
    if (stopped) {
      screen.notice(`${stays}\n`);
      return undefined;
    }
    if (error instanceof Error && error.name === 'TimeoutError')
      return unchecked(`${provider.type} did not list its models within ${LIST_MS / 1000} s`);
    return unchecked(sanitize(firstLine(error instanceof Error ? error.message : String(error))));
  }
  if ('unasked' in listed) return unchecked(listed.unasked);
  if (listed.names.length === 0) return unchecked(`${provider.type} listed no models`);
  const check = checkModelName(model, listed.names);
  if (check.known) return '';
  // The names come from the provider's server.
  const near = check.near.length > 0 ? `; did you mean ${check.near.map(sanitize).join(', ')}?` : '';
  // A server that may answer names it does not list (llama.cpp answers any): switched, with what its list says.
  if (!listed.binding) return ` (${provider.type} does not list ${model}${near} — switched anyway)`;
  screen.notice(`${provider.type} has no model ${model}${near} (/model lists them); ${stays}\n`);
  return undefined;
}

const firstLine = (text: string) => text.split('\n')[0]!;
