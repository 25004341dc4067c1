// The executor's approval step for a call the policy asks about: an "always" remembered this session, or the
// user's answer (once, always, an edit to put to the policy again, or no with feedback for the model).
import { basename } from 'node:path';
import type { ApprovalAnswer, ApprovalRequest, Approve } from '../core/approval.js';
import type { ToolCall } from '../core/messages.js';
import { type ApprovalMemory, approvalBinding } from '../safety/approval-memory.js';
import type { PolicyDecision } from '../safety/policy.js';
import { fail, type Tool, type ToolContext, type ToolPreview, type ToolResult } from './tool.js';

export type ApprovalOutcome =
  | { kind: 'run' }
  | { kind: 'refused'; result: ToolResult }
  /** The user rewrote the call: `input` goes through validation and the policy again; `note` tells the model. */
  | { kind: 'edited'; input: Record<string, unknown>; note: string };

interface Editable {
  field: 'command' | 'content';
  text: string;
  file: string;
}

/** The argument a user may rewrite: the command a call runs, or the content a call writes. */
function editable(args: unknown, preview: ToolPreview): Editable | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const fields = args as Record<string, unknown>;
  if (preview.command !== undefined && typeof fields.command === 'string') {
    return { field: 'command', text: fields.command, file: 'command.sh' };
  }
  if (typeof fields.content === 'string') {
    const file = typeof fields.path === 'string' && basename(fields.path) ? basename(fields.path) : 'content';
    return { field: 'content', text: fields.content, file };
  }
  return undefined;
}

function editNote(edit: Editable, edited: string): string {
  return edit.field === 'command'
    ? `[the user edited the command before it ran; it ran as: ${edited}]`
    : '[the user edited the content before it was written]';
}

/** Asks the user about a call the policy would not decide alone, unless an "always" answer already covers it. */
export async function askApproval(
  call: ToolCall,
  tool: Tool,
  /**
   * The policy's "ask": why, how to allow the call without asking (for the refusal where nobody can answer), and
   * keepable false when the answer must not outlive the chat (protected paths, the confirm tier).
   */
  { reason, hint, keepable = true }: Pick<PolicyDecision, 'reason' | 'hint' | 'keepable'>,
  args: unknown,
  preview: ToolPreview,
  ctx: ToolContext,
  /** Who answers (absent: nobody can, the call is refused) and the session's remembered "always" answers. */
  asker: { approve?: Approve; approvals?: ApprovalMemory },
): Promise<ApprovalOutcome> {
  if (!asker.approve) {
    const how = hint ? `; to allow it: ${hint}` : '';
    const result = fail(`refused: ${reason}, and this run cannot ask for approval${how}`, { policy: 'deny' });
    return { kind: 'refused', result };
  }
  const binding = await approvalBinding(tool.name, preview, (path) => ctx.workspace.relative(path));
  if (await asker.approvals?.covers(binding)) return { kind: 'run' };
  const edit = editable(args, preview);
  ctx.emit({
    type: 'approval_requested',
    id: call.id,
    name: tool.name,
    reason,
    ...(preview.command !== undefined ? { command: preview.command } : {}),
    ...(preview.diff !== undefined ? { diff: preview.diff } : {}),
  });
  const request: ApprovalRequest = {
    id: call.id,
    tool: tool.name,
    reason,
    args,
    summary: preview.command ?? preview.summary,
    preview,
    ...(asker.approvals ? { always: binding.scope } : {}),
    ...(asker.approvals?.kept && keepable ? { keep: true } : {}),
    ...(edit ? { edit: { kind: edit.field, text: edit.text, file: edit.file } } : {}),
  };
  const given = await asker.approve(request, ctx.signal);
  // An edit that changes nothing approves the call as it stands: an edited call is asked about again, and a program
  // answering that question with the same edit (canUseTool, a stream-json client) would otherwise be asked forever.
  const answer: ApprovalAnswer =
    given.decision === 'edit' && edit && given.edited === edit.text ? { decision: 'once' } : given;
  const edited =
    answer.decision === 'edit' && edit
      ? { ...(args as Record<string, unknown>), [edit.field]: answer.edited }
      : undefined;
  ctx.emit({
    type: 'approval_answered',
    id: call.id,
    approved: answer.decision === 'once' || answer.decision === 'always' || answer.decision === 'keep',
    decision: answer.decision,
    ...(answer.decision === 'deny' && answer.feedback ? { feedback: answer.feedback } : {}),
    ...(edited ? { edited } : {}),
  });
  if (ctx.signal.aborted) {
    return { kind: 'refused', result: fail('interrupted while waiting for approval; the call did not run') };
  }
  if (answer.decision === 'always' || answer.decision === 'keep') asker.approvals?.remember(binding);
  if (answer.decision === 'keep' && keepable)
    await asker.approvals?.kept?.keep(binding, tool.name, preview.command ?? preview.summary);
  if (answer.decision === 'once' || answer.decision === 'always' || answer.decision === 'keep')
    return { kind: 'run' };
  if (edited && edit && answer.decision === 'edit') {
    return { kind: 'edited', input: edited, note: editNote(edit, answer.edited) };
  }
  const feedback = answer.decision === 'deny' ? answer.feedback?.trim() : undefined;
  const error = feedback
    ? `the user declined this ${tool.name} call: ${feedback}`
    : `the user declined this ${tool.name} call (${reason})`;
  return { kind: 'refused', result: fail(error, { policy: 'declined' }) };
}
