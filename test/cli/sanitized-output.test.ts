// Error reports and model tables quote text from servers and files: it is printed escaped, never acted on.
import { describe, expect, test } from 'vitest';
import { formatTable } from '../../src/cli/models-command.js';
import { formatError } from '../../src/cli/report.js';
import { KeelError } from '../../src/core/errors.js';

describe('CLI output of untrusted text', () => {
  test('an error message and hint quoting a server are escaped', () => {
    const error = new KeelError('provider', 3, 'server said \x1b]0;owned\x07', { hint: 'try\r again' });
    expect(formatError(error)).toBe('error: server said \\x1b]0;owned\\x07\n  hint: try\\r again\n');
  });

  test("a model id from the provider's server is escaped in the models table", () => {
    const table = formatTable([{ id: 'evil\x1b[2J', source: 'server' }], undefined);
    expect(table).toContain('  evil\\x1b[2J');
    expect(table).not.toContain('\x1b');
  });
});
