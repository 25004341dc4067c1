// Words of a command line given unquoted (`keel ask what does ls -la show?`, `keel policy check rm -rf build`): a
// word starting with `-` reads as an option of keel's, so commander says "unknown option". The fix is to quote them.
import type { Command } from 'commander';

/**
 * `command`'s "unknown option" error gains a hint naming how to quote, unless commander took it for a misspelt option
 * of keel's ("Did you mean --tools?"); its other errors stay as they are.
 */
export function quoteHint<C extends Command>(command: C, example: string): C {
  return command.configureOutput({
    outputError: (text, write) =>
      write(
        text.startsWith('error: unknown option') && !text.includes('Did you mean')
          ? `${text}  hint: quote it: ${example}\n`
          : text,
      ),
  });
}
