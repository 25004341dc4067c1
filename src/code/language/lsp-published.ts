// Diagnostics a language server publishes (textDocument/publishDiagnostics) for a document's version, waited for.
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import { duration, type LspClient, LspError } from './lsp-client.js';

/**
 * Waits for the diagnostics `client` publishes for `document`'s version (or, from a server that sends no versions,
 * after `since`): rejected when the server exits, after `limitMs`, or on `signal`.
 */
export function publishedDiagnostics(
  client: LspClient,
  id: string,
  document: { uri: string; version: number },
  since: number,
  signal: AbortSignal,
  limitMs: number,
): Promise<LspDiagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (client.exited) return done(() => reject(new LspError(client.exited as string)));
      const got = client.published.get(document.uri);
      if (!got) return;
      const version = got.params.version;
      const fresh =
        version === undefined || version === null ? got.sequence > since : version >= document.version;
      if (fresh) done(() => resolve(got.params.diagnostics));
    };
    const timer = setTimeout(
      () => done(() => reject(new LspError(`${id} published no diagnostics within ${duration(limitMs)}`))),
      limitMs,
    );
    const abort = () => done(() => reject(signal.reason));
    const unsubscribe = client.onChange(check);
    signal.addEventListener('abort', abort, { once: true });
    const done = (finish: () => void) => {
      clearTimeout(timer);
      unsubscribe();
      signal.removeEventListener('abort', abort);
      finish();
    };
    check();
  });
}
