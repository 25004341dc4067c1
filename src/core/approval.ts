// What a tool call will do, worked out before it runs, and the question put to the user about it.

/** A tool call's effects, known before it runs: the policy judges them and approvals show them. */
export interface ToolPreview {
  /** Absolute paths inside the workspace the call reads. */
  reads: string[];
  /** Absolute paths the call creates, changes or deletes. */
  writes: string[];
  /** The shell command it runs. */
  command?: string;
  /** A unified diff of the file change it makes. */
  diff?: string;
  /** One line for the user: `write src/a.ts (12 lines, new file)`. */
  summary: string;
}

export interface ApprovalRequest {
  /** The tool call's id. */
  id: string;
  tool: string;
  /** Why the policy asks. */
  reason: string;
  /** One line: the command, or the tool and its main argument. */
  summary: string;
  preview?: Partial<ToolPreview>;
}

/** Asks the user; resolves false when declined, cancelled (signal) or when input ends. */
export type Approve = (request: ApprovalRequest, signal: AbortSignal) => Promise<boolean>;
