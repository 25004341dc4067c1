// What a tool call will do, worked out before it runs, and the question put to the user about it.

/** A tool call's effects, known before it runs: the policy judges them and approvals show them. */
export interface ToolPreview {
  /** Absolute paths inside the workspace the call reads. */
  reads: string[];
  /** Absolute paths the call creates, changes or deletes. */
  writes: string[];
  /** The shell command it runs. */
  command?: string;
  /** The http(s) URL it connects to (web tools): the policy judges its domain. */
  url?: string;
  /** A unified diff of the file change it makes. */
  diff?: string;
  /** One line for the user: `write src/a.ts (12 lines, new file)`. */
  summary: string;
  /**
   * The call's effects are decided later, call by call (a sub-agent that may change files): it never runs beside
   * the turn's other calls, although the policy lets it start without asking.
   */
  sequential?: boolean;
  /** The call starts something that goes on changing files after it returns (a background command). */
  lingers?: boolean;
}

export interface ApprovalRequest {
  /** The tool call's id. */
  id: string;
  tool: string;
  /** Why the policy asks. */
  reason: string;
  /** The call's validated arguments (the library API's canUseTool and stream-json clients read them). */
  args?: unknown;
  /** One line: the command, or the tool and its main argument. */
  summary: string;
  preview?: Partial<ToolPreview>;
  /** What answering "always" would let run without asking for the rest of the session, in words. */
  always?: string;
  /** Whether the answer may be kept for the workspace (`A`); never for protected paths or the confirm tier. */
  keep?: boolean;
  /** The argument the user may rewrite in their editor: the command, or the content of a file write. */
  edit?: {
    kind: 'command' | 'content';
    text: string /** A file name for the editor (its syntax). */;
    file: string;
  };
}

/**
 * The user's answer. `always` is remembered for the session (ApprovalMemory); `edit` carries the rewritten text
 * of `request.edit`, which the executor validates and puts to the policy again; `deny` may carry feedback for
 * the model.
 */
export type ApprovalAnswer =
  | { decision: 'once' }
  | { decision: 'always' }
  /** Always, in this workspace: kept in Keel's state dir for later chats (`A`). */
  | { decision: 'keep' }
  | { decision: 'edit'; edited: string }
  | { decision: 'deny'; feedback?: string };

/** Asks the user; answers deny when declined, cancelled (signal) or when input ends. */
export type Approve = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;
