// The editor's file system (ACP `fs/read_text_file`, `fs/write_text_file`) as the file tools' FileAccess, for
// the methods the client says it offers: reads see unsaved buffers, writes land in the editor's buffers.
import { type AgentContext, type FileSystemCapabilities, methods } from '@agentclientprotocol/sdk';
import type { FileAccess } from '../core/file-access.js';

export function clientFiles(
  client: AgentContext,
  sessionId: () => string,
  offered: FileSystemCapabilities | undefined,
): FileAccess | undefined {
  if (!offered?.readTextFile && !offered?.writeTextFile) return undefined;
  return {
    ...(offered.readTextFile
      ? {
          readText: async (path, signal) => {
            try {
              const read = await client.request(
                methods.client.fs.readTextFile,
                { sessionId: sessionId(), path },
                { cancellationSignal: signal },
              );
              return read.content;
            } catch {
              // A file the editor cannot open (not there yet, not text): Keel reads the disk and reports why.
              return undefined;
            }
          },
        }
      : {}),
    ...(offered.writeTextFile
      ? {
          writeText: async (path, content, signal) => {
            await client.request(
              methods.client.fs.writeTextFile,
              { sessionId: sessionId(), path, content },
              { cancellationSignal: signal },
            );
          },
        }
      : {}),
  };
}
