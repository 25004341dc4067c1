// What `/model <name>` checks before the chat switches: the provider's API key (at a terminal asked for and stored as
// `keel auth login` does; else the command that stores it named). Loaded at /model only.
import { credentialEnvVar, missingApiKey } from '../providers/credentials.js';
import type { Run } from '../runtime/assemble.js';
import type { ChatScreen } from '../ui/chat-screen.js';
import { logInForKey } from './auth-command.js';
import { type ChatOptions, switchedOptions } from './chat-start.js';
import { modelName } from './chat-usage.js';
import { loadConfigFor } from './run-options.js';

/** What the check needs of the chat. */
export interface ModelCheckIo {
  /** Where it says why it stays, and the terminal it hands to the key's hidden prompt. */
  screen: Pick<ChatScreen, 'print' | 'notice' | 'reader'>;
  /** A person at a terminal, who can be asked for a key. */
  interactive: boolean;
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
  return '';
}
