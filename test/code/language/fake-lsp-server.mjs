// A tiny language server for the LSP client's tests: JSON-RPC over stdio, behaviour chosen by argv[2]
// ('crash-at-start', 'dead-on-arrival', 'linger' (ignores exit), 'slow-first' (the first diagnostics 600 ms late), anything else: normal). Positions name what it answers.
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const mode = process.argv[2] ?? 'normal';
// 'dead-on-arrival': a broken install (rustup's proxy without the component) says why and exits before reading a byte.
if (mode === 'dead-on-arrival') {
  process.stderr.write('error: Unknown binary in official toolchain stable\n');
  process.exit(1);
}
const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);
const texts = new Map();
let root = '';

const range = (line, character, length) => ({
  start: { line, character },
  end: { line, character: character + length },
});

let readyAt;
function publish(uri, version) {
  // 'slow-first': no diagnostics until 600 ms after the first file opened, as a cold pyright reads the project.
  if (mode === 'slow-first') {
    readyAt ??= Date.now() + 600;
    if (Date.now() < readyAt) {
      setTimeout(() => publish(uri, version), readyAt - Date.now());
      return;
    }
  }
  const text = texts.get(uri) ?? '';
  const diagnostics = [];
  text.split('\n').forEach((line, i) => {
    const at = line.indexOf('bad');
    if (at >= 0)
      diagnostics.push({ range: range(i, at, 3), severity: 1, code: 'E1', message: `bad on line ${i + 1}` });
  });
  connection.sendNotification('textDocument/publishDiagnostics', { uri, version, diagnostics });
}

connection.onRequest('initialize', (params) => {
  if (mode === 'crash-at-start') process.exit(3);
  root = params.rootUri;
  return {
    capabilities: {
      textDocumentSync: 1,
      referencesProvider: true,
      definitionProvider: true,
      renameProvider: { prepareProvider: true },
    },
  };
});
connection.onNotification('textDocument/didOpen', ({ textDocument }) => {
  texts.set(textDocument.uri, textDocument.text);
  publish(textDocument.uri, textDocument.version);
});
connection.onNotification('textDocument/didChange', ({ textDocument, contentChanges }) => {
  texts.set(textDocument.uri, contentChanges.at(-1).text);
  publish(textDocument.uri, textDocument.version);
});
connection.onNotification('textDocument/didClose', ({ textDocument }) => texts.delete(textDocument.uri));
connection.onRequest('keel/text', ({ uri }) => texts.get(uri) ?? null);
// A busy spell: no diagnostics for the next `ms` milliseconds.
connection.onRequest('keel/slow', ({ ms }) => {
  readyAt = Date.now() + ms;
  return null;
});

// Line 0: answered; line 1: crash; line 2: never answered.
connection.onRequest('textDocument/references', ({ textDocument, position }) => {
  if (position.line === 1) process.exit(5);
  if (position.line === 2) return new Promise(() => {});
  return [
    { uri: textDocument.uri, range: range(0, 4, 3) },
    { uri: textDocument.uri, range: range(0, 4, 3) },
    { uri: `${root}/b.txt`, range: range(3, 0, 3) },
    { uri: pathToFileURL('/etc/hosts').href, range: range(0, 0, 3) },
  ];
});
connection.onRequest('textDocument/definition', ({ textDocument }) => ({
  uri: textDocument.uri,
  range: range(0, 4, 3),
}));
connection.onRequest('textDocument/prepareRename', ({ position }) =>
  position.line === 5 ? null : range(0, 4, 3),
);
// newName picks the edit: 'outside' edits /etc/hosts, 'create' creates a file, else two edits in a.txt.
connection.onRequest('textDocument/rename', ({ textDocument, newName }) => {
  if (newName === 'outside')
    return { changes: { [pathToFileURL('/etc/hosts').href]: [{ range: range(0, 0, 1), newText: 'x' }] } };
  if (newName === 'create') return { documentChanges: [{ kind: 'create', uri: `${root}/new.txt` }] };
  return {
    documentChanges: [
      {
        textDocument: { uri: textDocument.uri, version: null },
        edits: [
          { range: range(0, 4, 3), newText: newName },
          // After "😀 " (two UTF-16 units and a space) on line 1.
          { range: range(1, 3, 3), newText: newName },
        ],
      },
    ],
  };
});
connection.onRequest('shutdown', () => null);
connection.onNotification('exit', () => {
  if (mode !== 'linger') process.exit(0);
});
connection.listen();
