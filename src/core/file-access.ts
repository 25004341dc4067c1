// Another program's view of the workspace's files, offered to the file tools: an editor's, through ACP's fs
// methods, so a read sees an unsaved buffer and a write lands in the editor. Paths given are absolute and have
// passed the workspace jail; the executor's policy, checkpoints and audit run around the call as for any other.

export interface FileAccess {
  /** The file's text as the editor holds it; undefined when it cannot say (Keel reads the disk instead). */
  readText?(absolute: string, signal: AbortSignal): Promise<string | undefined>;
  /** Writes the whole text through the editor; absent: Keel writes the file itself. */
  writeText?(absolute: string, content: string, signal: AbortSignal): Promise<void>;
}
