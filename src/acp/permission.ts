// Keel's approval question as ACP's `session/request_permission`, and the editor's choice as Keel's answer:
// allow once → once, allow always → always (this session), reject or a cancelled request → deny.
import type { PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk';
import type { ApprovalAnswer, ApprovalRequest } from '../core/approval.js';

const ALLOW_ONCE = 'allow-once';
const ALLOW_ALWAYS = 'allow-always';
const REJECT = 'reject';

/** The choices offered: "always" only where Keel can remember it (the request says what it would cover). */
export function permissionOptions(request: ApprovalRequest): PermissionOption[] {
  return [
    { optionId: ALLOW_ONCE, name: 'Allow once', kind: 'allow_once' },
    ...(request.always !== undefined
      ? [{ optionId: ALLOW_ALWAYS, name: `Always allow: ${request.always}`, kind: 'allow_always' as const }]
      : []),
    { optionId: REJECT, name: 'Reject', kind: 'reject_once' },
  ];
}

export function permissionAnswer(outcome: RequestPermissionOutcome): ApprovalAnswer {
  if (outcome.outcome !== 'selected') return { decision: 'deny' };
  switch (outcome.optionId) {
    case ALLOW_ONCE:
      return { decision: 'once' };
    case ALLOW_ALWAYS:
      return { decision: 'always' };
    default:
      return { decision: 'deny' };
  }
}
